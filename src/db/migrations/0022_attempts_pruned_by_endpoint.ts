// Every delivery outcome rewrote an entry of webhook_attempts_created, an index only pruning read (issue 46):
// pruning now finds old attempts through each endpoint's (endpoint_id, created_at, id) index. Dropping an
// index changes no query's answer, so processes of the release before run beside it (their pruning reads
// the table instead of the index, slower but the same).
import type { Kysely, Migration } from 'kysely';

export const attemptsPrunedByEndpoint: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.dropIndex('webhook_attempts_created').ifExists().execute();
  },
};

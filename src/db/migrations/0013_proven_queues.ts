// An endpoint that has never answered 2xx (a new one) is probed one attempt at a time, at the failing
// lane's pace, until it does (docs/decisions.md "The delivery scheduler", Two lanes): `proven` says
// whether it has. Endpoints that exist already count as proven, as they were treated before. The lanes'
// partial indexes state the new conditions, word for word as the claim states them.
import { type Kysely, type Migration, sql } from 'kysely';

export const provenQueues: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('webhook_queues')
      .addColumn('proven', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.dropIndex('webhook_queues_healthy').execute();
    await db.schema.dropIndex('webhook_queues_failing').execute();
    await sql`CREATE INDEX webhook_queues_healthy ON webhook_queues (ready_at) WHERE failures = 0 AND proven = 1`.execute(db);
    await sql`CREATE INDEX webhook_queues_failing ON webhook_queues (ready_at) WHERE failures > 0 OR proven = 0`.execute(db);
  },
};

// How many things an audited action covered (issue 42): a recovery records how many events it sent again.
// A nullable column: an expansion (docs/decisions.md "Migrations: expand, then contract"); processes of the
// release before neither read nor write it, and their events have none.
import type { Kysely, Migration } from 'kysely';

export const auditCounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('audit_events').addColumn('count', 'integer').execute();
  },
};

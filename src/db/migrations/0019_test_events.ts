// Test events (issue 35): an admin may send one endpoint an event of any type with sample data, as a ping
// is sent. It goes through the outbox like every event, and `test` keeps it out of the events feed, which
// only ever holds what happened. A column with a default: an expansion (docs/decisions.md "Migrations:
// expand, then contract"); a process of the release before writes 0, which is what it means.
import type { Kysely, Migration } from 'kysely';

export const testEvents: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('events').addColumn('test', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};

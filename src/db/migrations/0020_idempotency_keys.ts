// Idempotency keys (shared decisions §11, src/http/idempotency.ts): the first answer to a write that
// carried an Idempotency-Key, kept 24 hours per credential, written in the transaction of the write it
// answers. A new table: an expansion (docs/decisions.md "Migrations: expand, then contract"); processes
// of the release before neither read nor write it.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function idempotencyKeys(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const text = textType(dialect);
      let table = db.schema
        .createTable('idempotency_keys')
        .addColumn('credential', text, (c) => c.notNull())
        .addColumn('key', text, (c) => c.notNull())
        .addColumn('fingerprint', text, (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('content_type', text)
        .addColumn('location', text)
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['credential', 'key']);
      // A commit's cost is mostly the pages of each B-tree it touches: on SQLite the rows are kept in their
      // key's own B-tree (no rowid table beside it).
      if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
      // Pruning walks the oldest.
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
    },
  };
}

// Readiness asks the store to take a write (decisions §10): each probe rewrites one row of this table,
// which nothing else reads.
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function storeProbes(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('store_probes')
        .addColumn('name', textType(dialect), (c) => c.primaryKey())
        .addColumn('probed_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}

// The audit log (shared decisions §10, src/domain/audit.ts): one row per management write, read newest
// first. A write's cost is mostly the pages its commit writes, one or more per B-tree it touches, so the
// log has two: the table itself ordered by (created_at, id) (on SQLite a WITHOUT ROWID table, on
// PostgreSQL its primary key), which the operator's reading walks, and one index by tenant (the
// organization, or a team of no organization), which every other reader's walks: an organization's
// admins read their tenant's events, a team's ADMIN members their team's among them (`home_id`).
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function auditEvents(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const text = textType(dialect);
      let table = db.schema
        .createTable('audit_events')
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('actor_type', text, (c) => c.notNull())
        .addColumn('actor_id', text)
        .addColumn('action', text, (c) => c.notNull())
        .addColumn('target_type', text, (c) => c.notNull())
        .addColumn('target_id', text)
        .addColumn('home_type', text)
        .addColumn('home_id', text)
        .addColumn('tenant_id', text)
        .addColumn('address', text)
        .addColumn('request_id', text)
        .addColumn('changed', text)
        .addPrimaryKeyConstraint('audit_events_pk', ['created_at', 'id']);
      if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
      await db.schema.createIndex('audit_events_tenant').on('audit_events').columns(['tenant_id', 'created_at', 'id']).execute();
    },
  };
}

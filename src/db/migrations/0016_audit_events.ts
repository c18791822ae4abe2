// The audit log (shared decisions §10, src/domain/audit.ts): one row per management write. Rows are read
// newest first, by everyone the operator lets in: the operator all of them, an organization's admins
// those of the organization and its teams (`organization_id`, the organization the home belonged to
// when it happened), a team's ADMIN members those of the team (`home_type`, `home_id`).
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function auditEvents(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const text = textType(dialect);
      await db.schema
        .createTable('audit_events')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('actor_type', text, (c) => c.notNull())
        .addColumn('actor_id', text)
        .addColumn('action', text, (c) => c.notNull())
        .addColumn('target_type', text, (c) => c.notNull())
        .addColumn('target_id', text)
        .addColumn('home_type', text)
        .addColumn('home_id', text)
        .addColumn('organization_id', text)
        .addColumn('address', text)
        .addColumn('request_id', text)
        .addColumn('changed', text)
        .execute();
      await db.schema.createIndex('audit_events_newest').on('audit_events').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('audit_events_organization').on('audit_events').columns(['organization_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('audit_events_home').on('audit_events').columns(['home_type', 'home_id', 'created_at', 'id']).execute();
    },
  };
}

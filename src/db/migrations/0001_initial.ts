// Organizations, teams, users, memberships, guides with their title search index, API keys and the
// event outbox.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';
import { createTitleIndex } from './title-index.js';

export function initial(dialect: DialectName): Migration {
  const serial = dialect === 'sqlite' ? 'integer' : 'bigserial';
  const text = textType(dialect);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('service_settings')
        .addColumn('name', text, (c) => c.primaryKey())
        .addColumn('value', text, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('organizations')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('plan', text, (c) => c.notNull())
        .addColumn('api_enabled', 'integer', (c) => c.notNull())
        .addColumn('org_keys_only', 'integer', (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('email', text, (c) => c.notNull())
        .addColumn('email_key', text, (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('avatar_url', 'text')
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('organization_admins')
        .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
        .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('organization_admins_pk', ['organization_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('teams')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('name', 'text')
        .addColumn('organization_id', text, (c) => c.references('organizations.id'))
        .addColumn('plan', text, (c) => c.notNull())
        .addColumn('brand_color', 'text')
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('teams_organization').on('teams').columns(['organization_id', 'id']).execute();

      await db.schema
        .createTable('memberships')
        .addColumn('team_id', text, (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', text, (c) => c.notNull())
        .addColumn('joined_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['team_id', 'user_id'])
        .execute();
      // GET /members orders by joined_at, then user id.
      await db.schema.createIndex('memberships_team_order').on('memberships').columns(['team_id', 'joined_at', 'user_id']).execute();
      await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

      await db.schema
        .createTable('guides')
        .addColumn('seq', serial, (c) => c.primaryKey())
        .addColumn('id', text, (c) => c.notNull().unique())
        .addColumn('team_id', text, (c) => c.notNull().references('teams.id'))
        .addColumn('owner_id', text, (c) => c.references('users.id').onDelete('set null'))
        .addColumn('title', 'text')
        .addColumn('title_folded', text, (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('language', text, (c) => c.notNull())
        .addColumn('text_direction', text, (c) => c.notNull())
        .addColumn('app_version', 'text')
        .addColumn('icon_url', 'text')
        .addColumn('thumbnail_url', 'text')
        .addColumn('tags', 'text')
        .addColumn('folder_id', 'text')
        .addColumn('publish_status', text, (c) => c.notNull())
        .addColumn('is_public', 'integer', (c) => c.notNull())
        .addColumn('team_role', 'text')
        .addColumn('permalink', text, (c) => c.notNull().unique())
        .addColumn('steps', text, (c) => c.notNull())
        .addColumn('step_count', 'integer', (c) => c.notNull())
        .addColumn('processing_state', text, (c) => c.notNull())
        .addColumn('processing_error', 'text')
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .execute();
      // Listing is newest first per team: keyset pages walk this index backwards.
      await db.schema.createIndex('guides_team_order').on('guides').columns(['team_id', 'created_at', 'id']).execute();

      if (dialect === 'postgres') {
        // The same search on PostgreSQL: a GIN trigram index that answers LIKE '%term%'.
        await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
        await sql`CREATE INDEX guides_title_search ON guides USING gin (title_folded gin_trgm_ops)`.execute(db);
      }
      if (dialect === 'sqlite') {
        // Case-insensitive substring search on titles without a table scan: a trigram index over the
        // already case-folded title, kept in step with the table by triggers.
        await createTitleIndex(db, 'guides_title_search', 'trigram case_sensitive 1');
      }

      await db.schema
        .createTable('api_keys')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('home_type', text, (c) => c.notNull())
        .addColumn('home_id', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('scopes', text, (c) => c.notNull())
        .addColumn('secret_hash', text, (c) => c.notNull().unique())
        .addColumn('secret_hint', text, (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_home').on('api_keys').columns(['home_type', 'home_id', 'created_at']).execute();

      await db.schema
        .createTable('events')
        .addColumn('seq', serial, (c) => c.primaryKey())
        .addColumn('id', text, (c) => c.notNull().unique())
        .addColumn('type', text, (c) => c.notNull())
        .addColumn('team_id', text, (c) => c.notNull())
        .addColumn('organization_id', 'text')
        .addColumn('payload', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();
    },
  };
}

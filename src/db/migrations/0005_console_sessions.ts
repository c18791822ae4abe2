// The console's sign-in: e-mailed sign-in links and browser sessions. Both keep only a SHA-256 of their
// secret, so a copy of the store signs nobody in. A session without a user is the operator's (signed in
// with the admin token).
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function consoleSessions(dialect: DialectName): Migration {
  const text = textType(dialect);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sign_in_links')
        .addColumn('token_hash', text, (c) => c.primaryKey())
        .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('expires_at', text, (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      // Throttling counts a user's recent links; pruning drops expired ones.
      await db.schema.createIndex('sign_in_links_user').on('sign_in_links').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('sign_in_links_expires').on('sign_in_links').column('expires_at').execute();

      await db.schema
        .createTable('console_sessions')
        .addColumn('token_hash', text, (c) => c.primaryKey())
        .addColumn('user_id', text, (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('csrf_token', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('expires_at', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('console_sessions_expires').on('console_sessions').column('expires_at').execute();
    },
  };
}

// Sign-in link budgets count per asking address (decisions §10, issue 32): each link keeps a keyed hash
// of the client address that asked for it, never the address itself (src/auth/sign-in-links.ts). Links
// made before have none; they still count towards their person's hourly cap until they are deleted.
// Counting reads a person's links of the last hour through sign_in_links_user (user_id, created_at).
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function signInLinkAddresses(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sign_in_links').addColumn('asked_from_hash', textType(dialect)).execute();
    },
  };
}

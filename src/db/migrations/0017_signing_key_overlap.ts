// Signing-key rotation with an overlap (decisions §10, issue 34): the key a rotation replaced keeps
// signing beside the new one until `old_signing_key_ends_at`. Two nullable columns: an expansion, so
// processes of the release before go on while this one rolls out (docs/decisions.md "Migrations: expand,
// then contract"); they neither read nor write them.
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function signingKeyOverlap(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('webhook_endpoints').addColumn('old_signing_key', 'text').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('old_signing_key_ends_at', textType(dialect)).execute();
    },
  };
}

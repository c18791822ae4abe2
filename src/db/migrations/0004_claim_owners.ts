// Claims get an owner: a token written when a worker claims attempts, required by every later change it
// makes to them, so a worker whose lease ran out cannot overwrite the work of the one that took over.
// Mail gets a schedule: when it may next be tried (a lease while one worker sends it, a back-off after
// a failure).
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function claimOwners(dialect: DialectName): Migration {
  const text = textType(dialect);
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('webhook_attempts').addColumn('claim_token', text).execute();
      await db.schema.alterTable('mail_outbox').addColumn('next_attempt_at', text).execute();
      await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['sent_at', 'next_attempt_at']).execute();
    },
  };
}

// Some mail carries a secret (a console sign-in link). The outbox keeps and shows its text with the
// secret redacted; the whole text to send is kept beside it only until the mail is sent, given up, or
// an hour old (src/mail/mail-outbox.ts), so neither the outbox API nor an old row signs anyone in.
import type { Kysely, Migration } from 'kysely';

export const mailSendText: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('mail_outbox').addColumn('send_text', 'text').execute();
  },
};

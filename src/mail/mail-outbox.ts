// E-mail is written to an outbox in the transaction that causes it, so it is never lost and the
// management API can list it; the worker hands it to SMTP when SMTP_URL is set.
import { timestamp } from '../domain/clock.js';
import { type Executor, markUpkeepChanged } from '../domain/context.js';
import { newId } from '../domain/ids.js';
import { MAIL_COLUMNS } from '../db/columns.js';

export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  /** Parts of the text that must be sent but never shown or kept once sent (a sign-in link). */
  secrets?: string[];
}

const REDACTED = '[redacted]';
/** How long the whole text of a mail with a secret is kept for sending; after that it is given up. */
export const SECRET_KEPT_MS = 3_600_000;

export async function queueMail(trx: Executor, mail: OutgoingMail, now: Date): Promise<void> {
  // The commit wakes the upkeep, in whichever process runs it, to hand the mail to SMTP.
  markUpkeepChanged(trx);
  const secrets = mail.secrets ?? [];
  await trx
    .insertInto('mail_outbox')
    .values({
      id: newId(),
      recipients: JSON.stringify(mail.to),
      subject: mail.subject,
      text: secrets.reduce((text, secret) => text.replaceAll(secret, REDACTED), mail.text),
      send_text: secrets.length > 0 ? mail.text : null,
      created_at: timestamp(now),
      sent_at: null,
      send_error: null,
      send_attempts: 0,
      next_attempt_at: null,
    })
    .execute();
}

/**
 * Forgets the whole text of mail that carried a secret and was not sent within SECRET_KEPT_MS, and
 * gives that mail up: its secret (a sign-in link works for 15 minutes) is of no use to anyone by then.
 */
export async function forgetStaleSecrets(db: Executor, now: Date, givenUpAfter: number): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ send_text: null, send_attempts: givenUpAfter, send_error: 'Not sent within an hour; the secret it carried is no longer kept' })
    .where('send_text', 'is not', null)
    .where('created_at', '<', timestamp(new Date(now.getTime() - SECRET_KEPT_MS)))
    .execute();
}

export interface MailEntry {
  id: string;
  to: string[];
  subject: string;
  text: string;
  created_at: string;
  sent_at: string | null;
}

export async function listMail(db: Executor, limit: number): Promise<MailEntry[]> {
  const rows = await db.selectFrom('mail_outbox').select(MAIL_COLUMNS).orderBy('seq', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    id: row.id,
    to: JSON.parse(row.recipients) as string[],
    subject: row.subject,
    text: row.text,
    created_at: row.created_at,
    sent_at: row.sent_at,
  }));
}

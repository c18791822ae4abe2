// E-mail is written to an outbox in the transaction that causes it, so it is never lost and the
// management API can list it; the worker hands it to SMTP when SMTP_URL is set.
import { timestamp } from '../domain/clock.js';
import type { Executor } from '../domain/context.js';
import { newId } from '../domain/ids.js';

export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
}

export async function queueMail(trx: Executor, mail: OutgoingMail, now: Date): Promise<void> {
  await trx
    .insertInto('mail_outbox')
    .values({
      id: newId(),
      recipients: JSON.stringify(mail.to),
      subject: mail.subject,
      text: mail.text,
      created_at: timestamp(now),
      sent_at: null,
      send_error: null,
      send_attempts: 0,
      next_attempt_at: null,
    })
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
  const rows = await db.selectFrom('mail_outbox').selectAll().orderBy('seq', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    id: row.id,
    to: JSON.parse(row.recipients) as string[],
    subject: row.subject,
    text: row.text,
    created_at: row.created_at,
    sent_at: row.sent_at,
  }));
}

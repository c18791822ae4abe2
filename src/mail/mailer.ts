// Hands queued e-mail to SMTP through nodemailer. Without SMTP_URL mail stays in the outbox only. A mail
// is claimed before it is sent (a lease in next_attempt_at, so that one worker of several sends it), and a
// failure backs off for longer each time, over about two days, before the mail is given up as unsent.
import nodemailer, { type Transporter } from 'nodemailer';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { MAIL_COLUMNS } from '../db/columns.js';

const SEND_LEASE_MS = 5 * 60_000;
const BACK_OFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 3_600_000, 3 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000, 24 * 3_600_000];
export const MAX_SEND_ATTEMPTS = BACK_OFF_MS.length + 1;
const BATCH = 20;

export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    smtpUrl: string | null,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    private readonly metrics?: Pick<ServiceMetrics, 'mailSent' | 'mailFailed'>,
  ) {
    // Bounded waits: a mail server that accepts and then stalls must not hold mail up for long.
    this.transport = smtpUrl
      ? nodemailer.createTransport(smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
      : null;
  }

  /** Sends the mail that is due; returns how many went out. */
  async sendDue(ctx: DomainContext): Promise<number> {
    if (!this.transport) return 0;
    const now = ctx.clock.now();
    const nowText = timestamp(now);
    const lock = ctx.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
    const due = await ctx.db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: timestamp(new Date(now.getTime() + SEND_LEASE_MS)) })
      .where('sent_at', 'is', null)
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', nowText)]))
      .where(
        'seq',
        'in',
        sql<number>`(SELECT seq FROM mail_outbox WHERE sent_at IS NULL AND send_attempts < ${MAX_SEND_ATTEMPTS}
          AND (next_attempt_at IS NULL OR next_attempt_at <= ${nowText}) ORDER BY seq LIMIT ${BATCH} ${lock})`,
      )
      .returning(MAIL_COLUMNS)
      .execute();
    let sent = 0;
    for (const mail of due.sort((a, b) => a.seq - b.seq)) {
      const to = JSON.parse(mail.recipients) as string[];
      try {
        if (to.length > 0) await this.transport.sendMail({ from: this.from, to, subject: mail.subject, text: mail.send_text ?? mail.text });
        await ctx.db
          .updateTable('mail_outbox')
          .set({ sent_at: timestamp(ctx.clock.now()), send_attempts: mail.send_attempts + 1, send_error: null, next_attempt_at: null, send_text: null })
          .where('id', '=', mail.id)
          .execute();
        sent++;
        this.metrics?.mailSent.inc();
      } catch (error) {
        this.metrics?.mailFailed.inc();
        const backOff = BACK_OFF_MS[mail.send_attempts] ?? BACK_OFF_MS[BACK_OFF_MS.length - 1]!;
        this.log.warn({ err: error, mail_id: mail.id }, 'could not send e-mail; it stays in the outbox and is tried again later');
        await ctx.db
          .updateTable('mail_outbox')
          .set({
            send_attempts: mail.send_attempts + 1,
            send_error: String((error as Error).message ?? error),
            next_attempt_at: timestamp(new Date(ctx.clock.now().getTime() + backOff)),
            // A mail given up keeps no secret.
            ...(mail.send_attempts + 1 >= MAX_SEND_ATTEMPTS ? { send_text: null } : {}),
          })
          .where('id', '=', mail.id)
          .execute();
      }
    }
    return sent;
  }

  close(): void {
    this.transport?.close();
  }
}

// Hands queued e-mail to SMTP through nodemailer. Without SMTP_URL mail stays in the outbox only.
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';

const MAX_SEND_ATTEMPTS = 5;

export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    smtpUrl: string | null,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  /** Sends what the outbox holds and has not sent; returns how many went out. */
  async sendPending(ctx: DomainContext): Promise<number> {
    if (!this.transport) return 0;
    const pending = await ctx.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('sent_at', 'is', null)
      .where('send_attempts', '<', MAX_SEND_ATTEMPTS)
      .orderBy('seq')
      .limit(20)
      .execute();
    let sent = 0;
    for (const mail of pending) {
      const to = JSON.parse(mail.recipients) as string[];
      try {
        if (to.length > 0) await this.transport.sendMail({ from: this.from, to, subject: mail.subject, text: mail.text });
        await ctx.db
          .updateTable('mail_outbox')
          .set({ sent_at: timestamp(ctx.clock.now()), send_attempts: mail.send_attempts + 1, send_error: null })
          .where('id', '=', mail.id)
          .execute();
        sent++;
      } catch (error) {
        this.log.warn({ err: error, mail_id: mail.id }, 'could not send e-mail; it stays in the outbox');
        await ctx.db
          .updateTable('mail_outbox')
          .set({ send_attempts: mail.send_attempts + 1, send_error: String((error as Error).message ?? error) })
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

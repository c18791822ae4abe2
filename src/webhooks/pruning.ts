// The Deliveries list keeps 30 days (decisions §6): older attempts go, then events no attempt refers to,
// then old mail. Attempts still to be sent (scheduled, which includes those being sent, or missed while
// their endpoint is paused) stay whatever their age: a resume with redelivery must find them.
import { sql } from 'kysely';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import { forgetStaleSecrets } from '../mail/mail-outbox.js';
import { MAX_SEND_ATTEMPTS } from '../mail/mailer.js';

export const RETENTION_MS = 30 * 86_400_000;

export async function pruneOldDeliveries(ctx: DomainContext): Promise<void> {
  const cutoff = timestamp(new Date(ctx.clock.now().getTime() - RETENTION_MS));
  await ctx.db.deleteFrom('webhook_attempts').where('created_at', '<', cutoff).where('status', 'not in', ['scheduled', 'missed']).execute();
  await ctx.db
    .deleteFrom('events')
    .where('created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_attempts').select(sql`1`.as('one')).whereRef('webhook_attempts.event_id', '=', 'events.id'))))
    .execute();
  await ctx.db.deleteFrom('mail_outbox').where('created_at', '<', cutoff).execute();
  await forgetStaleSecrets(ctx.db, ctx.clock.now(), MAX_SEND_ATTEMPTS);
}

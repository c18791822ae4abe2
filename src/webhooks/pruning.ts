// The Deliveries list keeps 30 days (decisions §6): older attempts go, then events no attempt refers to
// once the events feed no longer keeps them either (EVENTS_RETENTION_DAYS), then old mail. Attempts still
// to be sent (scheduled, which includes those being sent, or missed while their endpoint is paused) stay
// whatever their age, and so do their events: a resume with redelivery must find them.
import { sql } from 'kysely';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import { dropFromFeed } from '../domain/event-feed.js';
import { forgetStaleSecrets } from '../mail/mail-outbox.js';
import { MAX_SEND_ATTEMPTS } from '../mail/mailer.js';

export const RETENTION_MS = 30 * 86_400_000;

export async function pruneOldDeliveries(ctx: DomainContext, eventsRetentionMs = RETENTION_MS): Promise<void> {
  const now = ctx.clock.now().getTime();
  const cutoff = timestamp(new Date(now - RETENTION_MS));
  const eventsCutoff = timestamp(new Date(now - eventsRetentionMs));
  await ctx.db.deleteFrom('webhook_attempts').where('created_at', '<', cutoff).where('status', 'not in', ['scheduled', 'missed']).execute();
  // The feed's horizon moves with the deletion, in one transaction: a cursor from before what is gone is
  // then refused, never answered with a silent gap.
  await ctx.db.transaction().execute(async (trx) => {
    await dropFromFeed(trx, eventsCutoff);
    await trx
      .deleteFrom('events')
      .where('created_at', '<', eventsCutoff)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_attempts').select(sql`1`.as('one')).whereRef('webhook_attempts.event_id', '=', 'events.id'))))
      .execute();
  });
  await ctx.db.deleteFrom('mail_outbox').where('created_at', '<', cutoff).execute();
  await forgetStaleSecrets(ctx.db, ctx.clock.now(), MAX_SEND_ATTEMPTS);
}

// The Deliveries list keeps attempts WEBHOOK_ATTEMPTS_RETENTION_DAYS (30 by default; decisions §6): older
// attempts go, then events no attempt refers to once the events feed no longer keeps them either
// (EVENTS_RETENTION_DAYS), then mail older than 30 days. Attempts still to be sent (scheduled, which includes
// those being sent, or missed while their endpoint is paused) stay whatever their age, and so do their
// events: a resume with redelivery must find them. Mail keeps its own 30 days whatever the attempts' setting:
// it holds people's addresses, and a longer Deliveries list is no reason to keep those longer.
// Attempts and events go in batches (src/db/batches.ts): after a retention is shortened there may be
// millions to delete.
import { sql } from 'kysely';
import { deleted, inBatches, PRUNE_BATCH } from '../db/batches.js';
import { timestamp } from '../domain/clock.js';
import type { DomainContext, Executor } from '../domain/context.js';
import { dropFromFeed } from '../domain/event-feed.js';
import { forgetStaleSecrets } from '../mail/mail-outbox.js';
import { MAX_SEND_ATTEMPTS } from '../mail/mailer.js';

/** The default of EVENTS_RETENTION_DAYS and WEBHOOK_ATTEMPTS_RETENTION_DAYS. */
export const RETENTION_MS = 30 * 86_400_000;
/** How long the mail outbox keeps a message. */
export const MAIL_RETENTION_MS = 30 * 86_400_000;
export async function pruneOldDeliveries(ctx: DomainContext, eventsRetentionMs = RETENTION_MS, attemptsRetentionMs = RETENTION_MS): Promise<void> {
  const now = ctx.clock.now().getTime();
  const attemptsCutoff = timestamp(new Date(now - attemptsRetentionMs));
  const eventsCutoff = timestamp(new Date(now - eventsRetentionMs));
  await inBatches(async () =>
    deleted(
      await ctx.db
        .deleteFrom('webhook_attempts')
        .where('seq', 'in', (eb) =>
          eb.selectFrom('webhook_attempts as a').select('a.seq').where('a.created_at', '<', attemptsCutoff).where('a.status', 'not in', ['scheduled', 'missed']).limit(PRUNE_BATCH),
        )
        .executeTakeFirst(),
    ),
  );
  const eventsBatch = async (db: Executor) =>
    deleted(
      await db
        .deleteFrom('events')
        .where('seq', 'in', (eb) =>
          eb
            .selectFrom('events as e')
            .select('e.seq')
            .where('e.created_at', '<', eventsCutoff)
            .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_attempts').select(sql`1`.as('one')).whereRef('webhook_attempts.event_id', '=', 'e.id'))))
            .limit(PRUNE_BATCH),
        )
        .executeTakeFirst(),
    );
  // The feed's horizon moves with the deletion, in one transaction: a cursor from before what is gone is
  // then refused, never answered with a silent gap. The batches after the first delete only events already
  // behind that horizon.
  let first = true;
  await inBatches(async () => {
    if (!first) return eventsBatch(ctx.db);
    first = false;
    return ctx.db.transaction().execute(async (trx) => {
      await dropFromFeed(trx, eventsCutoff);
      return eventsBatch(trx);
    });
  });
  await ctx.db.deleteFrom('mail_outbox').where('created_at', '<', timestamp(new Date(now - MAIL_RETENTION_MS))).execute();
  await forgetStaleSecrets(ctx.db, ctx.clock.now(), MAX_SEND_ATTEMPTS);
}

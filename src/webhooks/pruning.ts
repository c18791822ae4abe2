// The Deliveries list keeps attempts WEBHOOK_ATTEMPTS_RETENTION_DAYS (30 by default; decisions §6): older
// attempts go, then events no attempt refers to once the events feed no longer keeps them either
// (EVENTS_RETENTION_DAYS), then mail older than 30 days. Attempts still to be sent (scheduled, which includes
// those being sent, or missed while their endpoint is paused) stay whatever their age, and so do their
// events: a resume with redelivery must find them. Mail keeps its own 30 days whatever the attempts' setting:
// it holds people's addresses, and a longer Deliveries list is no reason to keep those longer.
// Attempts and events go in batches (src/db/batches.ts): after a retention is shortened there may be
// millions to delete.
import { type RawBuilder, sql } from 'kysely';
import { deleted, inBatches, PRUNE_BATCH } from '../db/batches.js';
import { isPostgres } from '../db/sql-functions.js';
import { timestamp } from '../domain/clock.js';
import type { DomainContext, Executor } from '../domain/context.js';
import { dropFromFeed } from '../domain/event-feed.js';
import { forgetStaleSecrets } from '../mail/mail-outbox.js';
import { MAX_SEND_ATTEMPTS } from '../mail/mailer.js';

// Endpoints one pruning statement looks at at most: with nothing to delete, a look at 10,000 endpoints
// took 20 ms on SQLite, holding the service's only thread.
const ENDPOINTS_PER_LOOK = 500;

/**
 * Sent attempts made before `cutoff`, of the endpoints `from` to `to` (in the store's order), up to
 * PRUNE_BATCH of them in endpoint order, found through the index the Deliveries list reads, (endpoint_id,
 * created_at, id): every attempt has its endpoint (they go with it), and an index of its own on
 * created_at, which only pruning read, cost every outcome an index entry (issue 46). On PostgreSQL each
 * endpoint's look is a LATERAL subquery in created_at order, which with statistics of many endpoints is
 * an index scan (it marks the entries of rows that earlier batches deleted dead; a bitmap scan, which the
 * planner takes when it knows of few endpoints, reads them again); SQLite, which has no LATERAL, is told
 * the index.
 */
function isOldSentAttempt(db: Executor, cutoff: string, from: string, to: string): RawBuilder<boolean> {
  const sent = sql`a.created_at < ${cutoff} AND a.status NOT IN ('scheduled', 'missed')`;
  const endpoints = sql`ep.id >= ${from} AND ep.id <= ${to}`;
  if (isPostgres(db)) {
    // An array worked out first, then found by the primary key: as `seq IN (…)`, the estimate of a whole
    // batch made the planner hash the batch and scan the table for it.
    return sql<boolean>`seq = ANY(ARRAY(SELECT old.seq FROM webhook_endpoints ep CROSS JOIN LATERAL
      (SELECT a.seq FROM webhook_attempts a WHERE a.endpoint_id = ep.id AND ${sent} ORDER BY a.created_at LIMIT ${PRUNE_BATCH}) old
      WHERE ${endpoints} ORDER BY ep.id LIMIT ${PRUNE_BATCH}))`;
  }
  return sql<boolean>`seq IN (SELECT a.seq FROM webhook_endpoints ep JOIN webhook_attempts a INDEXED BY webhook_attempts_endpoint ON a.endpoint_id = ep.id
    WHERE ${endpoints} AND ${sent} ORDER BY ep.id LIMIT ${PRUNE_BATCH})`;
}

/**
 * Deletes the sent attempts made before `cutoff`, ENDPOINTS_PER_LOOK endpoints at a time, a batch at a
 * time. Each batch starts at the endpoint where the last one stopped, so a backlog is walked once, not
 * again from the first endpoint by every batch (half a million old attempts of 100 endpoints on
 * PostgreSQL: 110 s so; 9 s walked once, against 5 s through the created_at index).
 */
async function pruneSentAttempts(db: Executor, cutoff: string): Promise<void> {
  let after: string | null = null;
  for (;;) {
    let next = db.selectFrom('webhook_endpoints').select('id').orderBy('id').limit(ENDPOINTS_PER_LOOK);
    if (after !== null) next = next.where('id', '>', after);
    const endpoints = (await next.execute()).map((endpoint) => endpoint.id);
    if (endpoints.length === 0) return;
    const to = endpoints.at(-1)!;
    let from = endpoints[0]!;
    await inBatches(async () => {
      const gone = await db.deleteFrom('webhook_attempts').where(isOldSentAttempt(db, cutoff, from, to)).returning('endpoint_id').execute();
      // The last endpoint of a whole batch may have more: the next batch starts with it. The greatest id
      // in JavaScript's order may not be the last in the store's; any id of the batch is a safe start,
      // as the endpoints before the last have nothing left to delete.
      for (const { endpoint_id } of gone) if (endpoint_id > from) from = endpoint_id;
      return gone.length;
    });
    if (endpoints.length < ENDPOINTS_PER_LOOK) return;
    after = to;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The default of EVENTS_RETENTION_DAYS and WEBHOOK_ATTEMPTS_RETENTION_DAYS. */
export const RETENTION_MS = 30 * 86_400_000;
/** How long the mail outbox keeps a message. */
export const MAIL_RETENTION_MS = 30 * 86_400_000;
export async function pruneOldDeliveries(ctx: DomainContext, eventsRetentionMs = RETENTION_MS, attemptsRetentionMs = RETENTION_MS): Promise<void> {
  const now = ctx.clock.now().getTime();
  const attemptsCutoff = timestamp(new Date(now - attemptsRetentionMs));
  const eventsCutoff = timestamp(new Date(now - eventsRetentionMs));
  await pruneSentAttempts(ctx.db, attemptsCutoff);
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

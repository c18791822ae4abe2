// Recover (shared decisions §11, issue 42): after an outage, what an endpoint did not get since a moment is
// sent again in one call instead of one resend at a time. It takes every event to the endpoint created
// since then whose latest attempt failed or was missed (a cancelled attempt was never sent and does not
// count) and that has no attempt still to come, and gives each one new attempt as a resend does: the next
// attempt number, a new delivery id, no automatic retries of its own (recovering again sends what failed
// again). They are written due now, oldest event first, so the endpoint's queue sends them in that order
// behind what was due before them, through its breaker like any attempt. Refused while the endpoint is
// paused (its resume, with redelivery if wanted, comes first) and for a `since` the attempts' retention
// (WEBHOOK_ATTEMPTS_RETENTION_DAYS) may have pruned from under it, or one in the future.
import { recordAudit } from '../domain/audit.js';
import { timestamp } from '../domain/clock.js';
import { type DomainContext, type Executor, transact } from '../domain/context.js';
import { madeAfter, type NewAttempt, scheduleAttempts } from '../domain/delivery-attempts.js';
import { lockQueues } from '../domain/delivery-queues.js';
import { ConflictError, InvalidInputError } from '../domain/errors.js';
import { homeOf } from '../domain/homes.js';
import { requireEndpoint } from './endpoints.js';

// Attempts written by one statement at most (bound parameters stay well under each store's limit).
const WRITE_CHUNK = 500;

/** Refuses a `since` in the future, or older than the attempts' retention (`retentionMs`). */
function checkSince(since: Date, now: Date, retentionMs: number): void {
  if (since.getTime() > now.getTime()) throw new InvalidInputError('since', "Field 'since' must not be in the future");
  const earliest = new Date(now.getTime() - retentionMs);
  if (since < earliest) {
    throw new InvalidInputError(
      'since',
      `Field 'since' must be within the Deliveries list's retention (WEBHOOK_ATTEMPTS_RETENTION_DAYS: ${Math.round(retentionMs / 86_400_000)} days): ${timestamp(earliest)} or later`,
    );
  }
}

/** The events to send again, oldest first, each with the highest attempt number it has at the endpoint. */
async function eventsToRecover(trx: Executor, endpointId: string, since: string): Promise<{ event_id: string; top: number }[]> {
  const rows = await trx
    .selectFrom('webhook_attempts as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select('a.event_id')
    .select((eb) =>
      eb
        .selectFrom('webhook_attempts as n')
        .select((inner) => inner.fn.max('n.attempt_number').as('top'))
        .whereRef('n.event_id', '=', 'a.event_id')
        .whereRef('n.endpoint_id', '=', 'a.endpoint_id')
        .as('top'),
    )
    .where('a.endpoint_id', '=', endpointId)
    // An event's attempts are written at or after it: this bound lets the endpoint's index find them.
    .where('a.created_at', '>=', since)
    .where('e.created_at', '>=', since)
    .where('a.status', 'in', ['failed', 'missed'])
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_attempts as l').select('l.seq').where('l.status', '!=', 'cancelled').where(madeAfter('l', 'a')))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_attempts as w').select('w.seq').whereRef('w.event_id', '=', 'a.event_id').whereRef('w.endpoint_id', '=', 'a.endpoint_id').where('w.status', '=', 'scheduled'))),
    )
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
  return rows.map((row) => ({ event_id: row.event_id, top: Number(row.top) }));
}

/** Sends again what the endpoint did not get since `since`; answers how many events. */
export async function recoverEndpoint(ctx: DomainContext, id: string, since: Date, retentionMs: number): Promise<number> {
  const now = ctx.clock.now();
  checkSince(since, now, retentionMs);
  return transact(ctx, async (trx) => {
    // Its queue first, as every write of an endpoint's attempts takes it: no outcome is written meanwhile.
    await lockQueues(trx, [id]);
    const endpoint = await requireEndpoint(trx, id);
    if (endpoint.status === 'paused') throw new ConflictError('The endpoint is paused; resume it (with redeliver_missed to send what it missed) before recovering');
    const events = await eventsToRecover(trx, id, timestamp(since));
    for (let start = 0; start < events.length; start += WRITE_CHUNK) {
      const attempts: NewAttempt[] = events
        .slice(start, start + WRITE_CHUNK)
        .map(({ event_id, top }) => ({ eventId: event_id, endpointId: id, attemptNumber: top + 1, autoRetry: false, status: 'scheduled', dueAt: now, now }));
      await scheduleAttempts(trx, attempts);
    }
    // Nothing to send changes nothing, and records nothing (as resuming an active endpoint).
    if (events.length > 0) {
      await recordAudit(ctx, trx, { action: 'webhook_endpoint.recovered', target: { type: 'webhook_endpoint', id }, home: homeOf(endpoint), count: events.length });
    }
    return events.length;
  });
}

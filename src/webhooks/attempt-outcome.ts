// What follows a sent attempt (spec §3.3, §3.4; decisions §6, §9). On success the endpoint is healthy
// again and its breaker closes. On failure the next retry is scheduled from WEBHOOK_RETRY_DELAYS (later
// when a 429 or 503 asks with Retry-After, never past the schedule's last delay), a 410 pauses the
// endpoint at once, failures lasting WEBHOOK_PAUSE_AFTER_MS pause it, and the breaker counts the failure:
// from the third in a row, the endpoint's next attempt (a probe) waits as long as the first retry would.
// All of it commits in one transaction, and only if the attempt is still held by the claim that sent it.
import { timestamp } from '../domain/clock.js';
import type { DomainContext, Executor } from '../domain/context.js';
import { recordDelivered, recordSent, scheduleAttempts } from '../domain/delivery-attempts.js';
import { setBreaker } from '../domain/delivery-queues.js';
import type { ClaimedAttempt } from './attempt-claims.js';
import { pauseEndpoint } from './pausing.js';
import { JITTER, retryAfterMs, retryDelayMs } from './retry-schedule.js';
import type { DeliveryOutcome } from './sender.js';

export interface RetryPolicy {
  retryDelaysMs: readonly number[];
  pauseAfterMs: number;
  random?: () => number;
}

/** Failed attempts in a row after which an endpoint's breaker holds its next attempt back. */
export const BREAKER_OPENS_AFTER = 3;

/** How long an open breaker waits before its probe: as long as the shortest first retry. */
export function probeGapMs(policy: RetryPolicy): number {
  return Math.round((policy.retryDelaysMs[0] ?? 10_000) * (1 - JITTER));
}

/** The claim lapsed and another worker took the attempt over: this outcome is not recorded. */
export class LostClaimError extends Error {
  constructor(deliveryId: string) {
    super(`the claim on delivery ${deliveryId} lapsed before its outcome was recorded`);
    this.name = 'LostClaimError';
  }
}

export interface SentAttempt {
  at: Date;
  /** The request headers as sent, as JSON. */
  headers: string;
  outcome: DeliveryOutcome;
  /** Failed attempts in a row before this one, as the batch that sent it knows. */
  failuresBefore: number;
  /** The claim on the endpoint's queue under which it was sent. */
  token: string;
}

interface Throttle {
  /** How long the receiver asked to wait. */
  askedMs: number;
  /** How long the endpoint is held: that, but never longer than the schedule's last delay. */
  holdMs: number;
}

function throttleOf(policy: RetryPolicy, outcome: DeliveryOutcome, now: Date): Throttle | null {
  const askedMs = retryAfterMs(outcome.retryAfter, now);
  if (askedMs === null) return null;
  return { askedMs, holdMs: Math.min(askedMs, policy.retryDelaysMs[policy.retryDelaysMs.length - 1] ?? askedMs) };
}

/** The error as the Deliveries list shows it, saying why the endpoint waits when the receiver asked it to. */
function shownError(outcome: DeliveryOutcome, throttle: Throttle | null, holdUntil: Date | null): string | null {
  if (throttle === null || holdUntil === null) return outcome.error;
  const capped = throttle.holdMs < throttle.askedMs ? ' (the longest retry delay; it asked for longer)' : '';
  return `${outcome.error}; the receiver asked to wait (Retry-After: ${outcome.retryAfter}), so no attempt goes to this endpoint before ${timestamp(holdUntil)}${capped}`;
}

/**
 * Records delivered attempts inside a transaction of the caller's (which records other outcomes too),
 * all in one statement; answers for each the endpoint's failures in a row after it (0), or the
 * LostClaimError of one whose claim lapsed.
 */
export async function recordDeliveries(
  trx: Executor,
  sent: readonly { attempt: ClaimedAttempt; sent: SentAttempt }[],
): Promise<(number | LostClaimError)[]> {
  const recorded = await recordDelivered(
    trx,
    sent.map(({ attempt, sent: { at, headers, outcome, token } }) => ({
      seq: attempt.seq,
      token,
      sentAt: at,
      durationMs: outcome.durationMs,
      requestHeaders: headers,
      responseStatus: outcome.status!,
      responseBody: outcome.body,
    })),
  );
  const results: (number | LostClaimError)[] = [];
  for (const { attempt, sent: delivery } of sent) {
    if (!recorded.has(attempt.seq)) {
      results.push(new LostClaimError(attempt.id));
      continue;
    }
    if (delivery.failuresBefore > 0) {
      // The endpoint is healthy again: its breaker closes and its failure clock stops.
      await setBreaker(trx, attempt.endpoint_id, 0, null);
      await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', attempt.endpoint_id).execute();
    }
    results.push(0);
  }
  return results;
}

/**
 * Records a failed attempt inside a transaction of the caller's and answers the endpoint's failures in
 * a row after it; LostClaimError when its claim lapsed.
 */
export async function recordFailure(trx: Executor, ctx: DomainContext, policy: RetryPolicy, attempt: ClaimedAttempt, sent: SentAttempt): Promise<number> {
  const { outcome, token } = sent;
  const now = ctx.clock.now();
  const endpoint = await trx.selectFrom('webhook_endpoints').select(['status', 'failing_since']).where('id', '=', attempt.endpoint_id).executeTakeFirst();
  const throttle = throttleOf(policy, outcome, now);
  const delay = attempt.auto_retry ? retryDelayMs(policy.retryDelaysMs, attempt.attempt_number, policy.random) : null;
  const retryAt = delay === null ? null : new Date(now.getTime() + Math.max(delay, throttle?.holdMs ?? 0));
  const failures = sent.failuresBefore + 1;
  let probeAt = failures >= BREAKER_OPENS_AFTER ? now.getTime() + probeGapMs(policy) : null;
  if (throttle !== null) probeAt = Math.max(probeAt ?? 0, now.getTime() + throttle.holdMs);
  const holdUntil = probeAt === null ? null : new Date(probeAt);
  const record = {
    delivered: false,
    sentAt: sent.at,
    durationMs: outcome.durationMs,
    requestHeaders: sent.headers,
    responseStatus: outcome.status,
    responseBody: outcome.body,
    error: shownError(outcome, throttle, holdUntil),
    nextAttemptAt: retryAt,
  };
  if (!(await recordSent(trx, attempt, token, record))) throw new LostClaimError(attempt.id);
  if (!endpoint) return failures; // deleted meanwhile: its attempts went with it

  let paused = endpoint.status === 'paused';
  if (outcome.status === 410) paused = (await pauseEndpoint(trx, attempt.endpoint_id, 'gone', now, policy.pauseAfterMs)) || paused;
  if (retryAt !== null) {
    const status = paused ? 'missed' : 'scheduled';
    // Not announced: this worker holds the endpoint's queue and works out when it is next ready once
    // its batch ends.
    await scheduleAttempts(
      trx,
      [{ eventId: attempt.event_id, endpointId: attempt.endpoint_id, attemptNumber: attempt.attempt_number + 1, autoRetry: true, status, dueAt: retryAt, now }],
      { announce: false },
    );
  }
  await setBreaker(trx, attempt.endpoint_id, failures, holdUntil);
  const failingSince = endpoint.failing_since ?? timestamp(sent.at);
  if (endpoint.failing_since === null) {
    await trx.updateTable('webhook_endpoints').set({ failing_since: failingSince }).where('id', '=', attempt.endpoint_id).execute();
  }
  if (!paused && Date.parse(failingSince) <= now.getTime() - policy.pauseAfterMs) {
    await pauseEndpoint(trx, attempt.endpoint_id, 'failing', now, policy.pauseAfterMs);
  }
  return failures;
}

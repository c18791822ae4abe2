// What follows a sent attempt (spec §3.3, §3.4; decisions §6, §9). On success the endpoint is healthy
// again and its breaker closes. On failure the next retry is scheduled from WEBHOOK_RETRY_DELAYS (later
// when a 429 or 503 asks with Retry-After, never past the schedule's last delay), a 410 pauses the
// endpoint at once, failures lasting WEBHOOK_PAUSE_AFTER_MS pause it, and the breaker counts the failure:
// from the third in a row, the endpoint's next attempt (a probe) waits as long as the first retry would.
// A delivered event is settled (shared decisions §11): its attempts still to come to that endpoint are
// cancelled in the same transaction.
// All of it commits in one transaction, and only if the attempt is still held by the claim that sent it;
// on PostgreSQL a group of outcomes takes a fixed number of statements however large it is (on SQLite,
// where a statement is no round trip, the outcomes themselves are written row by row: recordSent).
import { timestamp } from '../domain/clock.js';
import type { DomainContext, Executor } from '../domain/context.js';
import { sql } from 'kysely';
import { valuesTable } from '../db/sql-functions.js';
import { cancelSettled, type NewAttempt, recordSent, scheduleAttempts } from '../domain/delivery-attempts.js';
import { type Breaker, setBreakers } from '../domain/delivery-queues.js';
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
  /** Whether the endpoint had never answered 2xx when it was claimed: a 2xx now proves it. */
  proving: boolean;
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

/** A sent attempt and what came of it, as the batch that sent it knows. */
export interface Outcome {
  attempt: ClaimedAttempt;
  sent: SentAttempt;
}

/** What a failure leads to, worked out before anything is written. */
interface FailurePlan {
  failures: number;
  retryAt: Date | null;
  holdUntil: Date | null;
}

function planFailure(policy: RetryPolicy, { attempt, sent }: Outcome, now: Date): FailurePlan & { error: string | null } {
  const throttle = throttleOf(policy, sent.outcome, now);
  const delay = attempt.auto_retry ? retryDelayMs(policy.retryDelaysMs, attempt.attempt_number, policy.random) : null;
  const retryAt = delay === null ? null : new Date(now.getTime() + Math.max(delay, throttle?.holdMs ?? 0));
  const failures = sent.failuresBefore + 1;
  let probeAt = failures >= BREAKER_OPENS_AFTER ? now.getTime() + probeGapMs(policy) : null;
  if (throttle !== null) probeAt = Math.max(probeAt ?? 0, now.getTime() + throttle.holdMs);
  const holdUntil = probeAt === null ? null : new Date(probeAt);
  return { failures, retryAt, holdUntil, error: shownError(sent.outcome, throttle, holdUntil) };
}

/**
 * Records outcomes of attempts, at most one batch's per endpoint (its 2xx answers and at most one other,
 * which ended it), inside a transaction of the caller's, in a fixed number of statements however many
 * there are (but for recordSent's rows on SQLite), plus a few for each endpoint that a failure pauses.
 * Answers, for each, the endpoint's failures in a row after it, or the LostClaimError of one whose claim
 * lapsed (nothing of it is written).
 */
export async function recordOutcomes(trx: Executor, ctx: DomainContext, policy: RetryPolicy, outcomes: readonly Outcome[]): Promise<(number | LostClaimError)[]> {
  if (outcomes.length === 0) return [];
  const now = ctx.clock.now();
  const plans = outcomes.map((outcome) => (outcome.sent.outcome.delivered ? null : planFailure(policy, outcome, now)));
  const recorded = await recordSent(
    trx,
    ctx.dialect,
    outcomes.map(({ attempt, sent: { at, headers, outcome, token } }, index) => ({
      seq: attempt.seq,
      token,
      delivered: outcome.delivered,
      sentAt: at,
      durationMs: outcome.durationMs,
      requestHeaders: headers,
      responseStatus: outcome.status,
      responseBody: outcome.body,
      error: plans[index]?.error ?? null,
      nextAttemptAt: plans[index]?.retryAt ?? null,
    })),
  );
  const failed = outcomes.filter(({ attempt }, index) => plans[index] !== null && recorded.has(attempt.seq));
  const endpoints = new Map(
    failed.length === 0
      ? []
      : (
          await trx
            .selectFrom('webhook_endpoints')
            .select(['id', 'status', 'failing_since'])
            .where('id', 'in', failed.map(({ attempt }) => attempt.endpoint_id))
            .execute()
        ).map((endpoint) => [endpoint.id, endpoint]),
  );
  const breakers: Breaker[] = [];
  const healed = new Set<string>();
  const retries: NewAttempt[] = [];
  const failingSince: { endpointId: string; since: string }[] = [];
  const toPause: { endpointId: string; reason: 'gone' | 'failing' }[] = [];
  const results = outcomes.map(({ attempt, sent }, index): number | LostClaimError => {
    if (!recorded.has(attempt.seq)) return new LostClaimError(attempt.id);
    const plan = plans[index];
    if (!plan) {
      // The endpoint is healthy again (or for the first time): its breaker closes and its failure clock stops.
      if (sent.failuresBefore > 0 || sent.proving) healed.add(attempt.endpoint_id);
      return 0;
    }
    const endpoint = endpoints.get(attempt.endpoint_id);
    if (!endpoint) return plan.failures; // deleted meanwhile: its attempts went with it
    if (plan.retryAt !== null) {
      // Not announced: the worker that sent it holds the endpoint's queue and works out when it is next
      // ready once its batch ends. Missed if the endpoint is paused (a pause below marks it so too).
      retries.push({ eventId: attempt.event_id, endpointId: attempt.endpoint_id, attemptNumber: attempt.attempt_number + 1, autoRetry: true, status: 'scheduled', dueAt: plan.retryAt, now });
    }
    breakers.push({ endpointId: attempt.endpoint_id, failures: plan.failures, probeAt: plan.holdUntil });
    // The failure clock starts at a failure that follows a success (earlier in this batch, or before it).
    const since = sent.failuresBefore === 0 || endpoint.failing_since === null ? timestamp(sent.at) : endpoint.failing_since;
    if (since !== endpoint.failing_since) failingSince.push({ endpointId: attempt.endpoint_id, since });
    // A 410 pauses at once; otherwise failures lasting WEBHOOK_PAUSE_AFTER_MS do.
    if (sent.outcome.status === 410) toPause.push({ endpointId: attempt.endpoint_id, reason: 'gone' });
    else if (Date.parse(since) <= now.getTime() - policy.pauseAfterMs) toPause.push({ endpointId: attempt.endpoint_id, reason: 'failing' });
    return plan.failures;
  });
  // A batch that succeeded and then failed ends failing: its failure decides the breaker.
  for (const { endpointId } of breakers) healed.delete(endpointId);
  const pausedAlready = new Set([...endpoints.values()].filter((endpoint) => endpoint.status === 'paused').map((endpoint) => endpoint.id));
  for (const retry of retries) if (pausedAlready.has(retry.endpointId)) retry.status = 'missed';
  await scheduleAttempts(trx, retries, { announce: false });
  const settled = outcomes.filter(({ attempt, sent }) => sent.outcome.delivered && recorded.has(attempt.seq));
  await cancelSettled(
    trx,
    ctx.dialect,
    settled.map(({ attempt, sent }) => ({ eventId: attempt.event_id, endpointId: attempt.endpoint_id, at: new Date(sent.at.getTime() + sent.outcome.durationMs) })),
  );
  await setBreakers(trx, [...breakers, ...[...healed].map((endpointId) => ({ endpointId, failures: 0, probeAt: null }))]);
  await setFailingSince(trx, failingSince, healed);
  // Pausing marks what waits missed, the retry just written included.
  for (const { endpointId, reason } of toPause) await pauseEndpoint(trx, endpointId, reason, now, policy.pauseAfterMs);
  return results;
}

/** Starts the failure clocks of endpoints that failed after a success, and stops those of endpoints healthy again. */
async function setFailingSince(trx: Executor, started: readonly { endpointId: string; since: string }[], stopped: ReadonlySet<string>): Promise<void> {
  if (started.length > 0) {
    const v = valuesTable(trx, { v_endpoint: 'TEXT', v_since: 'TEXT' }, started.map(({ endpointId, since }) => ({ v_endpoint: endpointId, v_since: since })));
    await sql`WITH ${v}
      UPDATE webhook_endpoints SET failing_since = v_since FROM v WHERE id = v_endpoint`.execute(trx);
  }
  if (stopped.size > 0) await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', 'in', [...stopped]).execute();
}

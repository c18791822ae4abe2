// What follows a sent attempt (spec §3.3, §3.4; decisions §6): on success the endpoint is healthy again;
// on failure the next retry is scheduled from WEBHOOK_RETRY_DELAYS, a 410 pauses the endpoint at once,
// and failures lasting WEBHOOK_PAUSE_AFTER_MS pause it. All of it commits in one transaction, and only if
// the attempt is still held by the claim that sent it.
import { timestamp } from '../domain/clock.js';
import type { DomainContext, Executor } from '../domain/context.js';
import { scheduleAttempt } from '../domain/outbox.js';
import type { ClaimedAttempt } from './attempt-claims.js';
import { pauseEndpoint } from './pausing.js';
import { retryDelayMs } from './retry-schedule.js';
import type { DeliveryOutcome } from './sender.js';

export interface RetryPolicy {
  retryDelaysMs: readonly number[];
  pauseAfterMs: number;
  random?: () => number;
}

/** The claim lapsed and another worker took the attempt over: this outcome is not recorded. */
export class LostClaimError extends Error {
  constructor(deliveryId: string) {
    super(`the claim on delivery ${deliveryId} lapsed before its outcome was recorded`);
    this.name = 'LostClaimError';
  }
}

/** Text from a receiver as the store can keep it: no store keeps NUL characters in text. */
function storable(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\u0000', '\uFFFD');
}

export interface SentAttempt {
  at: Date;
  headers: Record<string, string>;
  outcome: DeliveryOutcome;
  /** Whether the endpoint was marked failing when the attempt was sent; only its own batch changes that. */
  endpointFailing?: boolean;
}

export async function recordOutcome(ctx: DomainContext, policy: RetryPolicy, attempt: ClaimedAttempt, sent: SentAttempt): Promise<void> {
  // Not `transact`: a retry is due later, and the end of the batch wakes the worker anyway.
  await ctx.db.transaction().execute((trx) => recordOutcomeIn(trx, ctx, policy, attempt, sent));
}

/** The same inside a transaction of the caller's, which may record other outcomes too. */
export async function recordOutcomeIn(trx: Executor, ctx: DomainContext, policy: RetryPolicy, attempt: ClaimedAttempt, sent: SentAttempt): Promise<void> {
  const { outcome } = sent;
  const now = ctx.clock.now();
  const held = await trx
    .updateTable('webhook_attempts')
    .set({
      status: outcome.delivered ? 'delivered' : 'failed',
      claimed_until: null,
      claim_token: null,
      sent_at: timestamp(sent.at),
      duration_ms: outcome.durationMs,
      request_headers: JSON.stringify(sent.headers),
      response_status: outcome.status,
      response_body: storable(outcome.body),
      error: storable(outcome.error),
    })
    .where('seq', '=', attempt.seq)
    .where('claim_token', '=', attempt.claim_token)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  if (held.numUpdatedRows === 0n) throw new LostClaimError(attempt.id);

  if (outcome.delivered) {
    if (sent.endpointFailing === false) return;
    // The endpoint is healthy again; a statement that matches nothing when it already was.
    await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', '=', attempt.endpoint_id)
      .where('failing_since', 'is not', null)
      .execute();
    return;
  }
  const endpoint = await trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', attempt.endpoint_id).executeTakeFirst();
  if (!endpoint) return;

  let paused = endpoint.status === 'paused';
  if (outcome.status === 410) paused = (await pauseEndpoint(trx, endpoint.id, 'gone', now, policy.pauseAfterMs)) || paused;
  const delay = attempt.auto_retry ? retryDelayMs(policy.retryDelaysMs, attempt.attempt_number, policy.random) : null;
  if (delay !== null) {
    const dueAt = new Date(now.getTime() + delay);
    await scheduleAttempt(trx, {
      eventId: attempt.event_id,
      endpointId: endpoint.id,
      attemptNumber: attempt.attempt_number + 1,
      autoRetry: true,
      status: paused ? 'missed' : 'scheduled',
      dueAt,
      now,
    });
    await trx.updateTable('webhook_attempts').set({ next_attempt_at: timestamp(dueAt) }).where('seq', '=', attempt.seq).execute();
  }
  const failingSince = endpoint.failing_since ?? timestamp(sent.at);
  if (endpoint.failing_since === null) {
    await trx.updateTable('webhook_endpoints').set({ failing_since: failingSince }).where('id', '=', endpoint.id).execute();
  }
  if (!paused && Date.parse(failingSince) <= now.getTime() - policy.pauseAfterMs) {
    await pauseEndpoint(trx, endpoint.id, 'failing', now, policy.pauseAfterMs);
  }
}

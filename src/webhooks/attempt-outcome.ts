// What follows a sent attempt (spec §3.3, §3.4; decisions §6): on success the endpoint is healthy again;
// on failure the next retry is scheduled from WEBHOOK_RETRY_DELAYS, a 410 pauses the endpoint at once,
// and failures lasting WEBHOOK_PAUSE_AFTER_MS pause it. All of it commits in one transaction.
import { timestamp } from '../domain/clock.js';
import { type DomainContext, transact } from '../domain/context.js';
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

export async function recordOutcome(
  ctx: DomainContext,
  policy: RetryPolicy,
  attempt: ClaimedAttempt,
  sent: { at: Date; headers: Record<string, string>; outcome: DeliveryOutcome },
): Promise<void> {
  const { outcome } = sent;
  await transact(ctx, async (trx) => {
    const now = ctx.clock.now();
    const endpoint = await trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', attempt.endpoint_id).executeTakeFirst();
    let nextAttemptAt: string | null = null;

    if (endpoint && !outcome.delivered) {
      if (outcome.status === 410) await pauseEndpoint(trx, endpoint.id, 'gone', now, policy.pauseAfterMs);
      const delay = attempt.auto_retry ? retryDelayMs(policy.retryDelaysMs, attempt.attempt_number, policy.random) : null;
      if (delay !== null) {
        const dueAt = new Date(now.getTime() + delay);
        const paused = (await trx.selectFrom('webhook_endpoints').select('status').where('id', '=', endpoint.id).executeTakeFirstOrThrow()).status === 'paused';
        await scheduleAttempt(trx, {
          eventId: attempt.event_id,
          endpointId: endpoint.id,
          attemptNumber: attempt.attempt_number + 1,
          autoRetry: true,
          status: paused ? 'missed' : 'scheduled',
          dueAt,
          now,
        });
        nextAttemptAt = timestamp(dueAt);
      }
      const failingSince = endpoint.failing_since ?? timestamp(sent.at);
      if (endpoint.failing_since === null) {
        await trx.updateTable('webhook_endpoints').set({ failing_since: failingSince }).where('id', '=', endpoint.id).execute();
      }
      if (Date.parse(failingSince) <= now.getTime() - policy.pauseAfterMs) {
        await pauseEndpoint(trx, endpoint.id, 'failing', now, policy.pauseAfterMs);
      }
    } else if (endpoint) {
      await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', endpoint.id).execute();
    }

    await trx
      .updateTable('webhook_attempts')
      .set({
        status: outcome.delivered ? 'delivered' : 'failed',
        claimed_until: null,
        sent_at: timestamp(sent.at),
        duration_ms: outcome.durationMs,
        request_headers: JSON.stringify(sent.headers),
        response_status: outcome.status,
        response_body: outcome.body,
        error: outcome.error,
        next_attempt_at: nextAttemptAt,
      })
      .where('seq', '=', attempt.seq)
      .execute();
  });
}

// Claims of delivery attempts (decisions §8; docs/decisions.md "The worker"): an endpoint whose queue is
// held is not claimed again, the number of endpoints per claim is capped, and an outcome from a claim
// whose lease lapsed and was taken over is not recorded, so a retry chain never doubles.
import { describe, expect, it } from 'vitest';
import { type ClaimLimits, claimBatches } from '../../src/webhooks/attempt-claims.js';
import { LostClaimError, recordOutcome } from '../../src/webhooks/attempt-outcome.js';
import { OutcomeRecorder } from '../../src/webhooks/outcome-recorder.js';
import { soloTeam, useTestService } from '../support/service.js';

// No worker: the test makes the claims itself.
const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
const policy = { retryDelaysMs: [1000, 1000], pauseAfterMs: 86_400_000 };
const failed = { delivered: false, status: 500, body: '', error: 'answered 500', durationMs: 5 };
const delivered = { delivered: true, status: 200, body: '', error: null, durationMs: 5 };

async function endpointWithPing() {
  const { team } = await soloTeam(t);
  return t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
}

/** Each claimed endpoint's attempts, as the healthy lane claims them. */
async function claimDueAttempts(limits: ClaimLimits) {
  return (await claimBatches(t.service.ctx, 'healthy', limits)).map((batch) => batch.attempts).filter((attempts) => attempts.length > 0);
}

async function attemptsOf(endpointId: string) {
  return t.service.ctx.db.selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', endpointId).orderBy('seq').execute();
}

describe('claims', () => {
  it('an endpoint whose queue is held is not claimed again until its lease runs out', async () => {
    const endpoint = await endpointWithPing();
    const limits = { endpoints: 100, perEndpoint: 5, leaseMs: 1000 };
    const first = (await claimDueAttempts(limits)).find((batch) => batch[0]!.endpoint_id === endpoint.id);
    expect(first).toHaveLength(1);
    const again = await claimDueAttempts(limits);
    expect(again.some((batch) => batch[0]!.endpoint_id === endpoint.id)).toBe(false);
    t.clock.advance(2000);
    const takenOver = (await claimDueAttempts(limits)).find((batch) => batch[0]!.endpoint_id === endpoint.id);
    expect(takenOver![0]!.id).toBe(first![0]!.id);
    expect(takenOver![0]!.claim_token).not.toBe(first![0]!.claim_token);
  });

  it('a claim takes at most the given number of endpoints', async () => {
    await endpointWithPing();
    await endpointWithPing();
    t.clock.advance(5000);
    const batches = await claimDueAttempts({ endpoints: 1, perEndpoint: 5, leaseMs: 60_000 });
    expect(batches).toHaveLength(1);
  });

  it('the outcome of a lapsed claim is refused; the claim that took over records it and schedules one retry', async () => {
    const endpoint = await endpointWithPing();
    t.clock.advance(60_000); // past every lease taken by the tests before
    const limits = { endpoints: 100, perEndpoint: 5, leaseMs: 1000 };
    const lapsed = (await claimDueAttempts(limits)).find((batch) => batch[0]!.endpoint_id === endpoint.id)![0]!;
    t.clock.advance(2000);
    const current = (await claimDueAttempts(limits)).find((batch) => batch[0]!.endpoint_id === endpoint.id)![0]!;

    const sent = { at: t.clock.now(), headers: '{}', outcome: failed, failuresBefore: 0 };
    await expect(recordOutcome(t.service.ctx, policy, lapsed, sent)).rejects.toBeInstanceOf(LostClaimError);
    expect(await attemptsOf(endpoint.id)).toHaveLength(1);

    await recordOutcome(t.service.ctx, policy, current, sent);
    const attempts = await attemptsOf(endpoint.id);
    expect(attempts.map((attempt) => [attempt.attempt_number, attempt.status])).toEqual([
      [1, 'failed'],
      [2, 'scheduled'],
    ]);
  });

  it('outcomes recorded together in one commit stand on their own: a lapsed claim among them is refused alone', async () => {
    const lapsedEndpoint = await endpointWithPing();
    const otherEndpoint = await endpointWithPing();
    t.clock.advance(60_000);
    const limits = { endpoints: 100, perEndpoint: 5, leaseMs: 1000 };
    const firstClaims = await claimDueAttempts(limits);
    const lapsed = firstClaims.find((batch) => batch[0]!.endpoint_id === lapsedEndpoint.id)![0]!;
    t.clock.advance(2000);
    const takenOver = await claimDueAttempts(limits);
    const other = takenOver.find((batch) => batch[0]!.endpoint_id === otherEndpoint.id)![0]!;

    const recorder = new OutcomeRecorder(t.service.ctx, policy);
    const sent = { at: t.clock.now(), headers: '{}', outcome: delivered, failuresBefore: 0 };
    const [lapsedResult, otherResult] = await Promise.allSettled([recorder.record(lapsed, sent), recorder.record(other, sent)]);
    expect(lapsedResult.status === 'rejected' && lapsedResult.reason).toBeInstanceOf(LostClaimError);
    expect(otherResult.status).toBe('fulfilled');
    expect((await attemptsOf(otherEndpoint.id)).map((attempt) => attempt.status)).toEqual(['delivered']);
    expect((await attemptsOf(lapsedEndpoint.id)).map((attempt) => attempt.status)).toEqual(['sending']);
  });
});

// Claims of delivery attempts (decisions §8; docs/decisions.md "The worker"): an endpoint whose queue is
// held is not claimed again, the number of endpoints per claim is capped, and an outcome from a claim
// whose lease lapsed and was taken over is not recorded, so a retry chain never doubles.
import { describe, expect, it } from 'vitest';
import { type ClaimLimits, claimBatches, endBatch } from '../../src/webhooks/attempt-claims.js';
import { LostClaimError, recordOutcome } from '../../src/webhooks/attempt-outcome.js';
import { OutcomeRecorder } from '../../src/webhooks/outcome-recorder.js';
import { pauseEndpoint } from '../../src/webhooks/pausing.js';
import { retryAfterMs } from '../../src/webhooks/retry-schedule.js';
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

describe('endpoint queues (docs/decisions.md "The worker")', () => {
  const queueOf = (endpointId: string) => t.service.ctx.db.selectFrom('webhook_queues').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
  const limits = { endpoints: 100, perEndpoint: 5, leaseMs: 1000 };

  it('work announced while a batch runs is not lost: the batch lets go of the queue ready at that work', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    t.clock.advance(60_000);
    const [batch] = (await claimBatches(t.service.ctx, 'healthy', limits)).filter((b) => b.claim.endpointId === endpoint.id);
    expect(batch!.attempts.map((a) => a.type)).toEqual(['ping']);
    // While the ping is out, an event adds an attempt: the held queue keeps its lease as ready time.
    await t.admin('POST', '/guides', { team_id: team.id, title: 'Meanwhile' });
    expect((await queueOf(endpoint.id)).ready_at).toBe((await queueOf(endpoint.id)).claimed_until);
    await recordOutcome(t.service.ctx, policy, batch!.attempts[0]!, { at: t.clock.now(), headers: '{}', outcome: delivered, failuresBefore: 0 });
    // The batch knew the queue's revision from before the event; its release looks again.
    expect(await endBatch(t.service.ctx, batch!.claim, false)).toBe(true);
    const queue = await queueOf(endpoint.id);
    expect(queue.claim_token).toBeNull();
    const [created] = (await attemptsOf(endpoint.id)).filter((a) => a.status === 'scheduled');
    expect(queue.ready_at).toBe(created!.due_at);
    const [next] = (await claimBatches(t.service.ctx, 'healthy', limits)).filter((b) => b.claim.endpointId === endpoint.id);
    expect(next!.attempts.map((a) => a.id)).toEqual([created!.id]);
  });

  it('a queue whose holder died is taken over after the lease; the old holder then changes nothing', async () => {
    const endpoint = await endpointWithPing();
    t.clock.advance(60_000);
    const [dead] = (await claimBatches(t.service.ctx, 'healthy', limits)).filter((b) => b.claim.endpointId === endpoint.id);
    t.clock.advance(2000);
    const [current] = (await claimBatches(t.service.ctx, 'healthy', limits)).filter((b) => b.claim.endpointId === endpoint.id);
    expect(current!.attempts.map((a) => a.id)).toEqual(dead!.attempts.map((a) => a.id));
    expect(await endBatch(t.service.ctx, dead!.claim, true)).toBe(false);
    const queue = await queueOf(endpoint.id);
    expect(queue.claim_token).toBe(current!.claim.token);
    expect((await attemptsOf(endpoint.id)).map((a) => [a.status, a.claim_token])).toEqual([['sending', current!.claim.token]]);
  });

  it('a paused endpoint is not ready, whatever waits; resuming with redelivery makes it ready at once', async () => {
    const endpoint = await endpointWithPing();
    await t.service.ctx.db.transaction().execute((trx) => pauseEndpoint(trx, endpoint.id, 'gone', t.clock.now(), policy.pauseAfterMs));
    expect((await queueOf(endpoint.id)).ready_at).toBeNull();
    expect((await attemptsOf(endpoint.id)).map((a) => a.status)).toEqual(['missed']);
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: true });
    const queue = await queueOf(endpoint.id);
    expect(queue.ready_at).not.toBeNull();
    expect(Date.parse(queue.ready_at!)).toBeLessThanOrEqual(t.clock.now().getTime());
  });
});

describe('Retry-After values (RFC 9110 §10.2.3)', () => {
  const now = new Date('2026-11-24T12:00:00.000Z');
  it('whole seconds, and the three HTTP date forms, are read as the wait from now', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Tue, 24 Nov 2026 12:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('Tuesday, 24-Nov-26 12:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Tue Nov 24 12:00:30 2026', now)).toBe(30_000);
  });

  it('a date in the past asks for nothing; anything else is no Retry-After at all', () => {
    expect(retryAfterMs('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
    for (const value of ['soon', '', '1.5', '-1', '2026-11-24', '12 Nov', null, undefined]) expect(retryAfterMs(value, now), String(value)).toBeNull();
  });
});

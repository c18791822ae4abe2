// Claims of endpoint queues (decisions §8; docs/decisions.md "The worker"): a held queue is not claimed
// again until its lease runs out, the number of endpoints per claim is capped, an outcome written under
// a claim that lapsed and was taken over is not recorded (so a retry chain never doubles), and work
// announced while a queue is held is never lost when it is let go.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { transact } from '../../src/domain/context.js';
import { type NewAttempt, scheduleAttempts } from '../../src/domain/delivery-attempts.js';
import { recordEvent } from '../../src/domain/events.js';
import { claimBatches, type ClaimedBatch, type ClaimLimits } from '../../src/webhooks/attempt-claims.js';
import { LostClaimError, type SentAttempt } from '../../src/webhooks/attempt-outcome.js';
import { OutcomeRecorder } from '../../src/webhooks/outcome-recorder.js';
import { pauseEndpoint } from '../../src/webhooks/pausing.js';
import { retryAfterMs } from '../../src/webhooks/retry-schedule.js';
import type { DeliveryOutcome } from '../../src/webhooks/sender.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';

// No worker: the test makes the claims itself.
const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
const policy = { retryDelaysMs: [1000, 1000], pauseAfterMs: 86_400_000 };
const failed: DeliveryOutcome = { delivered: false, status: 500, body: '', error: 'answered 500', durationMs: 5 };
const delivered: DeliveryOutcome = { delivered: true, status: 200, body: '', error: null, durationMs: 5 };
const limits: ClaimLimits = { healthy: { endpoints: 100, perEndpoint: 5 }, leaseMs: 1000 };

/** An endpoint with its ping waiting; unless `fresh`, one that has answered 2xx before (proven), so that it is claimed in the healthy lane. */
async function endpointWithPing(fresh = false) {
  const { team } = await soloTeam(t);
  const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
  if (!fresh) await t.service.ctx.db.updateTable('webhook_queues').set({ proven: 1 }).where('endpoint_id', '=', endpoint.id).execute();
  return { team, endpoint };
}

/** The endpoint's batch in a healthy-lane claim, if the claim took it. */
async function claimOf(endpointId: string, given: ClaimLimits = limits): Promise<ClaimedBatch | undefined> {
  return (await claimBatches(t.service.ctx, given)).find((batch) => batch.claim.endpointId === endpointId);
}

const recorder = () => new OutcomeRecorder(t.service.ctx, policy, { urgentEveryMs: 0, deliveredEveryMs: 0 });
const sentUnder = (batch: ClaimedBatch, outcome: DeliveryOutcome): SentAttempt => ({ at: t.clock.now(), headers: '{}', outcome, failuresBefore: 0, proving: !batch.claim.proven, token: batch.claim.token });

async function attemptsOf(endpointId: string) {
  return t.service.ctx.db.selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', endpointId).orderBy('seq').execute();
}

const queueOf = (endpointId: string) => t.service.ctx.db.selectFrom('webhook_queues').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();

describe('claims', () => {
  it('a held queue is not claimed again until its lease runs out; then another claim takes it over with the same attempts', async () => {
    const { endpoint } = await endpointWithPing();
    const first = await claimOf(endpoint.id);
    expect(first!.attempts).toHaveLength(1);
    expect(await claimOf(endpoint.id)).toBeUndefined();
    t.clock.advance(2000);
    const takenOver = await claimOf(endpoint.id);
    expect(takenOver!.attempts.map((a) => a.id)).toEqual(first!.attempts.map((a) => a.id));
    expect(takenOver!.claim.token).not.toBe(first!.claim.token);
  });

  it('a claim takes at most the given number of endpoints', async () => {
    await endpointWithPing();
    await endpointWithPing();
    t.clock.advance(5000);
    const batches = await claimBatches(t.service.ctx, { ...limits, healthy: { endpoints: 1, perEndpoint: 5 } });
    expect(batches).toHaveLength(1);
  });

  it('one claim takes from both lanes, each up to its own count (a failing endpoint one attempt at a time, a healthy one a batch), and with room for fewer in all, the healthy lane\'s first', async () => {
    const sick = await endpointWithPing();
    t.clock.advance(60_000);
    const first = (await claimOf(sick.endpoint.id))!;
    const outcomes = recorder();
    await outcomes.record(first.attempts[0]!, sentUnder(first, failed));
    await outcomes.release(first.claim);
    await createGuide(t, sick.team.id); // behind the retry, a second attempt waits
    const well = await endpointWithPing();
    await createGuide(t, well.team.id);
    t.clock.advance(60_000); // past the retry and the breaker's probe

    const both = { healthy: { endpoints: 1, perEndpoint: 5 }, failing: { endpoints: 1, perEndpoint: 1 }, leaseMs: 1000 };
    const one = await claimBatches(t.service.ctx, both);
    expect(one.map((batch) => batch.lane).sort()).toEqual(['failing', 'healthy']);

    t.clock.advance(2000); // those leases run out
    // One place in all for the same two: the healthy lane's queue takes it.
    const oneInAll = await claimBatches(t.service.ctx, { ...both, endpoints: 1 });
    expect(oneInAll.map((batch) => batch.lane)).toEqual(['healthy']);

    t.clock.advance(2000);
    const all = await claimBatches(t.service.ctx, { healthy: { endpoints: 100, perEndpoint: 5 }, failing: { endpoints: 100, perEndpoint: 1 }, leaseMs: 1000 });
    const sickBatch = all.find((batch) => batch.claim.endpointId === sick.endpoint.id)!;
    expect([sickBatch.lane, sickBatch.attempts.length]).toEqual(['failing', 1]);
    const wellBatch = all.find((batch) => batch.claim.endpointId === well.endpoint.id)!;
    expect([wellBatch.lane, wellBatch.attempts.length]).toEqual(['healthy', 2]);
    for (const batch of all) expect(batch.lane).toBe((await queueOf(batch.claim.endpointId)).failures > 0 || !batch.claim.proven ? 'failing' : 'healthy');
  });

  it('a new endpoint is probed in the failing lane, one attempt at a time, until a 2xx proves it; then its backlog goes as a healthy batch', async () => {
    const fresh = await endpointWithPing(true);
    await createGuide(t, fresh.team.id);
    await createGuide(t, fresh.team.id);
    const everyLane = { healthy: { endpoints: 100, perEndpoint: 5 }, failing: { endpoints: 100, perEndpoint: 1 }, leaseMs: 1000 };
    const probe = (await claimBatches(t.service.ctx, everyLane)).find((batch) => batch.claim.endpointId === fresh.endpoint.id)!;
    expect([probe.lane, probe.attempts.length, probe.claim.proven]).toEqual(['failing', 1, false]);
    expect((await queueOf(fresh.endpoint.id)).failures).toBe(0); // not answering yet is not a failure

    const outcomes = recorder();
    await outcomes.record(probe.attempts[0]!, sentUnder(probe, delivered));
    await outcomes.release(probe.claim);
    expect((await queueOf(fresh.endpoint.id)).proven).toBe(1);
    const backlog = (await claimBatches(t.service.ctx, everyLane)).find((batch) => batch.claim.endpointId === fresh.endpoint.id)!;
    expect([backlog.lane, backlog.attempts.length, backlog.claim.proven]).toEqual(['healthy', 2, true]);
  });

  it('a new endpoint that fails stays unproven: after its breaker heals it is proven only by a 2xx', async () => {
    const fresh = await endpointWithPing(true);
    const everyLane = { healthy: { endpoints: 100, perEndpoint: 5 }, failing: { endpoints: 100, perEndpoint: 1 }, leaseMs: 1000 };
    const probe = (await claimBatches(t.service.ctx, everyLane)).find((batch) => batch.claim.endpointId === fresh.endpoint.id)!;
    const outcomes = recorder();
    await outcomes.record(probe.attempts[0]!, sentUnder(probe, failed));
    await outcomes.release(probe.claim);
    expect(await queueOf(fresh.endpoint.id)).toMatchObject({ failures: 1, proven: 0 });
    t.clock.advance(60_000); // past the retry
    const retry = (await claimBatches(t.service.ctx, everyLane)).find((batch) => batch.claim.endpointId === fresh.endpoint.id)!;
    expect(retry.lane).toBe('failing');
    await outcomes.record(retry.attempts[0]!, { ...sentUnder(retry, delivered), failuresBefore: 1 });
    await outcomes.release(retry.claim);
    expect(await queueOf(fresh.endpoint.id)).toMatchObject({ failures: 0, proven: 1 });
  });

  it('the outcome of a lapsed claim is refused; the claim that took over records it and schedules one retry', async () => {
    const { endpoint } = await endpointWithPing();
    t.clock.advance(60_000); // past every lease taken by the tests before
    const lapsed = (await claimOf(endpoint.id))!;
    t.clock.advance(2000);
    const current = (await claimOf(endpoint.id))!;

    const outcomes = recorder();
    await expect(outcomes.record(lapsed.attempts[0]!, sentUnder(lapsed, failed))).rejects.toBeInstanceOf(LostClaimError);
    expect(await attemptsOf(endpoint.id)).toHaveLength(1);

    await outcomes.record(current.attempts[0]!, sentUnder(current, failed));
    const attempts = await attemptsOf(endpoint.id);
    expect(attempts.map((attempt) => [attempt.attempt_number, attempt.status])).toEqual([
      [1, 'failed'],
      [2, 'scheduled'],
    ]);
  });

  it('outcomes recorded together in one commit stand on their own: a lapsed claim among them is refused alone', async () => {
    const lapsedEndpoint = (await endpointWithPing()).endpoint;
    const otherEndpoint = (await endpointWithPing()).endpoint;
    t.clock.advance(60_000);
    const lapsed = (await claimOf(lapsedEndpoint.id))!;
    t.clock.advance(2000);
    const takenOver = await claimBatches(t.service.ctx, limits);
    const other = takenOver.find((batch) => batch.claim.endpointId === otherEndpoint.id)!;

    const outcomes = recorder();
    const [lapsedResult, otherResult] = await Promise.allSettled([
      outcomes.record(lapsed.attempts[0]!, sentUnder(lapsed, delivered)),
      outcomes.record(other.attempts[0]!, sentUnder(other, delivered)),
    ]);
    expect(lapsedResult.status === 'rejected' && lapsedResult.reason).toBeInstanceOf(LostClaimError);
    expect(otherResult.status).toBe('fulfilled');
    expect((await attemptsOf(otherEndpoint.id)).map((attempt) => attempt.status)).toEqual(['delivered']);
    expect((await attemptsOf(lapsedEndpoint.id)).map((attempt) => attempt.status)).toEqual(['scheduled']);
  });
});

describe('the pace of outcome commits (src/webhooks/outcome-recorder.ts)', () => {
  // 2xx outcomes alone would wait a minute here: only something waited for makes them commit.
  const patient = () => new OutcomeRecorder(t.service.ctx, policy, { urgentEveryMs: 0, deliveredEveryMs: 60_000 });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('a 2xx outcome waits for company; the release of its queue is urgent, cuts the wait short and is written after it', async () => {
    const { endpoint } = await endpointWithPing();
    t.clock.advance(60_000);
    const batch = (await claimOf(endpoint.id))!;
    const outcomes = patient();
    let written = false;
    const recorded = outcomes.record(batch.attempts[0]!, sentUnder(batch, delivered)).then(() => (written = true));
    await settle();
    expect(written).toBe(false);
    expect((await attemptsOf(endpoint.id)).map((a) => a.status)).toEqual(['scheduled']);
    expect(await outcomes.release(batch.claim)).toBeTruthy();
    await recorded;
    expect((await attemptsOf(endpoint.id)).map((a) => a.status)).toEqual(['delivered']);
    expect((await queueOf(endpoint.id)).claim_token).toBeNull();
  });

  it('a failure is urgent: its batch waits for it, so it does not wait for company', async () => {
    const { endpoint } = await endpointWithPing();
    t.clock.advance(60_000);
    const batch = (await claimOf(endpoint.id))!;
    expect(await patient().record(batch.attempts[0]!, sentUnder(batch, failed))).toBe(1);
    expect((await attemptsOf(endpoint.id)).map((a) => a.status)).toEqual(['failed', 'scheduled']);
  });

  it('a release whose batch had an outcome that could not be written is refused, so the queue stays held until its lease runs out', async () => {
    const { endpoint } = await endpointWithPing();
    t.clock.advance(60_000);
    const batch = (await claimOf(endpoint.id))!;
    const outcomes = recorder();
    // A send time that cannot be written makes the outcome's transaction fail.
    await expect(outcomes.record(batch.attempts[0]!, { ...sentUnder(batch, delivered), at: new Date(Number.NaN) })).rejects.toThrow();
    await expect(outcomes.release(batch.claim)).rejects.toThrow();
    expect((await queueOf(endpoint.id)).claim_token).toBe(batch.claim.token);
    expect((await attemptsOf(endpoint.id)).map((a) => a.status)).toEqual(['scheduled']);
    // The refusal is for that claim only: the queue's next holder records and lets go as usual.
    t.clock.advance(2000);
    const next = (await claimOf(endpoint.id))!;
    await outcomes.record(next.attempts[0]!, sentUnder(next, delivered));
    expect(await outcomes.release(next.claim)).toBeTruthy();
    expect((await attemptsOf(endpoint.id)).map((a) => a.status)).toEqual(['delivered']);
  });

  it('the refusal is for that queue alone: another queue taken by the same claim statement (one token) records and lets go as usual', async () => {
    const broken = await endpointWithPing();
    const well = await endpointWithPing();
    t.clock.advance(60_000);
    const batches = await claimBatches(t.service.ctx, limits);
    const brokenBatch = batches.find((batch) => batch.claim.endpointId === broken.endpoint.id)!;
    const wellBatch = batches.find((batch) => batch.claim.endpointId === well.endpoint.id)!;
    expect(wellBatch.claim.token, 'one claim statement, one token').toBe(brokenBatch.claim.token);
    const outcomes = recorder();
    await expect(outcomes.record(brokenBatch.attempts[0]!, { ...sentUnder(brokenBatch, delivered), at: new Date(Number.NaN) })).rejects.toThrow();
    // The other batch's outcome and release, written after the failed group (a connection lost under
    // one group took the worker down when this release was refused: issue 41).
    await outcomes.record(wellBatch.attempts[0]!, sentUnder(wellBatch, delivered));
    expect(await outcomes.release(wellBatch.claim)).toBeTruthy();
    expect((await queueOf(well.endpoint.id)).claim_token).toBeNull();
    await expect(outcomes.release(brokenBatch.claim)).rejects.toThrow();
    expect((await queueOf(broken.endpoint.id)).claim_token).toBe(brokenBatch.claim.token);
  });
});

describe('endpoint queues (docs/decisions.md "The worker")', () => {
  it('work announced while a batch runs is not lost: the batch lets go of the queue ready at that work', async () => {
    const { team, endpoint } = await endpointWithPing();
    t.clock.advance(60_000);
    const batch = (await claimOf(endpoint.id))!;
    expect(batch.attempts.map((a) => a.type)).toEqual(['ping']);
    // While the ping is out, an event adds an attempt: the held queue keeps its lease as ready time.
    await t.admin('POST', '/guides', { team_id: team.id, title: 'Meanwhile' });
    const held = await queueOf(endpoint.id);
    expect(held.ready_at).toBe(held.claimed_until);
    // The batch was claimed before the event; its release works the queue out again and sees it.
    const outcomes = recorder();
    await outcomes.record(batch.attempts[0]!, sentUnder(batch, delivered));
    expect(await outcomes.release(batch.claim)).toBeTruthy();
    const queue = await queueOf(endpoint.id);
    expect(queue.claim_token).toBeNull();
    const [created] = (await attemptsOf(endpoint.id)).filter((a) => a.status === 'scheduled');
    expect(queue.ready_at).toBe(created!.due_at);
    const next = await claimOf(endpoint.id);
    expect(next!.attempts.map((a) => a.id)).toEqual([created!.id]);
  });

  it('a queue whose holder died is taken over after the lease; the old holder then changes nothing', async () => {
    const { endpoint } = await endpointWithPing();
    t.clock.advance(60_000);
    const dead = (await claimOf(endpoint.id))!;
    t.clock.advance(2000);
    const current = (await claimOf(endpoint.id))!;
    expect(current.attempts.map((a) => a.id)).toEqual(dead.attempts.map((a) => a.id));
    const outcomes = recorder();
    await expect(outcomes.record(dead.attempts[0]!, sentUnder(dead, delivered))).rejects.toBeInstanceOf(LostClaimError);
    expect(await outcomes.release(dead.claim)).toBe(false);
    expect((await queueOf(endpoint.id)).claim_token).toBe(current.claim.token);
    expect((await attemptsOf(endpoint.id)).map((a) => a.status)).toEqual(['scheduled']);
  });

  it('a paused endpoint is not ready, whatever waits; resuming with redelivery makes it ready at once', async () => {
    const { endpoint } = await endpointWithPing();
    await t.service.ctx.db.transaction().execute((trx) => pauseEndpoint(trx, endpoint.id, 'gone', t.clock.now(), policy.pauseAfterMs));
    expect((await queueOf(endpoint.id)).ready_at).toBeNull();
    expect((await attemptsOf(endpoint.id)).map((a) => a.status)).toEqual(['missed']);
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: true });
    const queue = await queueOf(endpoint.id);
    expect(queue.ready_at).not.toBeNull();
    expect(Date.parse(queue.ready_at!)).toBeLessThanOrEqual(t.clock.now().getTime());
  });
});

/** Polls until `check` holds (ten seconds at most): waits for a state, measures no time. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the state waited for never came');
}

describe.runIf(usingPostgres)('new attempts and the queue locks (PostgreSQL)', () => {
  it("an endpoint's attempts are numbered in the order their transactions commit: a second writer takes no number before the first has committed", async () => {
    const { endpoint } = await endpointWithPing();
    const [ping] = await attemptsOf(endpoint.id);
    const db = t.service.ctx.db;
    const attempt = (attemptNumber: number): NewAttempt => ({ eventId: ping!.event_id, endpointId: endpoint.id, attemptNumber, autoRetry: false, status: 'scheduled', dueAt: t.clock.now(), now: t.clock.now() });
    const lastNumber = async () => Number((await sql<{ n: string }>`SELECT pg_sequence_last_value(pg_get_serial_sequence('webhook_attempts', 'seq')::regclass) AS n`.execute(db)).rows[0]!.n);
    const waitingForLocks = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)).rows[0]!.n);

    let commitFirst = () => {};
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstWritten = () => {};
    const written = new Promise<void>((resolve) => (firstWritten = resolve));
    const first = db.transaction().execute(async (trx) => {
      await scheduleAttempts(trx, [attempt(2)]);
      firstWritten();
      await firstMayCommit;
    });
    await written;
    const numberOfFirst = await lastNumber();
    const second = db.transaction().execute((trx) => scheduleAttempts(trx, [attempt(3)]));
    await until(async () => (await waitingForLocks()) > 0);
    // The second waits for the endpoint's queue before its insert has taken a number.
    expect(await lastNumber()).toBe(numberOfFirst);
    commitFirst();
    await first;
    await second;
    const attempts = await attemptsOf(endpoint.id);
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3]);
    expect(attempts[2]!.seq).toBeGreaterThan(numberOfFirst);
  });

  it("an event's attempts are written last in its transaction: the queues they go to stay free while the rest of it runs", async () => {
    const { team, endpoint } = await endpointWithPing();
    const ctx = t.service.ctx;
    const lockable = async () => {
      try {
        await sql`SELECT endpoint_id FROM webhook_queues WHERE endpoint_id = ${endpoint.id} FOR UPDATE NOWAIT`.execute(ctx.db);
        return true;
      } catch {
        return false;
      }
    };
    let freeMeanwhile: boolean | null = null;
    await transact(ctx, async (trx) => {
      await recordEvent(trx, { type: 'guide.created', teamId: team.id, organizationId: null, at: t.clock.now(), data: { guide: { id: 'meanwhile' } } });
      expect((await attemptsOf(endpoint.id)).map((a) => a.attempt_number)).toEqual([1]);
      freeMeanwhile = await lockable();
    });
    expect(freeMeanwhile).toBe(true);
    expect(await attemptsOf(endpoint.id)).toHaveLength(2);
    expect(await lockable()).toBe(true);
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

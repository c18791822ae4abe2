// Recover (shared decisions §11, issue 42 item 4): POST /admin/v1/webhook-endpoints/{id}/recover
// {"since"} sends again, oldest first, through the endpoint's queue, every event to the endpoint created
// since then whose latest attempt failed or was missed and that has no attempt still to come; it answers
// 202 with how many, 409 while the endpoint is paused, 400 for a `since` outside the attempts' retention,
// and is audit-logged with the count. The worker sends through a scripted transport.
import { describe, expect, it } from 'vitest';
import { expectConflict, expectInvalid, expectNotFound, UNKNOWN_ID } from '../http/admin/helpers.js';
import { createGuide, type TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { advanceClock, allAttempts, guideCreatedAttempts, guideTitleOf, type ScriptedEndpoint, startedFor, useScriptedEndpoints } from '../support/webhooks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BASE_ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' };
/** One retry, at once: a failing event's chain ends within moments. */
const quickRetry = useScriptedEndpoints({ ...BASE_ENV, WEBHOOK_RETRY_DELAYS: '5ms' });
/** One retry, an hour later: a failed event has an attempt still to come until the clock moves. */
const hourlyRetry = useScriptedEndpoints({ ...BASE_ENV, WEBHOOK_RETRY_DELAYS: '1h' });

/** An endpoint whose receiver answers 500 to the guides whose titles are in `down`, 200 to anything else. */
async function endpointFailing(make: typeof quickRetry, down: Set<string>): Promise<ScriptedEndpoint> {
  return make((delivery) => (down.has(guideTitleOf(delivery) ?? '') ? { status: 500 } : { status: 200 }));
}

/** Whether none of these attempts waits to be sent (or is being sent). */
const nothingWaits = (attempts: any[]) => attempts.length > 0 && attempts.every((a) => a.status !== 'scheduled' && a.status !== 'sending');

/** Creates a guide and waits until its guide.created attempts are all sent (none waits any more). */
async function settledGuide(w: ScriptedEndpoint, title: string) {
  const guide = await createGuide(w.s, w.team.id, { title });
  return guideCreatedAttempts(w.s, w.endpoint.id, guide.id, nothingWaits);
}

const recover = (s: TestService, endpointId: string, body: unknown) => s.adminRaw('POST', `/webhook-endpoints/${endpointId}/recover`, body);

describe('POST /webhook-endpoints/{id}/recover (shared decisions §11)', () => {
  it('recover of 3 failed events sends those 3, oldest first, as one new attempt each, and answers and audits how many', async () => {
    const down = new Set(['before', 'first', 'second', 'third']);
    const w = await endpointFailing(quickRetry, down);
    const before = await settledGuide(w, 'before');
    advanceClock(w.s, HOUR);
    const since = w.s.clock.now().toISOString();
    const first = await settledGuide(w, 'first');
    const second = await settledGuide(w, 'second');
    const fine = await settledGuide(w, 'fine');
    const third = await settledGuide(w, 'third');
    for (const failed of [before, first, second, third]) expect(failed.attempts.map((a) => a.status)).toEqual(['failed', 'failed']);
    expect(fine.attempts.map((a) => a.status)).toEqual(['delivered']);

    down.clear();
    const sentBefore = w.transport.started.length;
    const response = await recover(w.s, w.endpoint.id, { since });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ data: { events: 3 } });

    const recovered = [];
    for (const event of [first, second, third]) {
      const { attempts } = await guideCreatedAttempts(w.s, w.endpoint.id, JSON.parse(event.attempts[0].request_body).data.guide.id, (list) => list[2]?.status === 'delivered');
      expect(attempts.map((a) => [a.attempt_number, a.status])).toEqual([
        [1, 'failed'],
        [2, 'failed'],
        [3, 'delivered'],
      ]);
      recovered.push(attempts[2]);
    }
    // Exactly those three went out again, oldest first; the event before `since` and the delivered one did not.
    const again = w.transport.started.slice(sentBefore);
    expect(again.map((started) => started.deliveryId)).toEqual(recovered.map((a) => a.id));
    expect(again.map((started) => JSON.parse(started.body).data.guide.title)).toEqual(['first', 'second', 'third']);
    expect(startedFor(w.transport, before.eventId)).toHaveLength(2);
    expect(startedFor(w.transport, fine.eventId)).toHaveLength(1);

    const [audited] = await w.s.admin('GET', `/audit-events?action=webhook_endpoint.recovered&limit=1`);
    expect(audited).toMatchObject({ action: 'webhook_endpoint.recovered', target: { type: 'webhook_endpoint', id: w.endpoint.id }, home: { type: 'team', id: w.team.id }, count: 3 });
  });

  it('a recovered attempt that fails is not retried (like a resend); recovering again sends it again, and what is on its way is not sent twice', async () => {
    const down = new Set(['down']);
    const w = await endpointFailing(quickRetry, down);
    const since = w.s.clock.now().toISOString();
    const event = await settledGuide(w, 'down');
    expect((await recover(w.s, w.endpoint.id, { since })).json()).toEqual({ data: { events: 1 } });
    const guideId = JSON.parse(event.attempts[0].request_body).data.guide.id;
    const once = await guideCreatedAttempts(w.s, w.endpoint.id, guideId, (list) => list[2]?.status === 'failed');
    expect(once.attempts[2].next_attempt_at).toBeNull();
    advanceClock(w.s, HOUR);
    await eventually('nothing more for the event', async () => nothingWaits(await allAttempts(w.s, w.endpoint.id)));
    expect(startedFor(w.transport, event.eventId)).toHaveLength(3);

    down.clear();
    expect((await recover(w.s, w.endpoint.id, { since })).json()).toEqual({ data: { events: 1 } });
    // Asked again at once, while that attempt is on its way or delivered: nothing more.
    expect((await recover(w.s, w.endpoint.id, { since })).json()).toEqual({ data: { events: 0 } });
    const twice = await guideCreatedAttempts(w.s, w.endpoint.id, guideId, (list) => list[3]?.status === 'delivered');
    expect(twice.attempts).toHaveLength(4);
    expect(startedFor(w.transport, event.eventId)).toHaveLength(4);
  });

  it('sends an event whose latest attempt was missed, never one with an attempt still to come, a delivered one, or one a later attempt delivered', async () => {
    const down = new Set(['retrying', 'resent']);
    const w = await endpointFailing(hourlyRetry, down);
    const since = w.s.clock.now().toISOString();
    // Failed, its retry due in an hour: an attempt still to come.
    const retrying = await createGuide(w.s, w.team.id, { title: 'retrying' });
    const pending = await guideCreatedAttempts(w.s, w.endpoint.id, retrying.id, (list) => list[1]?.status === 'scheduled');
    // Failed, then sent again by hand and delivered.
    const resentGuide = await createGuide(w.s, w.team.id, { title: 'resent' });
    const resent = await guideCreatedAttempts(w.s, w.endpoint.id, resentGuide.id, (list) => list.length === 2);
    down.delete('resent');
    await w.s.admin('POST', `/deliveries/${resent.attempts[0].id}/resend`);
    await guideCreatedAttempts(w.s, w.endpoint.id, resentGuide.id, (list) => nothingWaits(list) && list.some((a) => a.status === 'delivered'));
    // Delivered at once.
    await settledGuide(w, 'fine');
    // Missed while the endpoint was paused, and not redelivered when it was resumed.
    await w.s.admin('POST', `/webhook-endpoints/${w.endpoint.id}/pause`);
    const missedGuide = await createGuide(w.s, w.team.id, { title: 'missed' });
    await w.s.admin('POST', `/webhook-endpoints/${w.endpoint.id}/resume`);
    const missed = await guideCreatedAttempts(w.s, w.endpoint.id, missedGuide.id, (list) => list.length > 0);
    const retryOfPending = pending.attempts[1];
    // The failed retry-pending event was missed by the pause too: it has no attempt to come any more.
    expect((await allAttempts(w.s, w.endpoint.id, { event_id: pending.eventId })).map((a) => a.status).sort()).toEqual(['failed', 'missed']);
    expect(missed.attempts.map((a) => a.status)).toEqual(['missed']);

    down.clear();
    const response = await recover(w.s, w.endpoint.id, { since });
    expect(response.json()).toEqual({ data: { events: 2 } });
    const recoveredPending = await guideCreatedAttempts(w.s, w.endpoint.id, retrying.id, (list) => list[2]?.status === 'delivered');
    const recoveredMissed = await guideCreatedAttempts(w.s, w.endpoint.id, missedGuide.id, (list) => list[1]?.status === 'delivered');
    // A missed attempt whose event a later attempt delivered is cancelled: a resume with redelivery will not send it.
    expect(recoveredPending.attempts.find((a) => a.id === retryOfPending.id)?.status).toBe('cancelled');
    expect(recoveredMissed.attempts.map((a) => a.status)).toEqual(['cancelled', 'delivered']);
    expect(startedFor(w.transport, resent.eventId)).toHaveLength(2);

    // A retry still to come keeps its event out of a recovery.
    down.add('later');
    const later = await createGuide(w.s, w.team.id, { title: 'later' });
    await guideCreatedAttempts(w.s, w.endpoint.id, later.id, (list) => list[1]?.status === 'scheduled');
    expect((await recover(w.s, w.endpoint.id, { since })).json()).toEqual({ data: { events: 0 } });
  });

  it('refuses while the endpoint is paused (409), a since outside the attempts\' retention, in the future or malformed (400), an unknown endpoint (404), and records nothing then', async () => {
    const w = await endpointFailing(hourlyRetry, new Set());
    const now = w.s.clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    expectInvalid(await recover(w.s, w.endpoint.id, { since: iso(now - 31 * DAY) }), 'since');
    expectInvalid(await recover(w.s, w.endpoint.id, { since: iso(now + HOUR) }), 'since');
    expectInvalid(await recover(w.s, w.endpoint.id, { since: 'yesterday' }), 'since');
    expectInvalid(await recover(w.s, w.endpoint.id, {}), 'since');
    expectInvalid(await recover(w.s, w.endpoint.id, { since: iso(now), redeliver: true }), 'redeliver');
    expectNotFound(await recover(w.s, UNKNOWN_ID, { since: iso(now) }));
    await w.s.admin('POST', `/webhook-endpoints/${w.endpoint.id}/pause`);
    const paused = expectConflict(await recover(w.s, w.endpoint.id, { since: iso(now - DAY) }));
    expect(paused.detail).toMatch(/paused/);
    const pausedAudit = (await w.s.admin('GET', '/audit-events?limit=1'))[0];
    expect(pausedAudit.action).toBe('webhook_endpoint.paused');
    await w.s.admin('POST', `/webhook-endpoints/${w.endpoint.id}/resume`);
    // Within the retention (30 days by default), with nothing to send: 202, and nothing recorded.
    const none = await recover(w.s, w.endpoint.id, { since: iso(now - 29 * DAY) });
    expect(none.statusCode, none.body).toBe(202);
    expect(none.json()).toEqual({ data: { events: 0 } });
    expect((await w.s.admin('GET', '/audit-events?limit=1'))[0].action).toBe('webhook_endpoint.resumed');
  });
});

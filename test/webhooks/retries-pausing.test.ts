// Outcomes, retries and pausing of webhook deliveries (spec §3.3, §3.4, §5 rule 8, §6.1; decisions §1, §6,
// §7): what counts as a success, the retry schedule, 410 and long failure pausing with its one e-mail,
// missed deliveries and resume, and the 4 KiB kept of an answer.
import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { retryDelayMs } from '../../src/webhooks/retry-schedule.js';
import { asSession, signIn } from '../console/sessions.js';
import { createUser, expectConflict, expectProblem } from '../http/admin/helpers.js';
import type { Receiver } from '../support/receiver.js';
import { createGuide, organizationWithTeams, soloTeam, type TestService, useTestService } from '../support/service.js';
import { eventually, sleep } from '../support/waiting.js';
import {
  allAttempts,
  attemptsOf,
  closedPortUrl,
  createEndpoint,
  eventIdOf,
  type Home,
  requestsForEvent,
  settledAttempts,
  signingKeyOf,
  useWebhookFixtures,
} from '../support/webhooks.js';

const BASE_ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_TIMEOUT_MS: '300' };
/** N = 3 retries, each with its own delay so that the order of the schedule shows. */
const DELAYS_MS = [50, 100, 150];
const t = useTestService({ ...BASE_ENV, WEBHOOK_RETRY_DELAYS: DELAYS_MS.map((ms) => `${ms}ms`).join(',') });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const { receiver, ownService, otherReceiver } = useWebhookFixtures(t, BASE_ENV);

/** The event a write recorded for the endpoint: the newest event id among its attempts of that type. */
async function newestEventId(s: TestService, endpointId: string, type: string): Promise<string> {
  return eventually(`a ${type} attempt`, async () => (await allAttempts(s, endpointId)).find((a) => a.event_type === type)?.event_id as string | undefined);
}

/** Registers a team (or organization) endpoint on `url` and waits until its ping is done with. */
async function newEndpoint(
  s: TestService,
  home: Home,
  url: string,
  events: string[] = ['guide.created'],
): Promise<{ id: string; url: string; signingKey: string; pingEventId: string }> {
  const endpoint = await createEndpoint(s, home, url, events);
  const pingEventId = await newestEventId(s, endpoint.id, 'ping');
  return { id: endpoint.id, url: endpoint.url, signingKey: await signingKeyOf(s, endpoint.id), pingEventId };
}

/** A team endpoint whose ping was answered 200; then the receiver answers `answer`. */
async function teamEndpointAnswering(s: TestService, answer: Receiver['answer'], events: string[] = ['guide.created']) {
  const { team } = await soloTeam(s);
  receiver.answer = { status: 200 };
  const endpoint = await newEndpoint(s, { type: 'team', id: team.id }, receiver.url, events);
  await settledAttempts(s, endpoint.id, endpoint.pingEventId);
  receiver.answer = answer;
  return { team, endpoint };
}

/** Creates a guide and answers the id of its guide.created event at the endpoint. */
async function guideCreatedEvent(s: TestService, teamId: string, endpointId: string): Promise<{ guide: any; eventId: string }> {
  const guide = await createGuide(s, teamId);
  const eventId = await eventually('the guide.created attempt', async () => {
    for (const attempt of await allAttempts(s, endpointId)) {
      if (attempt.event_type === 'guide.created' && JSON.parse(attempt.request_body).data.guide.id === guide.id) return attempt.event_id as string;
    }
    return undefined;
  });
  return { guide, eventId };
}

async function endpointRow(s: TestService, id: string) {
  return s.admin('GET', `/webhook-endpoints/${id}`);
}

async function waitPaused(s: TestService, id: string, timeoutMs = 10_000) {
  return eventually(`endpoint ${id} to be paused`, async () => {
    const row = await endpointRow(s, id);
    return row.status === 'paused' ? row : null;
  }, timeoutMs);
}

async function mail(s: TestService): Promise<any[]> {
  return s.admin('GET', '/mail');
}

async function teamMember(s: TestService, teamId: string, role: 'ADMIN' | 'EDITOR' | 'VIEWER') {
  const user = await createUser(s);
  await s.admin('PUT', `/teams/${teamId}/members/${user.id}`, { role });
  return user;
}

// ---------------------------------------------------------------------------------------------------

describe('outcomes: a 2xx is a success, anything else is a failure that is retried (spec §3.4, §6.1)', () => {
  it.each([201, 204, 299])('a %i answer is a success: delivered once and not retried', async (status) => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status });
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const attempts = await settledAttempts(t, endpoint.id, eventId);
    await sleep(DELAYS_MS[0]! * 4); // long enough for a retry to have been sent, if one were due
    expect(requestsForEvent(receiver, eventId)).toHaveLength(1);
    expect(await attemptsOf(t, endpoint.id, eventId)).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt_number: 1, status: 'delivered', response_status: status, error: null, next_attempt_at: null });
  });

  it.each([500, 404])('a %i answer is a failure and is retried on the schedule', async (status) => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status });
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const attempts = await settledAttempts(t, endpoint.id, eventId);
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4]);
    for (const attempt of attempts) expect(attempt).toMatchObject({ status: 'failed', response_status: status });
    expect(requestsForEvent(receiver, eventId)).toHaveLength(4);
  });

  it.each([302, 301])('a %i redirect is a failure that is retried, and is not followed: the Location target receives nothing', async (status) => {
    const target = await otherReceiver();
    const { team, endpoint } = await teamEndpointAnswering(t, { status, headers: { location: target.url } });
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const attempts = await settledAttempts(t, endpoint.id, eventId);
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4]);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ status: 'failed', response_status: status });
      expect(attempt.error).toEqual(expect.any(String));
    }
    expect(requestsForEvent(receiver, eventId)).toHaveLength(4);
    expect(target.received).toHaveLength(0);
  });

  it('no answer within WEBHOOK_TIMEOUT_MS is a failure and is retried', async () => {
    const { team, endpoint } = await teamEndpointAnswering(t, 'hang');
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const attempts = await settledAttempts(t, endpoint.id, eventId, 15_000);
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4]);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ status: 'failed', response_status: null });
      expect(attempt.error).toEqual(expect.any(String));
    }
    expect(requestsForEvent(receiver, eventId)).toHaveLength(4);
  });

  it('a 2xx whose body never ends is delivered: the attempt ends at WEBHOOK_TIMEOUT_MS with the body that came, and the next goes out', async () => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status: 200, body: 'got it, and', stall: true });
    const first = await guideCreatedEvent(t, team.id, endpoint.id);
    const second = await guideCreatedEvent(t, team.id, endpoint.id);
    for (const { eventId } of [first, second]) {
      const [attempt] = await settledAttempts(t, endpoint.id, eventId);
      expect(attempt).toMatchObject({ status: 'delivered', response_status: 200, response_body: 'got it, and', error: null });
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(250); // the body was waited for until the 300 ms deadline
    }
  });

  it('while an attempt waits for its answer, the worker waits too instead of polling for the attempts queued behind it', async () => {
    const s = await ownService({ WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_RETRY_DELAYS: '1h' });
    const { team, endpoint } = await teamEndpointAnswering(s, 'hang');
    const first = await guideCreatedEvent(s, team.id, endpoint.id);
    await eventually('the first attempt to be in flight', () => requestsForEvent(receiver, first.eventId).length === 1);
    const queued = await guideCreatedEvent(s, team.id, endpoint.id); // due now, but waits behind the first
    await sleep(100);
    // Every worker cycle reads the service clock; count the reads for a second in which nothing can be sent.
    let reads = 0;
    const now = s.clock.now.bind(s.clock);
    s.clock.now = () => {
      reads += 1;
      return now();
    };
    await sleep(1000);
    s.clock.now = now;
    expect(requestsForEvent(receiver, queued.eventId)).toHaveLength(0);
    expect(reads, 'clock reads by the worker in one idle second').toBeLessThan(100);
  });

  it('a refused connection (nothing listens on the port) is a failure and is retried', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, { type: 'team', id: team.id }, await closedPortUrl());
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const attempts = await settledAttempts(t, endpoint.id, eventId);
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4]);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ status: 'failed', response_status: null, response_body: null });
      expect(attempt.error).toMatch(/ECONNREFUSED|refused/i);
    }
  });
});

describe('the retry schedule (decisions §1, §6; spec §3.4)', () => {
  it('with N delays an event gets exactly N retries, then its last attempt is failed with next_attempt_at null', async () => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status: 500 });
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const attempts = await settledAttempts(t, endpoint.id, eventId);
    await sleep(DELAYS_MS[DELAYS_MS.length - 1]! * 3); // a fifth attempt would have come by now
    const after = await attemptsOf(t, endpoint.id, eventId);
    expect(after).toEqual(attempts);
    expect(after.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4]);
    expect(after.every((a) => a.status === 'failed')).toBe(true);
    expect(after[3].next_attempt_at).toBeNull();
    expect(requestsForEvent(receiver, eventId)).toHaveLength(DELAYS_MS.length + 1);
  });

  it('the Deliveries list shows next_attempt_at on each failed attempt before the last, the due_at of the retry it announced, at least its delay less 10 % of jitter later', async () => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status: 500 });
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const attempts = await settledAttempts(t, endpoint.id, eventId);
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4]);
    for (let k = 0; k < DELAYS_MS.length; k++) {
      const attempt = attempts[k]!;
      const retry = attempts[k + 1]!;
      expect(attempt.next_attempt_at, `attempt ${k + 1}`).toEqual(expect.any(String));
      expect(retry.due_at).toBe(attempt.next_attempt_at);
      expect(Date.parse(attempt.next_attempt_at) - Date.parse(attempt.sent_at)).toBeGreaterThanOrEqual(DELAYS_MS[k]! * 0.9);
      expect(Date.parse(retry.sent_at)).toBeGreaterThanOrEqual(Date.parse(retry.due_at));
    }
    // When the receiver saw them is not compared: on a busy machine a request waits to be read, which
    // says nothing of the schedule. The times above are the service's own, each taken before sending.
  });

  it('every retry carries the same body bytes, a valid signature and a new X-Service-Delivery, which is the id in the Deliveries list', async () => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status: 500 });
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const attempts = await settledAttempts(t, endpoint.id, eventId);
    const seen = requestsForEvent(receiver, eventId);
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((r) => r.body)).size).toBe(1);
    expect(seen[0]!.body).toBe(attempts[0].request_body);
    const deliveryIds = seen.map((r) => r.headers['x-service-delivery']);
    expect(new Set(deliveryIds).size).toBe(4);
    expect(deliveryIds).toEqual(attempts.map((a) => a.id));
    for (const request of seen) expect(await verify(endpoint.signingKey, request.body, String(request.headers['x-service-signature']))).toBe(true);
  });

  it('the service shortens each configured delay by at most 10 % of jitter', async () => {
    for (const [random, factor] of [
      [() => 0, 1],
      [() => 0.999, 0.9001],
    ] as const) {
      const s = await ownService({ WEBHOOK_RETRY_DELAYS: '1h,2h' }, { random });
      const { team } = await soloTeam(s);
      const endpoint = await newEndpoint(s, { type: 'team', id: team.id }, await closedPortUrl());
      const [first] = await eventually('the failed ping', async () => {
        const attempts = await attemptsOf(s, endpoint.id, endpoint.pingEventId);
        return attempts[0]?.status === 'failed' ? attempts : null;
      });
      const delay = Date.parse(first.next_attempt_at) - Date.parse(first.sent_at);
      expect(delay).toBeGreaterThanOrEqual(Math.round(HOUR * factor));
      // The slack is for the time between sending and recording the outcome, not for the schedule.
      expect(delay).toBeLessThan(Math.round(HOUR * factor) + 10_000);
      expect(delay).toBeLessThanOrEqual(HOUR + 10_000);
    }
  });
});

describe('410 pauses at once; paused endpoints miss events until resumed (spec §3.3; decisions §6, §7)', () => {
  /** A team with an ADMIN member, an endpoint whose ping succeeded, and a guide whose delivery got 410. */
  async function goneEndpoint(s: TestService) {
    const { team, endpoint } = await teamEndpointAnswering(s, { status: 200 });
    const admin = await teamMember(s, team.id, 'ADMIN');
    receiver.answer = { status: 410 };
    const first = await guideCreatedEvent(s, team.id, endpoint.id);
    const paused = await waitPaused(s, endpoint.id);
    return { team, endpoint, admin, first, paused };
  }

  it('a 410 answer pauses the endpoint at once with paused_reason gone, and sends no e-mail', async () => {
    const { endpoint, admin, first, paused } = await goneEndpoint(t);
    expect(paused).toMatchObject({ status: 'paused', paused_reason: 'gone' });
    const attempts = await settledAttempts(t, endpoint.id, first.eventId);
    expect(attempts[0]).toMatchObject({ attempt_number: 1, status: 'failed', response_status: 410 });
    // Its pending retry became missed rather than being sent.
    expect(attempts.slice(1).every((a) => a.status === 'missed')).toBe(true);
    await sleep(DELAYS_MS[0]! * 4);
    expect(requestsForEvent(receiver, first.eventId)).toHaveLength(1);
    const mails = await mail(t);
    expect(mails.filter((m) => m.to.includes(admin.email) || m.subject.includes(endpoint.url) || m.text.includes(endpoint.url))).toEqual([]);
  });

  it('events created while the endpoint is paused are missed, not sent', async () => {
    const { team, endpoint } = await goneEndpoint(t);
    receiver.answer = { status: 200 };
    const before = receiver.received.length;
    const later = [await guideCreatedEvent(t, team.id, endpoint.id), await guideCreatedEvent(t, team.id, endpoint.id)];
    await sleep(DELAYS_MS[0]! * 4);
    for (const { eventId } of later) {
      const attempts = await attemptsOf(t, endpoint.id, eventId);
      expect(attempts.map((a) => [a.attempt_number, a.status])).toEqual([[1, 'missed']]);
      expect(attempts[0]).toMatchObject({ sent_at: null, request_headers: null, response_status: null });
    }
    expect(receiver.received.length).toBe(before);
  });

  it.each([
    ['redeliver_missed: false', { redeliver_missed: false }],
    ['no body at all', undefined],
  ])('resume with %s makes the endpoint active and leaves the missed deliveries missed', async (_, body) => {
    const { team, endpoint, first } = await goneEndpoint(t);
    const missed = await guideCreatedEvent(t, team.id, endpoint.id);
    receiver.answer = { status: 200 };
    const before = receiver.received.length;
    const resumed = await t.admin('POST', `/webhook-endpoints/${endpoint.id}/resume`, body);
    expect(resumed).toMatchObject({ id: endpoint.id, status: 'active', paused_reason: null });
    await sleep(DELAYS_MS[0]! * 4);
    expect(receiver.received.length).toBe(before);
    expect((await attemptsOf(t, endpoint.id, missed.eventId)).map((a) => a.status)).toEqual(['missed']);
    expect((await attemptsOf(t, endpoint.id, first.eventId)).map((a) => a.status)).toEqual(['failed', 'missed']);
    // Active again: a new event is delivered.
    const next = await guideCreatedEvent(t, team.id, endpoint.id);
    expect((await settledAttempts(t, endpoint.id, next.eventId)).map((a) => a.status)).toEqual(['delivered']);
    expect(requestsForEvent(receiver, next.eventId)).toHaveLength(1);
  });

  it('resume with redeliver_missed: true sends every missed delivery, oldest first', async () => {
    const { team, endpoint, first } = await goneEndpoint(t);
    const second = await guideCreatedEvent(t, team.id, endpoint.id);
    const third = await guideCreatedEvent(t, team.id, endpoint.id);
    receiver.answer = { status: 200 };
    const before = receiver.received.length;
    const resumed = await t.admin('POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: true });
    expect(resumed).toMatchObject({ status: 'active', paused_reason: null });
    const order = [first.eventId, second.eventId, third.eventId];
    await receiver.waitFor(before + 3);
    const redelivered = receiver.received.slice(before);
    expect(redelivered.map(eventIdOf)).toEqual(order);
    for (const eventId of order) {
      const attempts = await settledAttempts(t, endpoint.id, eventId);
      expect(attempts[attempts.length - 1].status).toBe('delivered');
      expect(attempts.some((a) => a.status === 'missed')).toBe(false);
    }
    await sleep(DELAYS_MS[0]! * 4);
    expect(receiver.received.length).toBe(before + 3);
  });

  it('redelivery goes in event order even when an older event was mid-retry (its retry numbered after newer events)', async () => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status: 200 });
    // The first event's delivery is answered 410 only once the second event's attempt is written, so the
    // first one's retry (written with the outcome) is numbered after it. Both become missed.
    let secondWritten!: () => void;
    receiver.answer = { status: 410, after: new Promise<void>((resolve) => (secondWritten = resolve)) };
    const before = receiver.received.length;
    const first = await guideCreatedEvent(t, team.id, endpoint.id);
    await receiver.waitFor(before + 1);
    const second = await guideCreatedEvent(t, team.id, endpoint.id);
    secondWritten();
    await waitPaused(t, endpoint.id);
    expect((await attemptsOf(t, endpoint.id, second.eventId)).map((a) => a.status)).toEqual(['missed']);
    receiver.answer = { status: 200 };
    const resumedAt = receiver.received.length;
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: true });
    await receiver.waitFor(resumedAt + 2);
    expect(receiver.received.slice(resumedAt).map(eventIdOf)).toEqual([first.eventId, second.eventId]);
  });

  it('a paused endpoint refuses resend with 409 conflict', async () => {
    const { endpoint, first } = await goneEndpoint(t);
    const [attempt] = await settledAttempts(t, endpoint.id, first.eventId);
    const before = (await allAttempts(t, endpoint.id)).length;
    expectConflict(await t.adminRaw('POST', `/deliveries/${attempt.id}/resend`));
    expect((await allAttempts(t, endpoint.id)).length).toBe(before);
  });
});

describe('nothing but failures for WEBHOOK_PAUSE_AFTER_MS pauses the endpoint, with one e-mail (spec §3.3; decisions §6)', () => {
  const FAILING_ENV = { WEBHOOK_RETRY_DELAYS: Array(30).fill('100ms').join(','), WEBHOOK_PAUSE_AFTER_MS: '400' };

  /** After the pause: every event's newest attempt is missed (pending retries became missed), nothing is due. */
  async function expectPendingRetriesMissed(s: TestService, endpointId: string, eventIds: string[]) {
    await eventually('no attempt in flight', async () => !(await allAttempts(s, endpointId)).some((a) => a.status === 'sending' || a.status === 'scheduled'));
    for (const eventId of eventIds) {
      const attempts = await attemptsOf(s, endpointId, eventId);
      expect(attempts[attempts.length - 1].status, `newest attempt of ${eventId}`).toBe('missed');
    }
  }

  it("a team endpoint is paused (paused_reason failing) and the team's ADMIN members get exactly one e-mail", async () => {
    const s = await ownService(FAILING_ENV);
    const { team } = await soloTeam(s);
    const admins = [await teamMember(s, team.id, 'ADMIN'), await teamMember(s, team.id, 'ADMIN')];
    await teamMember(s, team.id, 'EDITOR');
    await teamMember(s, team.id, 'VIEWER');
    receiver.answer = { status: 200 };
    const endpoint = await newEndpoint(s, { type: 'team', id: team.id }, receiver.url);
    await settledAttempts(s, endpoint.id, endpoint.pingEventId);
    receiver.answer = { status: 500 };
    const events = [];
    for (let i = 0; i < 3; i++) events.push((await guideCreatedEvent(s, team.id, endpoint.id)).eventId);
    const paused = await waitPaused(s, endpoint.id);
    expect(paused.paused_reason).toBe('failing');
    await expectPendingRetriesMissed(s, endpoint.id, events);
    await sleep(300);
    const failed = (await allAttempts(s, endpoint.id)).filter((a) => a.status === 'failed');
    expect(failed.length).toBeGreaterThan(3);
    const mails = await mail(s);
    expect(mails).toHaveLength(1);
    expect([...mails[0].to].sort()).toEqual(admins.map((a) => a.email).sort());
    expect(mails[0].subject).toEqual(expect.any(String));
    expect(`${mails[0].subject}\n${mails[0].text}`).toContain(endpoint.url);
  });

  it('an organization endpoint is paused and the organization admins (not team admins) get exactly one e-mail', async () => {
    const s = await ownService(FAILING_ENV);
    const { organization, teams } = await organizationWithTeams(s, 'growth', 1);
    const team = teams[0]!;
    const orgAdmins = [await createUser(s), await createUser(s)];
    for (const user of orgAdmins) await s.admin('PUT', `/organizations/${organization.id}/admins/${user.id}`);
    const teamAdmin = await teamMember(s, team.id, 'ADMIN');
    receiver.answer = { status: 200 };
    const endpoint = await newEndpoint(s, { type: 'organization', id: organization.id }, receiver.url);
    await settledAttempts(s, endpoint.id, endpoint.pingEventId);
    receiver.answer = { status: 503 };
    const events = [];
    for (let i = 0; i < 3; i++) events.push((await guideCreatedEvent(s, team.id, endpoint.id)).eventId);
    const paused = await waitPaused(s, endpoint.id);
    expect(paused.paused_reason).toBe('failing');
    await expectPendingRetriesMissed(s, endpoint.id, events);
    await sleep(300);
    const mails = await mail(s);
    expect(mails).toHaveLength(1);
    expect([...mails[0].to].sort()).toEqual(orgAdmins.map((a) => a.email).sort());
    expect(mails[0].to).not.toContain(teamAdmin.email);
  });

  it('exactly one e-mail even when an attempt that was in flight fails after the endpoint was paused', async () => {
    // The lease of an attempt in flight (WEBHOOK_TIMEOUT_MS + margin) outlasts the clock moves below.
    const s = await ownService({ WEBHOOK_RETRY_DELAYS: '1h', WEBHOOK_PAUSE_AFTER_MS: '1000', WEBHOOK_TIMEOUT_MS: '60000' });
    const { team } = await soloTeam(s);
    const admin = await teamMember(s, team.id, 'ADMIN');
    receiver.answer = { status: 500 };
    const endpoint = await newEndpoint(s, { type: 'team', id: team.id }, receiver.url);
    await eventually('the ping to fail', async () => (await attemptsOf(s, endpoint.id, endpoint.pingEventId))[0]?.status === 'failed');
    receiver.answer = 'hang';
    const { eventId } = await guideCreatedEvent(s, team.id, endpoint.id);
    await eventually('the guide.created attempt to be in flight', () => requestsForEvent(receiver, eventId).length === 1);

    // The once-a-minute check pauses the endpoint while that attempt is still waiting for an answer.
    s.clock.advance(61_000);
    s.service.ctx.outbox.wake();
    expect((await waitPaused(s, endpoint.id)).paused_reason).toBe('failing');
    expect(await mail(s)).toHaveLength(1);

    // Then the attempt in flight fails too (the receiver drops the connection); it must not pause or mail again.
    await receiver.close();
    const attempts = await eventually('the attempt in flight to be recorded', async () => {
      const list = await attemptsOf(s, endpoint.id, eventId);
      return list[0]?.status === 'failed' ? list : null;
    });
    expect(attempts.slice(1).map((a) => a.status)).toEqual(['missed']);
    const mails = await mail(s);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual([admin.email]);
    expect(await endpointRow(s, endpoint.id)).toMatchObject({ status: 'paused', paused_reason: 'failing' });
  });

  it('pending retries become missed as soon as the endpoint is paused, not when they fall due', async () => {
    const s = await ownService({ WEBHOOK_RETRY_DELAYS: '2h,2h', WEBHOOK_PAUSE_AFTER_MS: String(HOUR) });
    const { team } = await soloTeam(s);
    receiver.answer = { status: 500 };
    const endpoint = await newEndpoint(s, { type: 'team', id: team.id }, receiver.url);
    const { eventId } = await guideCreatedEvent(s, team.id, endpoint.id);
    for (const id of [endpoint.pingEventId, eventId]) {
      await eventually('a retry due in two hours', async () => (await attemptsOf(s, endpoint.id, id)).some((a) => a.status === 'scheduled' && a.attempt_number === 2));
    }
    s.clock.advance(HOUR + MINUTE);
    s.service.ctx.outbox.wake();
    await waitPaused(s, endpoint.id);
    const attempts = await allAttempts(s, endpoint.id);
    expect(attempts.filter((a) => a.attempt_number === 2).map((a) => a.status)).toEqual(['missed', 'missed']);
    expect(attempts.filter((a) => a.status === 'scheduled' || a.status === 'sending')).toEqual([]);
  });

  it('a success in between resets the clock: after fail, success, fail the endpoint is paused only once the new failures last the whole window', async () => {
    const s = await ownService({ WEBHOOK_RETRY_DELAYS: Array(100).fill('100ms').join(','), WEBHOOK_PAUSE_AFTER_MS: String(HOUR) });
    const { team } = await soloTeam(s);
    receiver.answer = { status: 200 };
    const endpoint = await newEndpoint(s, { type: 'team', id: team.id }, receiver.url, ['guide.created', 'guide.updated']);
    await settledAttempts(s, endpoint.id, endpoint.pingEventId);
    // guide.created always fails; guide.updated succeeds.
    receiver.answer = (request) => (request.headers['x-service-event'] === 'guide.updated' ? { status: 200 } : { status: 500 });
    const { guide, eventId } = await guideCreatedEvent(s, team.id, endpoint.id);

    /** Waits for `count` failed attempts of the event sent at or after `since` (the service's clock). */
    const failuresSince = (since: number, count: number) =>
      eventually(`${count} failures since ${new Date(since).toISOString()}`, async () => {
        const failed = (await attemptsOf(s, endpoint.id, eventId)).filter((a) => a.status === 'failed' && Date.parse(a.sent_at) >= since);
        return failed.length >= count ? failed : null;
      });

    await failuresSince(0, 1); // failing since T0
    s.clock.advance(40 * MINUTE);
    await failuresSince(s.clock.now().getTime(), 2); // T0 + 40 min: still inside the window
    expect((await endpointRow(s, endpoint.id)).status).toBe('active');

    await s.admin('PATCH', `/guides/${guide.id}`, { title: 'A success in between' });
    const updated = await newestEventId(s, endpoint.id, 'guide.updated');
    const [success] = await settledAttempts(s, endpoint.id, updated);
    expect(success.status).toBe('delivered');
    await failuresSince(Date.parse(success.sent_at), 2); // failing again since about T0 + 40 min

    s.clock.advance(30 * MINUTE); // T0 + 70 min: 70 min since the first failure, 30 since the success
    await failuresSince(s.clock.now().getTime(), 3);
    expect((await endpointRow(s, endpoint.id)).status, 'paused although a success came 30 minutes ago').toBe('active');
    expect(await mail(s)).toEqual([]);

    s.clock.advance(31 * MINUTE); // the new failures now last the whole hour
    const paused = await waitPaused(s, endpoint.id);
    expect(paused.paused_reason).toBe('failing');
    expect(await mail(s)).toHaveLength(1);
  });

  it('an endpoint whose last retry has run out is still paused on time by the once-a-minute check', async () => {
    const s = await ownService({ WEBHOOK_RETRY_DELAYS: '50ms', WEBHOOK_PAUSE_AFTER_MS: String(HOUR) });
    const { team } = await soloTeam(s);
    const admin = await teamMember(s, team.id, 'ADMIN');
    receiver.answer = { status: 500 };
    const own = await newEndpoint(s, { type: 'team', id: team.id }, receiver.url);
    const attempts = await settledAttempts(s, own.id, own.pingEventId);
    expect(attempts.map((a) => a.status)).toEqual(['failed', 'failed']);
    expect((await endpointRow(s, own.id)).status).toBe('active');

    s.clock.advance(HOUR + MINUTE);
    s.service.ctx.outbox.wake();
    const paused = await waitPaused(s, own.id);
    expect(paused.paused_reason).toBe('failing');
    const mails = (await mail(s)).filter((m) => m.to.includes(admin.email));
    expect(mails).toHaveLength(1);
  });
});

describe('defaults (decisions §1; spec §3.4, §6.1, §8)', () => {
  const DEFAULT_DELAYS = [10_000, MINUTE, 5 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR];

  it('the default retry schedule is 10s,1m,5m,30m,1h,3h,6h,12h: 8 retries over about 22.6 hours', () => {
    const config = loadConfig({});
    expect(config.webhookRetryDelaysMs).toEqual(DEFAULT_DELAYS);
    const total = config.webhookRetryDelaysMs.reduce((sum, ms) => sum + ms, 0);
    expect(total / HOUR).toBeCloseTo(22.6, 1);
  });

  it('each retry delay gets at most 10 % of jitter, shortening it, and there is no retry after the 8th', () => {
    const delays = loadConfig({}).webhookRetryDelaysMs;
    for (let attempt = 1; attempt <= 8; attempt++) {
      const base = DEFAULT_DELAYS[attempt - 1]!;
      expect(retryDelayMs(delays, attempt, () => 0)).toBe(base);
      const least = retryDelayMs(delays, attempt, () => 0.999)!;
      expect(least).toBeLessThan(base);
      expect(least).toBeGreaterThan(base * 0.9);
      for (let i = 0; i < 20; i++) {
        const any = retryDelayMs(delays, attempt)!;
        expect(any).toBeLessThanOrEqual(base);
        expect(any).toBeGreaterThanOrEqual(base * 0.9);
      }
    }
    expect(retryDelayMs(delays, 9, () => 0)).toBeNull();
    expect(retryDelayMs(delays, 10, () => 0.5)).toBeNull();
    // The whole schedule, jitter included, ends before a day of failures pauses the endpoint.
    const longest = DEFAULT_DELAYS.reduce((sum, base) => sum + base, 0);
    expect(longest).toBeLessThan(loadConfig({}).webhookPauseAfterMs);
  });

  it('the default answer time is 10 seconds and the default pause window one day', () => {
    const config = loadConfig({});
    expect(config.webhookTimeoutMs).toBe(10_000);
    expect(config.webhookPauseAfterMs).toBe(86_400_000);
  });
});

describe('response bodies (decisions §6)', () => {
  const bigBody = () => {
    let text = '';
    for (let i = 0; text.length < 100 * 1024; i++) text += `line ${i} of a long answer; `;
    return text.slice(0, 100 * 1024);
  };

  it.each([200, 500])('the Deliveries list keeps only the first 4 KiB of a 100 KiB answer (%i)', async (status) => {
    const body = bigBody();
    const { team, endpoint } = await teamEndpointAnswering(t, { status, body, headers: { 'content-type': 'text/plain' } });
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const [attempt] = await settledAttempts(t, endpoint.id, eventId);
    expect(attempt.response_status).toBe(status);
    expect(Buffer.byteLength(attempt.response_body, 'utf8')).toBe(4096);
    expect(attempt.response_body).toBe(body.slice(0, 4096));
  });

  it('an answer cut at 4 KiB in the middle of a character keeps only whole characters', async () => {
    // One byte, then two-byte characters: byte 4,096 is the first half of one.
    const body = `a${'é'.repeat(5000)}`;
    const { team, endpoint } = await teamEndpointAnswering(t, { status: 200, body, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    const { eventId } = await guideCreatedEvent(t, team.id, endpoint.id);
    const [attempt] = await settledAttempts(t, endpoint.id, eventId);
    expect(attempt.response_body).toBe(`a${'é'.repeat(2047)}`);
  });
});

describe('pausing by hand (decisions §6, "Manual pause")', () => {
  it('an admin pauses an endpoint: paused_reason manual, events are missed, resume redelivers them', async () => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status: 200 });
    const paused = await t.admin('POST', `/webhook-endpoints/${endpoint.id}/pause`);
    expect(paused).toMatchObject({ status: 'paused', paused_reason: 'manual' });
    const before = receiver.received.length;
    const missed = await guideCreatedEvent(t, team.id, endpoint.id);
    await sleep(DELAYS_MS[0]! * 4);
    expect(receiver.received.length).toBe(before);
    expect((await attemptsOf(t, endpoint.id, missed.eventId)).map((a) => a.status)).toEqual(['missed']);
    // Pausing again changes nothing.
    expect(await t.admin('POST', `/webhook-endpoints/${endpoint.id}/pause`)).toMatchObject({ status: 'paused', paused_reason: 'manual', paused_at: paused.paused_at });
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: true });
    await receiver.waitFor(before + 1);
    expect(eventIdOf(receiver.received[before]!)).toBe(missed.eventId);
  });

  it("is the home's admins' to do: a team's VIEWER is refused", async () => {
    const { team, endpoint } = await teamEndpointAnswering(t, { status: 200 });
    const viewer = await teamMember(t, team.id, 'VIEWER');
    const session = await signIn(t, viewer.email);
    expectProblem(await asSession(t, session, 'POST', `/webhook-endpoints/${endpoint.id}/pause`), 403, 'forbidden');
    expect((await endpointRow(t, endpoint.id)).status).toBe('active');
  });
});

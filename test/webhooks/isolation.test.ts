// One endpoint's slow or failing receiver costs its own endpoint time, never another's (decisions §9;
// docs/decisions.md "The worker"). The worker sends through a scripted transport, so a receiver that
// hangs really never answers, and the clock moves only when the test moves it: what is checked is what
// the worker started while what else was still outstanding, never how fast anything ran.
import { afterEach, describe, expect, it } from 'vitest';
import type { LaneLimits } from '../../src/webhooks/worker.js';
import { ANSWERED_200, type Reply, ScriptedTransport } from '../support/scripted-transport.js';
import { createGuide, soloTeam, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { allAttempts, type Home } from '../support/webhooks.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_RETRY_DELAYS: '1h,1h,1h' };
const MINUTE = 60_000;

let open: { s: TestService; transport: ScriptedTransport }[] = [];
afterEach(async () => {
  for (const { s, transport } of open.splice(0)) {
    transport.hangUpAll();
    await s.close();
  }
});

/** Answers by path, and by event type (`ping`, `guide.created`, …). */
type Script = (path: string, event: string) => Reply;

async function scriptedService(reply: Script, lanes: Partial<LaneLimits>, env: Record<string, string> = {}) {
  const transport = new ScriptedTransport();
  transport.reply = (path, delivery) => reply(path, delivery.headers['x-service-event']!);
  // No jitter: retries fall due exactly one delay later, so the probe gap (the delay less the most
  // jitter could take) comes strictly before them.
  const s = await startTestService({ ...ENV, ...env }, { transport, lanes, random: () => 0 });
  transport.inFlight = () => s.service.worker!.inFlight;
  open.push({ s, transport });
  return { s, transport };
}

/** A team of its own with an endpoint at `path` (the scripted transport answers by path). */
async function endpointAt(s: TestService, path: string, events = ['guide.created']) {
  const { team } = await soloTeam(s);
  const home: Home = { type: 'team', id: team.id };
  const endpoint = await s.admin('POST', '/webhook-endpoints', { home, url: `http://127.0.0.1:9${path}`, events });
  return { team, endpoint };
}

/**
 * An endpoint at `path` that has answered 2xx (its ping, which the script must answer so): it is claimed
 * in the healthy lane from here on, where a new endpoint is probed in the failing lane until it answers.
 */
async function provenEndpointAt(s: TestService, transport: ScriptedTransport, path: string) {
  const made = await endpointAt(s, path);
  await transport.waitForStarts(path, 1);
  await eventually('the ping to prove the endpoint', async () => {
    const queue = await s.service.ctx.db.selectFrom('webhook_queues').select(['proven', 'claim_token']).where('endpoint_id', '=', made.endpoint.id).executeTakeFirstOrThrow();
    return queue.proven === 1 && queue.claim_token === null;
  });
  return made;
}

/** Moves the service's clock and wakes its worker, as time passing would. */
function advance(s: TestService, ms: number): void {
  s.clock.advance(ms);
  s.service.ctx.outbox.wake();
}

describe('a healthy endpoint is never kept waiting by others (decisions §9)', () => {
  it('receivers that start to hang cannot fill the healthy lane: a batch that waits longer than slowAfterMs gives its place up', async () => {
    const { s, transport } = await scriptedService((path, event) => (path.startsWith('/hang') && event !== 'ping' ? 'hang' : { status: 200 }), { healthy: 2, slowAfterMs: 1000 });
    const hanging = [];
    for (let i = 0; i < 4; i++) hanging.push(await provenEndpointAt(s, transport, `/hang/${i}`));
    const healthy = await provenEndpointAt(s, transport, '/ok');
    for (const { team } of hanging) await createGuide(s, team.id);
    await transport.waitForStarts('/hang/0', 2);
    await transport.waitForStarts('/hang/1', 2);
    expect(s.service.worker!.inFlight).toMatchObject({ healthy: 2, slow: 0 });

    await createGuide(s, healthy.team.id);
    // Each second of waiting lets two more in; the healthy endpoint's event is the newest in line.
    advance(s, 1000);
    await transport.waitForStarts('/hang/3', 2);
    advance(s, 1000);
    const [, created] = await transport.waitForStarts('/ok', 2);
    expect(created!.event).toBe('guide.created');
    // Not one of the hanging receivers had answered when it went out.
    expect(transport.hangingCount).toBe(4);
    expect(created!.inFlight).toMatchObject({ healthy: 1, slow: 4 }); // its own batch, and the four that wait
  });

  it('failing endpoints are probed in a lane of their own: with it full, a healthy endpoint still gets its events at once', async () => {
    // Each flaky receiver fails its ping at once, then hangs on everything after.
    const seen = new Map<string, number>();
    const reply = (path: string): Reply => {
      if (!path.startsWith('/flaky')) return { status: 200 };
      seen.set(path, (seen.get(path) ?? 0) + 1);
      return seen.get(path) === 1 ? { status: 500 } : 'hang';
    };
    const { s, transport } = await scriptedService(reply, { healthy: 1, failing: 1 });
    const healthy = await provenEndpointAt(s, transport, '/ok');
    const flaky = [];
    for (let i = 0; i < 3; i++) flaky.push(await endpointAt(s, `/flaky/${i}`));
    for (let i = 0; i < 3; i++) await transport.waitForStarts(`/flaky/${i}`, 1);
    // Failing now: their next events go out one probe at a time, and the first probe hangs.
    for (const { team } of flaky) await createGuide(s, team.id);
    await eventually('a probe hanging in the failing lane', () => transport.hangingCount === 1);

    await createGuide(s, healthy.team.id, { title: 'For the healthy one' });
    const [, created] = await transport.waitForStarts('/ok', 2);
    expect(created!.event).toBe('guide.created');
    expect(created!.inFlight).toMatchObject({ failing: 1 });
    expect(transport.hangingCount).toBe(1);
    // The other failing endpoints still wait for the lane: one probe at a time.
    expect(transport.started.filter((d) => d.path.startsWith('/flaky') && d.event === 'guide.created')).toHaveLength(1);
  });

  it('when little room is left in all, the healthy lane takes its places first: a failing endpoint\'s probe waits for the next free place', async () => {
    const reply = (path: string, event: string): Reply => (path === '/flaky' ? { status: 500 } : path.startsWith('/hold') && event !== 'ping' ? 'hang' : { status: 200 });
    // One batch in flight in all, though each lane alone would take two; nothing turns slow.
    const { s, transport } = await scriptedService(reply, { healthy: 2, failing: 2, inFlight: 1, slowAfterMs: 60 * MINUTE });
    const first = await provenEndpointAt(s, transport, '/hold/first');
    const second = await provenEndpointAt(s, transport, '/hold/second');
    const flaky = await endpointAt(s, '/flaky');
    await transport.waitForStarts('/flaky', 1);
    await eventually('the failed ping to be recorded', () => Object.values(s.service.worker!.inFlight).every((n) => n === 0));

    await createGuide(s, first.team.id);
    await transport.waitForStarts('/hold/first', 2);
    // With the one place taken, a healthy endpoint's event and the failing endpoint's probe both wait.
    await createGuide(s, second.team.id);
    await createGuide(s, flaky.team.id);

    transport.answerHanging(ANSWERED_200);
    const [, secondCreated] = await transport.waitForStarts('/hold/second', 2);
    expect(secondCreated!.inFlight).toMatchObject({ healthy: 1, failing: 0 });
    // The probe was not claimed beside it: the look after the place came free took the healthy lane only.
    expect(s.service.worker!.inFlight).toMatchObject({ healthy: 1, failing: 0, slow: 0 });
    expect(transport.startedOn('/flaky')).toHaveLength(1);

    transport.answerHanging(ANSWERED_200);
    const [, probe] = await transport.waitForStarts('/flaky', 2);
    expect(probe!.event).toBe('guide.created');
    expect(probe!.inFlight).toMatchObject({ healthy: 0, failing: 1 });
  });
});

describe('a failing endpoint costs only its own time (decisions §9)', () => {
  /** An endpoint whose ping hangs until the test answers it, with `count` guide.created events queued behind it. */
  async function backlogBehindPing(s: TestService, transport: ScriptedTransport, count: number) {
    const { team, endpoint } = await endpointAt(s, '/receiver');
    await transport.waitForStarts('/receiver', 1);
    for (let i = 0; i < count; i++) await createGuide(s, team.id, { title: `Backlog ${i}` });
    return { team, endpoint };
  }

  it('a batch stops at its first failure: what follows goes out one attempt at a time in the failing lane, and from the third failure in a row the breaker holds the rest for the probe gap', async () => {
    let failing = false;
    const { s, transport } = await scriptedService((path) => (path === '/receiver' && !failing ? 'hang' : { status: 500 }), {});
    const { endpoint } = await backlogBehindPing(s, transport, 5);
    failing = true;
    transport.answerHanging(ANSWERED_200); // the ping is delivered; the five events are claimed as one batch

    const created = () => transport.startedOn('/receiver').filter((d) => d.event === 'guide.created');
    await eventually('three guide.created attempts', () => created().length >= 3);
    await eventually('the worker to go idle', () => Object.values(s.service.worker!.inFlight).every((n) => n === 0));
    const [first, second, third] = created();
    expect(first!.inFlight).toMatchObject({ healthy: 1, failing: 0 });
    // Had the batch gone on after the failure, the second would have left in the healthy lane.
    expect(second!.inFlight).toMatchObject({ healthy: 0, failing: 1 });
    expect(third!.inFlight).toMatchObject({ healthy: 0, failing: 1 });
    expect(JSON.parse(first!.body).data.guide.title).toBe('Backlog 0');
    expect(JSON.parse(third!.body).data.guide.title).toBe('Backlog 2');
    expect(created()).toHaveLength(3);
    const firsts = (await allAttempts(s, endpoint.id)).filter((a) => a.event_type === 'guide.created' && a.attempt_number === 1);
    expect(firsts.map((a) => a.status).sort()).toEqual(['failed', 'failed', 'failed', 'scheduled', 'scheduled']);

    // The probe gap is the first retry delay less its jitter: 54 minutes for 1h.
    advance(s, 53 * MINUTE);
    await eventually('the worker to go idle', () => Object.values(s.service.worker!.inFlight).every((n) => n === 0));
    expect(created()).toHaveLength(3);
    advance(s, 2 * MINUTE);
    await eventually('the probe', () => created().length === 4);
    expect(JSON.parse(created()[3]!.body).data.guide.title).toBe('Backlog 3');
  });

  it('a probe that succeeds closes the breaker: the rest of the backlog goes out in one batch in the healthy lane', async () => {
    let answer: Reply = 'hang';
    const { s, transport } = await scriptedService((path) => (path === '/receiver' ? answer : { status: 200 }), {});
    await backlogBehindPing(s, transport, 6);
    answer = { status: 500 };
    transport.answerHanging(ANSWERED_200);
    const created = () => transport.startedOn('/receiver').filter((d) => d.event === 'guide.created');
    await eventually('three failures', () => created().length >= 3);
    await eventually('the worker to go idle', () => Object.values(s.service.worker!.inFlight).every((n) => n === 0));
    answer = { status: 204 };
    advance(s, 55 * MINUTE);
    await eventually('the other three, and nothing else due yet', () => created().length === 6);
    const rest = created().slice(3);
    expect(rest.map((d) => JSON.parse(d.body).data.guide.title)).toEqual(['Backlog 3', 'Backlog 4', 'Backlog 5']);
    expect(rest[0]!.inFlight).toMatchObject({ failing: 1, healthy: 0 });
    expect(rest[1]!.inFlight).toMatchObject({ failing: 0, healthy: 1 });
  });

  it('the failing lane starts its probes at a pace (failingPerSecond), so a wave of failures is spread out while a healthy endpoint goes at once', async () => {
    // Two probes a second: at most one saved up, then one every 500 ms of the service's clock.
    const { s, transport } = await scriptedService((path, event) => (path.startsWith('/fail') && event !== 'ping' ? { status: 500 } : { status: 200 }), { failingPerSecond: 2 });
    // New endpoints are probed at the same pace until they answer: each ping waits for its turn.
    const failing = [];
    for (let i = 0; i < 3; i++) {
      if (i > 0) advance(s, 500);
      failing.push(await provenEndpointAt(s, transport, `/fail/${i}`));
    }
    advance(s, 500);
    const healthy = await provenEndpointAt(s, transport, '/ok');
    // Each endpoint's first event fails in the healthy lane: every one of them is failing from here on.
    for (const { team } of failing) await createGuide(s, team.id, { title: 'Fails' });
    for (const { endpoint } of failing) await eventually('the failed event', async () => (await allAttempts(s, endpoint.id)).some((a) => a.status === 'failed'));
    advance(s, 500); // the pace has one probe saved up again
    for (const { team } of failing) await createGuide(s, team.id);
    const probes = () => transport.started.filter((d) => d.path.startsWith('/fail') && d.event === 'guide.created' && !d.body.includes('"Fails"'));
    await eventually('the first probe', () => probes().length === 1);

    // The pace holds the other two while the clock stands still; a healthy endpoint is not held.
    await createGuide(s, healthy.team.id);
    await transport.waitForStarts('/ok', 2);
    await eventually('the worker to go idle', () => Object.values(s.service.worker!.inFlight).every((n) => n === 0));
    expect(probes()).toHaveLength(1);

    advance(s, 500);
    await eventually('the second probe', () => probes().length === 2);
    await eventually('the worker to go idle', () => Object.values(s.service.worker!.inFlight).every((n) => n === 0));
    expect(probes()).toHaveLength(2);
    advance(s, 500);
    await eventually('the third probe', () => probes().length === 3);
  });

  it('new endpoints are probed at the failing lane\'s pace until they answer 2xx, so a wave of new receivers that hang costs a proven endpoint nothing', async () => {
    const { s, transport } = await scriptedService((path) => (path.startsWith('/new') ? 'hang' : { status: 200 }), { failingPerSecond: 2, failing: 10 });
    const healthy = await provenEndpointAt(s, transport, '/ok');
    advance(s, 500); // the pace has one probe saved up
    for (let i = 0; i < 5; i++) await endpointAt(s, `/new/${i}`);
    const pings = () => transport.started.filter((d) => d.path.startsWith('/new'));
    await eventually('the first ping', () => pings().length === 1);

    await createGuide(s, healthy.team.id);
    const [, created] = await transport.waitForStarts('/ok', 2);
    expect(created!.inFlight).toMatchObject({ healthy: 1, failing: 1 }); // its own batch, and the one ping, hanging
    expect(pings()).toHaveLength(1);
    advance(s, 500);
    await eventually('the second ping', () => pings().length === 2);
    expect(pings().every((d) => d.event === 'ping')).toBe(true);
  });

  it('a new URL is a new receiver: what the breaker held back goes to it at once', async () => {
    let failing = false;
    const { s, transport } = await scriptedService((path) => (path === '/receiver' ? (failing ? { status: 500 } : 'hang') : { status: 200 }), {});
    const { endpoint } = await backlogBehindPing(s, transport, 5);
    failing = true;
    transport.answerHanging(ANSWERED_200);
    const createdOn = (path: string) => transport.startedOn(path).filter((d) => d.event === 'guide.created');
    await eventually('three failures in a row', () => createdOn('/receiver').length === 3);
    await eventually('the worker to go idle', () => Object.values(s.service.worker!.inFlight).every((n) => n === 0));

    // The breaker holds the rest for 54 minutes; no time passes, yet they go to the new address.
    await s.admin('PATCH', `/webhook-endpoints/${endpoint.id}`, { url: 'http://127.0.0.1:9/elsewhere' });
    const sent = await transport.waitForStarts('/elsewhere', 1);
    expect(JSON.parse(sent[0]!.body).data.guide.title).toBe('Backlog 3');
    expect(createdOn('/receiver')).toHaveLength(3);
  });
});

describe('throttling receivers: Retry-After (decisions §9)', () => {
  // A first retry shorter than what the receivers ask for, so that Retry-After is what decides.
  async function throttledOnce(retryAfter: string, status = 429, env: Record<string, string> = { WEBHOOK_RETRY_DELAYS: '10s,1h' }) {
    let throttling = false;
    const { s, transport } = await scriptedService((path) => (path === '/receiver' && throttling ? { status, retryAfter } : { status: 200 }), {}, env);
    const { team, endpoint } = await endpointAt(s, '/receiver');
    await transport.waitForStarts('/receiver', 1);
    throttling = true;
    const guide = await createGuide(s, team.id, { title: 'Throttled' });
    const [, throttled] = await transport.waitForStarts('/receiver', 2);
    const attempt = await eventually('the throttled attempt to be recorded', async () =>
      (await allAttempts(s, endpoint.id)).find((a) => a.id === throttled!.deliveryId && a.status === 'failed'),
    );
    throttling = false;
    return { s, transport, team, endpoint, guide, attempt };
  }

  it('a 429 with Retry-After in seconds holds the whole endpoint until then: its retry and other events wait, and the Deliveries list says why', async () => {
    const { s, transport, team, endpoint, attempt } = await throttledOnce('120');
    const sentAt = Date.parse(attempt.sent_at);
    expect(Date.parse(attempt.next_attempt_at) - sentAt).toBeGreaterThanOrEqual(120_000);
    expect(attempt.error).toMatch(/^answered 429; the receiver asked to wait \(Retry-After: 120\), so no attempt goes to this endpoint before \d{4}-/);
    const holdUntil = Date.parse(/before (\S+)$/.exec(attempt.error)![1]!);
    expect(holdUntil - sentAt).toBeGreaterThanOrEqual(120_000);

    await createGuide(s, team.id, { title: 'Another event meanwhile' });
    await eventually('the worker to go idle', () => Object.values(s.service.worker!.inFlight).every((n) => n === 0));
    expect(transport.startedOn('/receiver')).toHaveLength(2);
    const waiting = (await allAttempts(s, endpoint.id)).filter((a) => a.status === 'scheduled');
    expect(waiting.map((a) => a.attempt_number).sort()).toEqual([1, 2]);

    advance(s, 121_000);
    await transport.waitForStarts('/receiver', 4);
    expect(
      transport
        .startedOn('/receiver')
        .slice(2)
        .map((d) => JSON.parse(d.body).data.guide.title)
        .sort(),
    ).toEqual(['Another event meanwhile', 'Throttled']);
  });

  it('a 503 with Retry-After as an HTTP date holds the endpoint until that date', async () => {
    const clockNow = Date.now();
    const date = new Date(Math.ceil((clockNow + 300_000) / 1000) * 1000).toUTCString();
    const { attempt } = await throttledOnce(date, 503);
    expect(attempt.error).toContain(`answered 503; the receiver asked to wait (Retry-After: ${date})`);
    expect(Date.parse(attempt.next_attempt_at)).toBeGreaterThanOrEqual(Date.parse(date) - 1000);
    expect(Date.parse(attempt.next_attempt_at)).toBeLessThanOrEqual(Date.parse(date) + 1000);
  });

  it('a Retry-After longer than the schedule\'s last delay holds the endpoint for that last delay only', async () => {
    const { attempt } = await throttledOnce('86400', 429, { WEBHOOK_RETRY_DELAYS: '10s,1m' });
    const held = Date.parse(/before (\S+) /.exec(attempt.error)![1]!) - Date.parse(attempt.sent_at);
    expect(held).toBeGreaterThanOrEqual(60_000);
    expect(held).toBeLessThan(65_000);
    expect(Date.parse(attempt.next_attempt_at) - Date.parse(attempt.sent_at)).toBeLessThan(65_000);
    expect(attempt.error).toContain('(the longest retry delay; it asked for longer)');
  });

  it('a Retry-After that is neither seconds nor a date is ignored: the schedule alone decides', async () => {
    const { attempt } = await throttledOnce('soon');
    expect(attempt.error).toBe('answered 429');
    const delay = Date.parse(attempt.next_attempt_at) - Date.parse(attempt.sent_at);
    expect(delay).toBeGreaterThanOrEqual(10_000);
    expect(delay).toBeLessThan(11_000);
  });
});

describe('the Deliveries list while an endpoint\'s queue is held (decisions §6)', () => {
  it('a due attempt is listed as sending while a worker holds its endpoint; status=sending finds it and status=scheduled does not', async () => {
    const { s, transport } = await scriptedService((path) => (path === '/slow' ? 'hang' : { status: 200 }), {});
    const { endpoint } = await endpointAt(s, '/slow');
    await transport.waitForStarts('/slow', 1);

    const [ping] = await allAttempts(s, endpoint.id);
    expect(ping).toMatchObject({ event_type: 'ping', status: 'sending' });
    expect((await allAttempts(s, endpoint.id, { status: 'sending' })).map((a) => a.id)).toEqual([ping.id]);
    expect(await allAttempts(s, endpoint.id, { status: 'scheduled' })).toEqual([]);

    transport.answerHanging(ANSWERED_200);
    await eventually('the ping to be delivered', async () => (await allAttempts(s, endpoint.id))[0]?.status === 'delivered');
    expect(await allAttempts(s, endpoint.id, { status: 'sending' })).toEqual([]);
  });

  it('a batch shorter than its size lets its queue go rather than reading on; what was written meanwhile goes out under a new claim', async () => {
    const { s, transport } = await scriptedService(() => 'hang', { batch: 5 });
    const { team, endpoint } = await endpointAt(s, '/one-at-a-time');
    await transport.waitForStarts('/one-at-a-time', 1);
    const claimNow = async () => (await s.service.ctx.db.selectFrom('webhook_queues').select('claim_token').where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow()).claim_token;
    const pingClaim = await claimNow();
    await createGuide(s, team.id, { title: 'Meanwhile' });
    transport.answerHanging(ANSWERED_200);
    const [, meanwhile] = await transport.waitForStarts('/one-at-a-time', 2);
    expect(meanwhile!.event).toBe('guide.created');
    const guideClaim = await claimNow();
    expect(guideClaim).not.toBeNull();
    expect(guideClaim).not.toBe(pingClaim);
  });
});

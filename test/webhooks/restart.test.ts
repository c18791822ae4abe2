// Deliveries survive a restart (decisions §6, §8; spec §3.4): a delivery that was due when the process
// stopped is sent after it starts again; nothing lost, nothing sent twice. Two services in turn on one
// SQLite file, with the same ADMIN_TOKEN.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Received, type Receiver, startReceiver } from '../support/receiver.js';
import { createGuide, soloTeam, startTestService, type TestService } from '../support/service.js';
import { eventually, sleep } from '../support/waiting.js';
import { allAttempts, eventIdOf } from '../support/webhooks.js';

/** How long a wait across a restart may take. */
const RESTART_WAIT_MS = 15_000;

let receiver: Receiver;
let running: TestService[] = [];
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  await receiver.close();
});

function fileDatabase(): string {
  return `file:${join(mkdtempSync(join(tmpdir(), 'webhook-restart-')), 'x.db')}`;
}

async function start(databaseUrl: string, env: Record<string, string>): Promise<TestService> {
  const s = await startTestService({
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_COALESCE_MS: '0',
    ...env,
  });
  running.push(s);
  return s;
}

async function stop(s: TestService): Promise<void> {
  running = running.filter((other) => other !== s);
  await s.close();
}

/** The attempts' states in the database file, read while no service has it open. */
function statusesIn(databaseUrl: string, endpointId: string): { event_id: string; attempt_number: number; status: string }[] {
  const db = new SQLite(databaseUrl.slice('file:'.length), { readonly: true });
  try {
    return db
      .prepare('SELECT event_id, attempt_number, status FROM webhook_attempts WHERE endpoint_id = ? ORDER BY seq')
      .all(endpointId) as { event_id: string; attempt_number: number; status: string }[];
  } finally {
    db.close();
  }
}

describe('a delivery that was due when the process stopped is sent after it starts again; nothing lost, nothing sent twice', () => {
  it('a retry scheduled when the service stopped is delivered exactly once by the next service on the same database', async () => {
    const database = fileDatabase();
    const env = { WEBHOOK_RETRY_DELAYS: '1s,1s', WEBHOOK_TIMEOUT_MS: '2000' };
    const first = await start(database, env);
    const { team } = await soloTeam(first);
    const endpoint = await first.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
    await receiver.waitFor(1); // the ping, answered 200
    receiver.answer = { status: 500 };
    const guide = await createGuide(first, team.id);
    const failed = await eventually('the first attempt to fail with a retry scheduled', async () => {
      const attempt = (await allAttempts(first, endpoint.id)).find((a) => a.event_type === 'guide.created' && a.attempt_number === 1);
      return attempt?.status === 'failed' && attempt.next_attempt_at ? attempt : null;
    }, RESTART_WAIT_MS);
    await stop(first);
    expect(statusesIn(database, endpoint.id).filter((row) => row.event_id === failed.event_id).map((row) => [row.attempt_number, row.status])).toEqual([
      [1, 'failed'],
      [2, 'scheduled'],
    ]);
    const afterFirst = receiver.received.length;
    expect(afterFirst).toBe(2);
    const eventId = failed.event_id;

    receiver.answer = { status: 200 };
    const second = await start(database, env);
    // Everything made by the first service is there.
    expect(await second.admin('GET', `/webhook-endpoints/${endpoint.id}`)).toMatchObject({ id: endpoint.id, status: 'active' });
    const [retry] = await receiver.waitFor(afterFirst + 1).then((all) => all.slice(afterFirst));
    expect(eventIdOf(retry!)).toBe(eventId);
    expect(JSON.parse(retry!.body).data.guide.id).toBe(guide.id);
    expect(retry!.headers['x-service-delivery']).not.toBe(failed.id);
    expect(retry!.body).toBe(failed.request_body);

    const attempts = await eventually('the retry to be recorded as delivered', async () => {
      const list = (await allAttempts(second, endpoint.id)).filter((a) => a.event_id === eventId);
      return list.some((a) => a.status === 'delivered') ? list : null;
    }, RESTART_WAIT_MS);
    await sleep(2500); // longer than the whole retry schedule: a second send would have come by now
    const ofEvent = receiver.received.filter((r) => eventIdOf(r) === eventId);
    expect(ofEvent).toHaveLength(2); // the failed first attempt and the retry, once
    expect((await allAttempts(second, endpoint.id)).filter((a) => a.event_id === eventId).map((a) => [a.attempt_number, a.status])).toEqual([
      [2, 'delivered'],
      [1, 'failed'],
    ]);
    expect(attempts.find((a) => a.status === 'delivered').id).toBe(retry!.headers['x-service-delivery']);
  });

  it('events whose attempts were in flight or due when the service stopped all arrive after it starts again, each delivered successfully exactly once', async () => {
    const database = fileDatabase();
    const env = { WEBHOOK_RETRY_DELAYS: '200ms,200ms,200ms,200ms', WEBHOOK_TIMEOUT_MS: '1000' };
    const first = await start(database, env);
    const { team } = await soloTeam(first);
    const endpoint = await first.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created', 'guide.updated'] });
    await receiver.waitFor(1);

    // Which requests got a 2xx: the receiver hangs until it is told to answer.
    let answering = false;
    const succeeded: Received[] = [];
    receiver.answer = (request) => {
      if (!answering) return 'hang';
      succeeded.push(request);
      return { status: 200 };
    };
    const guides = [];
    for (let i = 0; i < 5; i++) guides.push(await createGuide(first, team.id, { title: `Guide ${i}` }));
    await receiver.waitFor(2); // the first of them is hanging in flight; the others wait their turn
    // One more event, written just before the stop: due, not yet sent.
    await first.admin('PATCH', `/guides/${guides[0]!.id}`, { title: 'Changed just before the stop' });
    const eventIds = (await allAttempts(first, endpoint.id)).filter((a) => a.event_type !== 'ping').map((a) => a.event_id);
    const expected = [...new Set(eventIds)];
    expect(expected).toHaveLength(guides.length + 1);
    await stop(first); // graceful: waits for the attempt in flight, up to the time-out, and gives back the rest
    // Between the two processes: nothing is left claimed, everything not delivered is still to be sent.
    const between = statusesIn(database, endpoint.id);
    expect(between.filter((row) => row.status === 'sending')).toEqual([]);
    for (const id of expected) {
      const rows = between.filter((row) => row.event_id === id);
      expect(rows.some((row) => row.status === 'scheduled'), `event ${id} is still to be sent`).toBe(true);
    }

    answering = true;
    const second = await start(database, env);
    await eventually('every event to be delivered', async () => {
      const delivered = new Set(succeeded.map(eventIdOf));
      return expected.every((id) => delivered.has(id)) ? true : null;
    }, RESTART_WAIT_MS);
    await sleep(1500); // longer than the retry schedule: a duplicate would have come by now

    const successesPerEvent = new Map<string, number>();
    for (const request of succeeded) successesPerEvent.set(eventIdOf(request), (successesPerEvent.get(eventIdOf(request)) ?? 0) + 1);
    for (const id of expected) expect(successesPerEvent.get(id), `successful deliveries of event ${id}`).toBe(1);
    expect([...successesPerEvent.keys()].sort()).toEqual([...expected].sort());

    const attempts = await allAttempts(second, endpoint.id);
    for (const id of expected) {
      const ofEvent = attempts.filter((a) => a.event_id === id);
      expect(ofEvent.filter((a) => a.status === 'delivered'), `delivered attempts of ${id}`).toHaveLength(1);
      expect(ofEvent.filter((a) => a.status === 'scheduled' || a.status === 'sending')).toEqual([]);
    }
    // Every request the receiver got carried a distinct delivery id.
    const deliveryIds = receiver.received.map((r) => r.headers['x-service-delivery']);
    expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
  });
});

// Tailing the events feed (issue 17, docs/decisions.md "Events feed"): `wait` holds an empty page open until
// an event arrives, woken by the signals the workers use (in-process on SQLite; LISTEN/NOTIFY on
// PostgreSQL, also from another service instance on the same database), counts against the rate limit
// once, and a key holds at most WAITS_PER_KEY such requests. On PostgreSQL the feed follows commit order:
// an event of a transaction still running is not overtaken by one committed after it.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_NAME } from '../../../src/db/notification-listener.js';
import { FALLBACK_MS, WAITS_PER_KEY } from '../../../src/domain/event-feed-signal.js';
import { expectProblem } from '../admin/helpers.js';
import { createGuide, soloTeam, startTestService, type TestService } from '../../support/service.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../../support/test-database.js';
import { eventually, sleep } from '../../support/waiting.js';

let database: TestDatabase;
let t: TestService;

beforeAll(async () => {
  database = await testDatabase();
  t = await startTestService({ ...database.env, WEBHOOK_COALESCE_MS: '0', RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

describe('wait', () => {
  it('answers at once when an event is written during the wait', async () => {
    const { team, key } = await soloTeam(t);
    const waiting = timed(t.get('/v1/events?wait=20', key));
    await sleep(300);
    const guide = await createGuide(t, team.id);
    const { value: response, ms } = await waiting;
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((event: any) => event.data.guide.id)).toEqual([guide.id]);
    // Woken by the commit, not found by the fallback look.
    expect(ms).toBeLessThan(300 + FALLBACK_MS);
  });

  it('answers an empty page with the cursor once the wait is over when nothing comes', async () => {
    const { team, key } = await soloTeam(t);
    await createGuide(t, team.id);
    const cursor = (await t.get('/v1/events', key)).json().next_cursor;
    const { value: response, ms } = await timed(t.get(`/v1/events?wait=1&after=${cursor}`, key));
    expect(response.json()).toEqual({ data: [], next_cursor: cursor });
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(3000);
    // wait=0 (the default) never holds.
    expect((await timed(t.get(`/v1/events?after=${cursor}`, key))).ms).toBeLessThan(900);
  });

  it('does not hold a page that has events', async () => {
    const { team, key } = await soloTeam(t);
    await createGuide(t, team.id);
    const { value: response, ms } = await timed(t.get('/v1/events?wait=30', key));
    expect(response.json().data).toHaveLength(1);
    expect(ms).toBeLessThan(900);
  });

  it('counts a held request against the rate limit once, and holds at most WAITS_PER_KEY requests of one key', async () => {
    const { team, key } = await soloTeam(t);
    const other = await soloTeam(t);
    const remaining = async () => Number((await t.get('/v1/auth/verify', key)).headers['ratelimit-remaining']);
    const before = await remaining();
    await t.get('/v1/events?wait=1', key);
    expect(await remaining()).toBe(before - 2);

    const waitingBefore = t.service.ctx.eventFeed!.waiting;
    const held = Array.from({ length: WAITS_PER_KEY }, () => t.get('/v1/events?wait=20', key));
    await eventually('every request held', () => t.service.ctx.eventFeed!.waiting === waitingBefore + WAITS_PER_KEY);
    const refused = await t.get('/v1/events?wait=20', key);
    // Its own code, and headers that agree with it: Retry-After, and no RateLimit-Remaining telling the
    // client it may go on (decisions §10).
    const body = expectProblem(refused, 429, 'too_many_waits');
    expect(body.detail).toContain(`${WAITS_PER_KEY} requests waiting`);
    expect(refused.headers['retry-after']).toBe('1');
    for (const name of ['ratelimit-remaining', 'ratelimit-limit', 'ratelimit', 'ratelimit-reset', 'ratelimit-policy']) expect(refused.headers[name], name).toBeUndefined();
    // Without wait the same key is answered, and another key may still wait.
    expect((await t.get('/v1/events', key)).statusCode).toBe(200);
    const otherWaiting = t.get('/v1/events?wait=20', other.key);

    const guide = await createGuide(t, team.id);
    await createGuide(t, other.team.id);
    for (const response of await Promise.all(held)) expect(response.json().data.map((event: any) => event.data.guide.id)).toEqual([guide.id]);
    expect((await otherWaiting).json().data).toHaveLength(1);
    // Released: the key may wait again.
    expect((await t.get('/v1/events?wait=1', key)).statusCode).toBe(200);
  });
});

describe.runIf(usingPostgres)('on PostgreSQL', () => {
  it('wakes a request waiting on one service instance when another instance writes the event', async () => {
    const second = await startTestService({ ...database.env, ROLE: 'api', RATE_LIMIT_PER_MINUTE: '100000' });
    try {
      const { team, key } = await soloTeam(t);
      // The second instance hears other processes once its listening connection has run its LISTENs; its
      // heartbeat (a pg_notify) comes only after them.
      const admin = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await admin.connect();
      try {
        await eventually('both instances listening', async () => {
          const { rows } = await admin.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND (query LIKE 'LISTEN%' OR query LIKE 'SELECT pg_notify%')",
            [LISTENER_NAME],
          );
          return rows[0].n >= 2;
        });
      } finally {
        await admin.end();
      }
      const waiting = timed(second.get('/v1/events?wait=20', key));
      await sleep(300);
      const guide = await createGuide(t, team.id);
      const { value: response, ms } = await waiting;
      expect(response.json().data.map((event: any) => event.data.guide.id)).toEqual([guide.id]);
      expect(ms).toBeLessThan(300 + FALLBACK_MS);
    } finally {
      await second.close();
    }
  });

  it('follows commit order: an event of a transaction still running is not overtaken by one committed after it', async () => {
    const { team, key } = await soloTeam(t);
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    try {
      // A slow writer: its event is inserted (and numbered) first, and committed last.
      const slowId = randomUUID();
      const envelope = JSON.stringify({
        id: slowId,
        created_at: new Date().toISOString(),
        team_id: team.id,
        organization_id: null,
        type: 'guide.deleted',
        data: { guide: { id: randomUUID(), team_id: team.id } },
      });
      await client.query('BEGIN');
      await client.query('INSERT INTO events (id, type, team_id, organization_id, payload, created_at) VALUES ($1, $2, $3, NULL, $4, $5)', [
        slowId,
        'guide.deleted',
        team.id,
        envelope,
        JSON.parse(envelope).created_at,
      ]);
      const fast = await createGuide(t, team.id);
      // The committed event waits behind the running transaction rather than being shown before it.
      const during = (await t.get('/v1/events', key)).json();
      expect(during.data).toEqual([]);
      await client.query('COMMIT');
      const after = (await t.get('/v1/events', key)).json();
      expect(after.data.map((event: any) => event.id)).toEqual([slowId, expect.any(String)]);
      expect(after.data[1].data.guide.id).toBe(fast.id);
    } finally {
      await client.end();
    }
  });
});

// Rate limits across a Redis outage (docs/decisions.md): a key keeps one window while Redis goes away and
// comes back, whether Redis dies and restarts empty or stops answering and resumes with its counts, on the
// embedded store (which stands in with memory) and on PostgreSQL; and on PostgreSQL a process that had no
// request while Redis went away still hands its counts over to the others. Each test runs a redis-server
// of its own, so that it can kill it.
import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { RATE_LIMIT_TABLE } from '../../src/db/migrations/0003_shared_rate_limits.js';
import { freePort } from '../support/processes.js';
import { soloTeam, startTestService, type TestService } from '../support/service.js';
import { testDatabase, type TestDatabase, usingPostgres } from '../support/test-database.js';
import { eventually } from '../support/waiting.js';

const LIMIT = 10;
const WENT_AWAY = 'rate limits count in the database meanwhile';
const HANDED_OVER = 'rate-limit counts of this process moved from Redis to the database';
const CAME_BACK = 'rate limits count in Redis';

async function redisAnswers(port: number): Promise<boolean> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } finally {
    client.disconnect();
  }
}

/** A throwaway redis-server on `port`, without persistence: a restart starts it empty. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  });
  await eventually(`redis-server on ${port}`, () => redisAnswers(port), { retryOnError: true, timeoutMs: 5000 });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** A service on `databaseUrl` counting in the Redis on `redisPort`, whose log lines the test reads. */
async function startService(databaseUrl: string, redisPort: number): Promise<{ t: TestService; logLines: string[] }> {
  const logLines: string[] = [];
  const t = await startTestService(
    { DATABASE_URL: databaseUrl, REDIS_URL: `redis://127.0.0.1:${redisPort}`, RATE_LIMIT_PER_MINUTE: String(LIMIT) },
    { logLines },
  );
  cleanups.push(() => t.close());
  return { t, logLines };
}

const said = (logLines: string[], text: string) => logLines.filter((line) => line.includes(text)).length;

/** Sends `n` requests with `key` and answers how many were let through; every other answer must be 429. */
async function send(t: TestService, key: string, n: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < n; i++) {
    const answer = await t.get('/v1/auth/verify', key);
    if (answer.statusCode === 200) admitted++;
    else expect(answer.statusCode).toBe(429);
  }
  return admitted;
}

interface StoreCase {
  name: string;
  open(): Promise<TestDatabase>;
}

const stores: StoreCase[] = [{ name: 'the embedded store', open: async () => ({ env: { DATABASE_URL: 'file::memory:' }, drop: async () => undefined }) }];
// In CI a missing PostgreSQL fails here (testDatabase throws) rather than skipping the case.
if (usingPostgres || process.env.REQUIRE_TEST_SERVERS) stores.push({ name: 'PostgreSQL', open: testDatabase });

async function openStore(store: StoreCase): Promise<string> {
  const database = await store.open();
  cleanups.push(() => database.drop());
  return database.env.DATABASE_URL!;
}

describe.each(stores)('rate limits across a Redis outage, on $name', (store) => {
  it('Redis killed mid-window and restarted empty: the key gets its allowance once in that window', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const { t, logLines } = await startService(await openStore(store), port);
    const { key } = await soloTeam(t);

    let admitted = await send(t, key, 6);
    expect(admitted).toBe(6);
    await kill(redis);
    admitted += await send(t, key, 10);
    expect(admitted).toBe(LIMIT);
    expect(said(logLines, WENT_AWAY)).toBe(1);

    await startRedis(port);
    await eventually('counting back in Redis', () => said(logLines, CAME_BACK) === 2);
    admitted += await send(t, key, 5);
    expect(admitted).toBe(LIMIT);
    const last = await t.get('/v1/auth/verify', key);
    expect(last.statusCode).toBe(429);
    expect(last.headers['ratelimit-remaining']).toBe('0');
  });

  it('Redis that stops answering and resumes with its counts: still one allowance in the window', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const { t, logLines } = await startService(await openStore(store), port);
    const { key } = await soloTeam(t);

    let admitted = await send(t, key, 4);
    redis.kill('SIGSTOP');
    cleanups.push(async () => redis.kill('SIGCONT'));
    // The first request waits for Redis's answer a bounded time, then the database counts.
    admitted += await send(t, key, 4);
    expect(said(logLines, WENT_AWAY)).toBe(1);
    redis.kill('SIGCONT');
    await eventually('counting back in Redis', () => said(logLines, CAME_BACK) === 2);
    admitted += await send(t, key, 4);
    expect(admitted).toBe(LIMIT);
    const fresh = await soloTeam(t);
    // Another key is untouched by all this.
    expect(await send(t, fresh.key, 3)).toBe(3);
  });

  it.runIf(store.name === 'PostgreSQL')('while Redis answers, requests are counted in Redis and the database’s counts are not touched', async () => {
    const port = await freePort();
    await startRedis(port);
    const databaseUrl = await openStore(store);
    const { t } = await startService(databaseUrl, port);
    const { key } = await soloTeam(t);
    expect(await send(t, key, 5)).toBe(5);
    const redis = new Redis({ port, host: '127.0.0.1' });
    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    try {
      expect((await redis.keys('guide-service:*:rate*')).length).toBeGreaterThan(0);
      const { rows } = await database.query<{ n: string }>(`select count(*) as n from ${RATE_LIMIT_TABLE}`);
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      redis.disconnect();
      await database.end();
    }
  });

  it.runIf(store.name === 'PostgreSQL')('a process with no request when Redis dies still hands its counts to the others', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const databaseUrl = await openStore(store);
    const busy = await startService(databaseUrl, port);
    const other = await startService(databaseUrl, port);
    const { key } = await soloTeam(busy.t);

    let admitted = await send(busy.t, key, 7);
    await kill(redis);
    await eventually('the counts of the busy process moved to the database', () => said(busy.logLines, HANDED_OVER) === 1);
    admitted += await send(other.t, key, 10);
    expect(admitted).toBe(LIMIT);
  });
});

// Processes on one PostgreSQL database count rate limits in one place (docs/decisions.md, "Rate limits
// across a Redis outage"): one with REDIS_URL counts in Redis and one without it in the database, so a
// process whose REDIS_URL disagrees with a running one refuses to start, naming REDIS_URL. The refusal
// lasts only while such a process runs, and a worker-only process, which counts nothing, is not refused.
import { afterEach, describe, expect, it } from 'vitest';
import { clusterServers } from '../support/cluster.js';
import { startTestService, type TestService } from '../support/service.js';
import { testDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase | undefined;
let running: TestService[] = [];
afterEach(async () => {
  for (const t of running.reverse()) await t.close();
  running = [];
  await database?.drop();
  database = undefined;
});

async function start(env: Record<string, string>): Promise<TestService> {
  const t = await startTestService({ DATABASE_URL: database!.env.DATABASE_URL!, ...env });
  running.push(t);
  return t;
}

/** What starting a process with `env` came to: its refusal, or that it started. */
async function outcome(env: Record<string, string>): Promise<string> {
  try {
    await start(env);
    return 'started';
  } catch (error) {
    return String(error);
  }
}

const withRedis = () => ({ REDIS_URL: process.env.TEST_REDIS_URL! });

describe.runIf(clusterServers)('REDIS_URL is the same for every process on one database', () => {
  it('a process without REDIS_URL refuses to start beside one with it, and starts once that one has stopped', async () => {
    database = await testDatabase();
    const first = await start(withRedis());
    expect(await outcome({})).toMatch(/REDIS_URL is not set here, but a process with REDIS_URL/);
    await first.close();
    running = running.filter((t) => t !== first);
    expect(await outcome({})).toBe('started');
  });

  it('a process with REDIS_URL refuses to start beside one without it', async () => {
    database = await testDatabase();
    await start({});
    expect(await outcome(withRedis())).toMatch(/REDIS_URL is set here, but a process without REDIS_URL/);
  });

  it('processes that agree start side by side, and a worker-only process needs no REDIS_URL', async () => {
    database = await testDatabase();
    await start(withRedis());
    await start(withRedis());
    await start({ ROLE: 'worker' });
  });
});

// Probes for load balancers (/healthz, /readyz) and rate limits that keep answering when Redis is gone.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { soloTeam, startTestService, type TestService } from '../support/service.js';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('health probes', () => {
  it('/healthz answers while the process runs; /readyz while the store is reachable and migrated', async () => {
    t = await startTestService();
    const health = await t.service.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    const ready = await t.service.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({ status: 'ready' });
    // A migration this build knows but the store has not applied: not ready.
    await sql`delete from kysely_migration where name = '0004_claim_owners'`.execute(t.service.store.db);
    const migrating = await t.service.app.inject({ method: 'GET', url: '/readyz' });
    expect(migrating.statusCode).toBe(503);
    expect(migrating.json()).toEqual({ status: 'migrating', missing: ['0004_claim_owners'] });
  });

  it('a worker-only process serves the probes and nothing else', async () => {
    t = await startTestService({ ROLE: 'worker' });
    expect((await t.service.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await t.service.app.inject({ method: 'GET', url: '/v1/guides' })).statusCode).toBe(404);
    expect((await t.service.app.inject({ method: 'GET', url: '/admin/v1/mail' })).statusCode).toBe(404);
  });
});

describe('rate limits without Redis (decisions §8)', () => {
  it('an unreachable REDIS_URL does not refuse requests: the database counter takes over, and it is logged', async () => {
    const logLines: string[] = [];
    t = await startTestService({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_MINUTE: '3' }, { logLines });
    const { key } = await soloTeam(t);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.get('/v1/auth/verify', key)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const answer = await t.get('/v1/auth/verify', key);
    expect(answer.headers['ratelimit-limit']).toBe('3');
    expect(logLines.some((line) => line.includes('Redis is unreachable'))).toBe(true);
  });
});

describe('client addresses behind a proxy', () => {
  it('with TRUST_PROXY, refused keys count against the X-Forwarded-For address, not the proxy', async () => {
    t = await startTestService({ TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '2' });
    const from = (client: string) =>
      t!.service.app.inject({ method: 'GET', url: '/v1/auth/verify', remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': client } });
    expect((await from('203.0.113.7')).statusCode).toBe(401);
    expect((await from('203.0.113.7')).statusCode).toBe(401);
    expect((await from('203.0.113.7')).statusCode).toBe(429);
    expect((await from('198.51.100.9')).statusCode).toBe(401);
  });
});

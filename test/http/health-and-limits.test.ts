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

  it('with TRUST_PROXY naming the balancer (docs/deploy.md), a client that reaches a process around it cannot choose its address: a new X-Forwarded-For each time still counts against its own', async () => {
    t = await startTestService({ TRUST_PROXY: '10.0.0.5', RATE_LIMIT_PER_MINUTE: '2' });
    const direct = (n: number) =>
      t!.service.app.inject({ method: 'GET', url: '/v1/auth/verify', remoteAddress: '192.0.2.44', headers: { 'x-forwarded-for': `203.0.113.${n}` } });
    expect((await direct(1)).statusCode).toBe(401);
    expect((await direct(2)).statusCode).toBe(401);
    expect((await direct(3)).statusCode).toBe(429);
    // Through the balancer, each client's address counts on its own.
    const viaBalancer = (client: string) =>
      t!.service.app.inject({ method: 'GET', url: '/v1/auth/verify', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': client } });
    expect((await viaBalancer('203.0.113.1')).statusCode).toBe(401);
    expect((await viaBalancer('198.51.100.9')).statusCode).toBe(401);
  });

  it('with a hop count instead, that client escapes the limit by rotating X-Forwarded-For: why docs/deploy.md names the addresses', async () => {
    t = await startTestService({ TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '2' });
    const statuses: number[] = [];
    for (let n = 1; n <= 5; n++) {
      const answer = await t.service.app.inject({ method: 'GET', url: '/v1/auth/verify', remoteAddress: '192.0.2.44', headers: { 'x-forwarded-for': `203.0.113.${n}` } });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
  });
});

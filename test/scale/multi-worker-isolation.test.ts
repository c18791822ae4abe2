// Bad receivers beside good ones, with two workers on one PostgreSQL (decisions §8, §9): twenty new
// endpoints that never answer and ten that answer 500, each with a backlog, arrive beside a healthy team
// whose endpoints have answered before, and outnumber both workers' lanes (WEBHOOK_CONCURRENCY=4 each).
// The healthy team's events still all arrive, once each and in event order per endpoint, before any of
// the hanging requests has reached its 30-second time-out.
import { beforeAll, describe, expect, it } from 'vitest';
import { clusterServers, useCluster } from '../support/cluster.js';
import { adminFetch, PROCESS_WAIT } from '../support/processes.js';
import { eventually } from '../support/waiting.js';

describe.runIf(clusterServers)('bad receivers beside good ones, two workers (decisions §9)', () => {
  const cluster = useCluster({ WEBHOOK_COALESCE_MS: '0', WEBHOOK_TIMEOUT_MS: '30000', WEBHOOK_RETRY_DELAYS: '10s', WEBHOOK_CONCURRENCY: '4' });
  let api = '';
  const admin = (method: string, path: string, body?: unknown) => adminFetch(api, method, path, body);

  beforeAll(async () => {
    api = (await cluster.start('api')).url;
    await Promise.all([cluster.start('worker'), cluster.start('worker')]);
  }, 120_000);

  async function teamWithEndpoints(name: string, paths: string[]) {
    const team = await admin('POST', '/teams', { name, plan: 'growth' });
    const endpoints = [];
    for (const path of paths) {
      endpoints.push(await admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${cluster.receiver.url}/${path}`, events: ['guide.created'] }));
    }
    return { team, endpoints };
  }

  it("a healthy team's events all arrive, once each and in order, while every hanging request is still waiting", async () => {
    cluster.receiver.answer = (request) => (request.path.includes('/hang-') ? 'hang' : request.path.includes('/fail-') ? { status: 500 } : { status: 200 });
    // The healthy team's endpoints have answered before the bad ones arrive: new endpoints are probed at
    // the failing lane's pace until they first answer 2xx (docs/decisions.md), which is 1 a second per
    // worker at this concurrency.
    const good = await teamWithEndpoints('Healthy', ['ok-1', 'ok-2']);
    const pinged = (path: string) => cluster.receiver.received.some((request) => request.path === `/hook/${path}` && request.headers['x-service-event'] === 'ping');
    await eventually('both healthy endpoints pinged', () => pinged('ok-1') && pinged('ok-2'), PROCESS_WAIT);
    const bad = [
      await teamWithEndpoints('Hanging A', Array.from({ length: 10 }, (_, i) => `hang-a${i}`)),
      await teamWithEndpoints('Hanging B', Array.from({ length: 10 }, (_, i) => `hang-b${i}`)),
      await teamWithEndpoints('Failing', Array.from({ length: 10 }, (_, i) => `fail-${i}`)),
    ];
    for (const { team } of bad) for (let i = 0; i < 3; i++) await admin('POST', '/guides', { team_id: team.id, title: `Backlog ${i}` });

    const titles = Array.from({ length: 10 }, (_, i) => `Healthy ${i}`);
    for (const title of titles) await admin('POST', '/guides', { team_id: good.team.id, title });

    const createdAt = (path: string) =>
      cluster.receiver.received.filter((request) => request.path === `/hook/${path}` && request.headers['x-service-event'] === 'guide.created');
    await eventually('every healthy event at both healthy endpoints', () => ['ok-1', 'ok-2'].every((path) => createdAt(path).length >= titles.length), PROCESS_WAIT);
    for (const path of ['ok-1', 'ok-2']) {
      expect(createdAt(path).map((request) => JSON.parse(request.body).data.guide.title)).toEqual(titles);
    }

    // The hanging endpoints, new, are probed at the pace, and every one probed so far is still waiting on
    // its ping: nothing has timed out, so nothing healthy waited for a time-out.
    const hanging = cluster.receiver.received.filter((request) => request.path.includes('/hang-'));
    expect(hanging.every((request) => request.headers['x-service-event'] === 'ping')).toBe(true);
    for (const endpoint of bad[0]!.endpoints) {
      const attempts = await admin('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=100`);
      expect(attempts.filter((attempt: { status: string }) => attempt.status === 'failed')).toEqual([]);
    }
  }, 90_000);
});

// Several processes on one PostgreSQL and one Redis (decisions §8): two API processes and two workers,
// a real receiver. 600 requests spread over both API processes spend one key's limit together; a burst of
// events is delivered once per endpoint with no attempt sent twice; a worker killed with SIGKILL in the
// middle of deliveries loses nothing; SIGTERM finishes what is in flight and gives the rest back.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { clusterServers, useCluster } from '../support/cluster.js';
import { adminFetch, PROCESS_WAIT, type Role, type ServiceNode } from '../support/processes.js';
import { ADMIN_TOKEN } from '../support/service.js';
import { eventually, sleep } from '../support/waiting.js';

describe.runIf(clusterServers)('two API processes and two workers on one PostgreSQL and one Redis (decisions §8)', () => {
  const cluster = useCluster({ WEBHOOK_COALESCE_MS: '0', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_DELAYS: '200ms,200ms,200ms,200ms,200ms' });
  const startNode = (role: Role) => cluster.start(role, { publicUrl: true });
  const admin = (node: ServiceNode, method: string, path: string, body?: unknown) => adminFetch(node.url, method, path, body);

  async function attemptRows(): Promise<{ event_id: string; endpoint_id: string; status: string; id: string }[]> {
    const client = new pg.Client({ connectionString: cluster.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query('select event_id, endpoint_id, status, id from webhook_attempts')).rows;
    } finally {
      await client.end();
    }
  }

  let api1: ServiceNode;
  let api2: ServiceNode;
  let worker1: ServiceNode;
  let worker2: ServiceNode;
  let team: { id: string };
  let organization: { id: string };

  beforeAll(async () => {
    // Processes starting together on an empty database migrate it once (under a lock), and all become ready.
    [api1, api2, worker1, worker2] = await Promise.all([startNode('api'), startNode('api'), startNode('worker'), startNode('worker')]);
    organization = await admin(api1, 'POST', '/organizations', { name: 'Scale', plan: 'growth' });
    team = await admin(api2, 'POST', '/teams', { name: 'Scale team', organization_id: organization.id });
  }, 120_000);

  it('600 requests spread over both API processes spend one key limit together: the next is 429', async () => {
    const answer = await fetch(`${api1.url}/admin/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ home: { type: 'team', id: team.id }, name: 'shared limit', scopes: ['guides:read'], expires_in_days: null }),
    });
    const secret = ((await answer.json()) as { secret: string }).secret;
    const statuses: number[] = [];
    for (let i = 0; i < 600; i += 20) {
      const batch = Array.from({ length: 20 }, (_, j) =>
        fetch(`${(i + j) % 2 ? api2.url : api1.url}/v1/auth/verify`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(600);
    for (const node of [api1, api2]) {
      const refused = await fetch(`${node.url}/v1/auth/verify`, { headers: { authorization: `Bearer ${secret}` } });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    }
  }, 60_000);

  it('a burst of events written through both API processes is delivered once per endpoint, no attempt sent twice', async () => {
    cluster.receiver.received.length = 0;
    cluster.receiver.answer = { status: 200 };
    const teamEndpoint = await admin(api1, 'POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${cluster.receiver.url}/team`, events: ['guide.created'] });
    const orgEndpoint = await admin(api2, 'POST', '/webhook-endpoints', {
      home: { type: 'organization', id: organization.id },
      url: `${cluster.receiver.url}/org`,
      events: ['guide.created'],
    });
    const guides = await Promise.all(
      Array.from({ length: 100 }, (_, i) => admin(i % 2 ? api2 : api1, 'POST', '/guides', { team_id: team.id, title: `Burst ${i}` })),
    );
    const expected = guides.length * 2 + 2; // each guide to both endpoints, and each endpoint's ping
    await cluster.receiver.waitFor(expected, 60_000);
    await sleep(500); // anything sent twice would arrive by now
    const created = cluster.receiver.received.filter((request) => request.headers['x-service-event'] === 'guide.created');
    expect(created).toHaveLength(guides.length * 2);
    const perEndpoint = new Set(created.map((request) => `${request.path} ${JSON.parse(request.body).id}`));
    expect(perEndpoint.size).toBe(guides.length * 2);
    const deliveryIds = cluster.receiver.received.map((request) => request.headers['x-service-delivery']);
    expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
    const rows = (await attemptRows()).filter((row) => row.endpoint_id === teamEndpoint.id || row.endpoint_id === orgEndpoint.id);
    expect(rows.every((row) => row.status === 'delivered')).toBe(true);
    expect(rows).toHaveLength(expected);
  }, 90_000);

  it('a worker killed with SIGKILL in the middle of deliveries loses nothing: another sends what it held', async () => {
    cluster.receiver.received.length = 0;
    // Slow answers, so that deliveries are in flight when the worker dies.
    let slow = true;
    cluster.receiver.answer = () => (slow ? 'hang' : { status: 200 });
    const endpoints = await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) =>
        admin(api1, 'POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${cluster.receiver.url}/kill-${name}`, events: ['guide.deleted'] }),
      ),
    );
    await cluster.receiver.waitFor(4, 20_000); // the pings, hanging
    const guides = await Promise.all(Array.from({ length: 10 }, (_, i) => admin(api2, 'POST', '/guides', { team_id: team.id, title: `Doomed ${i}` })));
    for (const guide of guides) await admin(api1, 'DELETE', `/guides/${guide.id}`);
    await eventually('deliveries in flight', async () => cluster.receiver.received.length >= 5, PROCESS_WAIT);
    worker1.child.kill('SIGKILL');
    await worker1.exited;
    slow = false;
    const worker3 = await startNode('worker');
    expect(worker3.role).toBe('worker');
    const endpointIds = new Set(endpoints.map((endpoint: { id: string }) => endpoint.id));
    await eventually(
      'every deleted event delivered to every endpoint',
      async () => {
        const rows = (await attemptRows()).filter((row) => endpointIds.has(row.endpoint_id));
        const delivered = new Set(rows.filter((row) => row.status === 'delivered').map((row) => `${row.endpoint_id} ${row.event_id}`));
        return delivered.size === endpoints.length * (guides.length + 1);
      },
      { ...PROCESS_WAIT, timeoutMs: 60_000 },
    );
    const deleted = cluster.receiver.received.filter((request) => request.headers['x-service-event'] === 'guide.deleted');
    const reached = new Set(deleted.map((request) => `${request.path} ${JSON.parse(request.body).data.guide.id}`));
    expect(reached.size).toBe(endpoints.length * guides.length);
  }, 120_000);

  it('SIGTERM lets a worker finish the delivery in flight and give back what it had claimed, then exit 0', async () => {
    cluster.receiver.received.length = 0;
    cluster.receiver.answer = { status: 200 };
    const endpoint = await admin(api1, 'POST', '/webhook-endpoints', {
      home: { type: 'team', id: team.id },
      url: `${cluster.receiver.url}/term`,
      events: ['guide.created'],
    });
    await cluster.receiver.waitFor(1, 20_000);
    // One worker stops cleanly; the one left holds the next batch.
    worker2.child.kill('SIGTERM');
    expect(await worker2.exited).toBe(0);
    const last = cluster.nodes[cluster.nodes.length - 1]!;
    cluster.receiver.received.length = 0;
    cluster.receiver.answer = 'hang';
    await Promise.all(Array.from({ length: 5 }, (_, i) => admin(api1, 'POST', '/guides', { team_id: team.id, title: `Term ${i}` })));
    await eventually('a delivery in flight', async () => cluster.receiver.received.length >= 1, { ...PROCESS_WAIT, timeoutMs: 20_000 });
    last.child.kill('SIGTERM');
    expect(await last.exited).toBe(0);
    const rows = (await attemptRows()).filter((row) => row.endpoint_id === endpoint.id);
    expect(rows.filter((row) => row.status === 'sending')).toEqual([]);
    cluster.receiver.answer = { status: 200 };
    await startNode('worker');
    await eventually('every event delivered after the restart', async () => {
      const after = (await attemptRows()).filter((row) => row.endpoint_id === endpoint.id);
      return new Set(after.filter((row) => row.status === 'delivered').map((row) => row.event_id)).size === 6;
    }, PROCESS_WAIT);
  }, 120_000);
});

describe('test servers', () => {
  it('are there when CI requires them (REQUIRE_TEST_SERVERS)', () => {
    if (process.env.REQUIRE_TEST_SERVERS) expect(clusterServers).toBe(true);
    else expect(typeof clusterServers).toBe('boolean');
  });
});

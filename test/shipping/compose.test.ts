// Issue 45, decisions §11 "Shipping": compose.yaml's stack (PostgreSQL, Redis, two API processes and a
// worker of the service's image, HAProxy with deploy/haproxy.cfg) brought up by podman-compose, with the
// secrets in the environment as .env would give them. A write through HAProxy reads back from each API
// process; a webhook that only the worker container can have sent reaches a receiver in the stack; with the
// PostgreSQL container stopped, clients get problem+json 503 with Retry-After through HAProxy, and service
// again once it is back. Debian's podman-compose (1.0.x) starts services in depends_on's order but does not
// wait for their health checks; the service's processes retry in the meantime (restart: unless-stopped,
// which they need anyway), so the test only waits for the stack to answer, as a user would.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../support/processes.js';
import { eventually } from '../support/waiting.js';
import { buildServiceImage, containerLogs, containerTestsRun, ensureStandIns, podman, requireTool } from './podman.js';

const PROJECT = `guide-service-compose-test-${randomBytes(4).toString('hex')}`;
const ADMIN_TOKEN = `adm_${randomBytes(18).toString('hex')}`;
const FILES = ['-f', 'compose.yaml', '-f', 'test/shipping/compose.receiver.yaml'];
let balancer = '';
let receiver = '';
/** What .env holds for a user (.env.example), given in the environment, which compose reads the same way. */
const stackEnv: Record<string, string> = { POSTGRES_PASSWORD: randomBytes(18).toString('hex'), ADMIN_TOKEN };

function compose(args: string[], timeoutMs = 300_000): Promise<string> {
  return podman(['-p', PROJECT, ...FILES, ...args], { program: 'podman-compose', timeoutMs, env: stackEnv });
}

/** podman-compose 1.0's name for a service's container. */
const container = (service: string) => `${PROJECT}_${service}_1`;

interface Answer {
  status: number;
  headers: Headers;
  json: any;
}

async function call(method: string, path: string, body?: unknown, base = balancer): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

/** A GET made from inside a service's container, to that process alone (their ports are not published). */
async function callInside(service: string, path: string): Promise<{ status: number; json: any }> {
  const script = `fetch('http://127.0.0.1:3000${path}', { headers: { authorization: 'Bearer ' + process.env.ADMIN_TOKEN } })
    .then(async (r) => console.log(JSON.stringify({ status: r.status, json: await r.json() })))`;
  return JSON.parse(await podman(['exec', container(service), 'node', '-e', script]));
}

describe.runIf(containerTestsRun)('the compose stack (compose.yaml)', () => {
  beforeAll(async () => {
    requireTool('podman-compose', 'podman-compose');
    await ensureStandIns();
    await buildServiceImage('localhost/guide-service:latest');
    const [guidePort, receiverPort] = await freePorts(2);
    balancer = `http://127.0.0.1:${guidePort}`;
    receiver = `http://127.0.0.1:${receiverPort}`;
    Object.assign(stackEnv, { GUIDE_PORT: String(guidePort), PUBLIC_URL: `http://localhost:${guidePort}`, RECEIVER_PORT: String(receiverPort) });
    const started = Date.now();
    await compose(['up', '-d']);
    await eventually('both API processes ready', async () => (await callInside('api-1', '/readyz')).status === 200 && (await callInside('api-2', '/readyz')).status === 200, {
      timeoutMs: 180_000,
      intervalMs: 1_000,
      retryOnError: true,
    });
    await eventually('HAProxy answering', async () => (await fetch(`${balancer}/readyz`)).ok, { timeoutMs: 60_000, intervalMs: 250, retryOnError: true });
    console.log(`compose stack answering through HAProxy ${((Date.now() - started) / 1000).toFixed(1)} s after podman-compose up`);
  }, 45 * 60_000);

  afterAll(async () => {
    if (!balancer) return;
    for (const service of ['haproxy', 'api-1', 'api-2', 'worker', 'receiver', 'redis', 'postgres']) {
      // -v: the anonymous /data volumes the image declares go with their containers.
      await podman(['rm', '--force', '--volumes', '--time', '2', container(service)]).catch(() => undefined);
    }
    await compose(['down', '--volumes']).catch(() => undefined);
    // podman-compose 1.0 leaves the stack's network behind.
    await podman(['network', 'rm', '--force', `${PROJECT}_default`]).catch(() => undefined);
  }, 300_000);

  it('a write through HAProxy is read back from each API process', async () => {
    const written = await call('POST', '/admin/v1/organizations', { name: 'Written through HAProxy', plan: 'growth' });
    expect(written.status).toBe(201);
    for (const service of ['api-1', 'api-2']) {
      const read = await callInside(service, `/admin/v1/organizations/${written.json.data.id}`);
      expect(read.status, service).toBe(200);
      expect(read.json.data.name, service).toBe('Written through HAProxy');
    }
  }, 60_000);

  it('the worker container delivers a webhook to a receiver', async () => {
    const team = await call('POST', '/admin/v1/teams', { name: 'Hooked', plan: 'free' });
    expect(team.status).toBe(201);
    const endpoint = await call('POST', '/admin/v1/webhook-endpoints', {
      home: { type: 'team', id: team.json.data.id },
      url: 'http://receiver:4000/hooks',
      events: ['guide.created'],
    });
    expect(endpoint.status, JSON.stringify(endpoint.json)).toBe(201);
    const guide = await call('POST', '/admin/v1/guides', { team_id: team.json.data.id, title: 'Delivered by the worker' });
    expect(guide.status).toBe(201);
    const delivery = await eventually(
      'the guide.created delivery at the receiver',
      async () => {
        const received = (await (await fetch(`${receiver}/received`)).json()) as { body: string }[];
        return received.map((item) => JSON.parse(item.body)).find((event) => event.type === 'guide.created' && event.data.guide.id === guide.json.data.id);
      },
      { timeoutMs: 60_000, intervalMs: 500, retryOnError: true },
    );
    expect(delivery.data.guide.title).toBe('Delivered by the worker');
    expect(await containerLogs(container('worker'))).toContain('role: worker');
  }, 120_000);

  it('with the PostgreSQL container stopped, clients get problem+json 503 with Retry-After through HAProxy', async () => {
    /** Writes a team through HAProxy until the answer has `status`. */
    const teamAnswered = (status: number, name: string, timeoutMs: number) =>
      eventually(
        `a ${status} through HAProxy`,
        async () => {
          const answer = await call('POST', '/admin/v1/teams', { name, plan: 'free' });
          return answer.status === status ? answer : null;
        },
        { timeoutMs, intervalMs: 250, retryOnError: true },
      );
    await podman(['stop', '--time', '10', container('postgres')]);
    try {
      const refused = await teamAnswered(503, 'While the database is down', 60_000);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(refused.json).toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(refused.json.request_id).toBe(refused.headers.get('x-request-id'));
    } finally {
      await podman(['start', container('postgres')]);
    }
    const back = await teamAnswered(201, 'After the database came back', 120_000);
    expect(back.json.data.name).toBe('After the database came back');
  }, 240_000);
});

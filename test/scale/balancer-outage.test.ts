// Issue 41, item 2 (decisions §10, §11 "Behind a load balancer"): two API processes on PostgreSQL behind
// HAProxy configured as docs/deploy.md says (the block is read from the document). The database is taken
// away (closed to connections, its sessions ended) while clients write and read through the balancer:
// the processes answer 503 until /readyz takes them out of rotation, then HAProxy answers for them. Every
// answer a client gets meanwhile is the service's problem+json 503 with Retry-After and X-Request-Id,
// never HAProxy's HTML page; once the database is back, the processes return and writes are taken again.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Build, buildService } from '../support/build.js';
import { clusterServers } from '../support/cluster.js';
import { documentedHaproxyConfig, type Haproxy, haproxyBinary, startHaproxy, withLoopbackAddresses } from '../support/haproxy.js';
import { freePorts, killAll, PROCESS_WAIT, type ServiceNode, startServiceNode } from '../support/processes.js';
import { ADMIN_TOKEN } from '../support/service.js';
import { takeDatabaseAway } from '../support/store-outage.js';
import { type TestDatabase, testDatabase } from '../support/test-database.js';
import { eventually, sleep } from '../support/waiting.js';

const required = Boolean(process.env.REQUIRE_TEST_SERVERS);
const BACKEND = 'guide_api';

/** One answer a client got, with what it said of itself. */
interface Answer {
  loop: string;
  at: number;
  status: number | null;
  contentType?: string | null;
  retryAfter?: string | null;
  requestId?: string | null;
  body?: any;
  error?: string;
}

describe.runIf(clusterServers && (haproxyBinary !== null || required))('the database taken away behind HAProxy configured as docs/deploy.md says', () => {
  let build: Build;
  let database: TestDatabase;
  let haproxy: Haproxy;
  const nodes: ServiceNode[] = [];
  let env: Record<string, string>;
  let apiPorts: number[];

  beforeAll(async () => {
    if (!haproxyBinary) throw new Error('REQUIRE_TEST_SERVERS is set but haproxy is not installed (Debian: apt-get install haproxy)');
    [build, database] = await Promise.all([buildService(), testDatabase()]);
    const [api1Port, api2Port, listenPort] = await freePorts(3);
    apiPorts = [api1Port!, api2Port!];
    env = {
      ...database.env,
      ADMIN_TOKEN,
      DEMO: 'false',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${listenPort}`,
      RATE_LIMIT_PER_MINUTE: '1000000',
    };
    await startServiceNode(build.main, 'api', env, nodes, { port: api1Port });
    await startServiceNode(build.main, 'api', env, nodes, { port: api2Port });
    haproxy = await startHaproxy(withLoopbackAddresses(documentedHaproxyConfig(), listenPort!, [api1Port!, api2Port!]), listenPort!);
  }, 180_000);

  afterAll(async () => {
    await killAll(nodes);
    await haproxy?.stop();
    await database?.drop();
    await build?.remove();
  });

  const states = async () => [...(await haproxy.serverStates(BACKEND)).values()];

  it('throughout the outage every refusal is the service\'s problem+json 503 with Retry-After and X-Request-Id, from the processes and then from HAProxy; afterwards writes are taken again', async () => {
    await eventually('both API processes UP', async () => (await states()).every((state) => state === 'UP'), PROCESS_WAIT);
    const admin = async (path: string, body: unknown) => {
      const answer = await fetch(`${haproxy.url}/admin/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as { data: any; secret?: string };
    };
    const organization = (await admin('/organizations', { name: 'Outage', plan: 'growth' })).data;
    const team = (await admin('/teams', { name: 'Outage team', organization_id: organization.id })).data;
    const key = (await admin('/api-keys', { home: { type: 'team', id: team.id }, name: 'outage', scopes: ['guides:read'], expires_in_days: null })).secret!;

    const started = performance.now();
    const answers: Answer[] = [];
    const acknowledged = new Map<string, string>();
    let stopping = false;
    const loop = async (name: string, request: (count: number) => Promise<Response>, onCreated?: (body: any, count: number) => void) => {
      for (let count = 0; !stopping; count++) {
        const answer: Answer = { loop: name, at: performance.now() - started, status: null };
        answers.push(answer);
        try {
          const response = await request(count);
          const text = await response.text();
          Object.assign(answer, {
            status: response.status,
            contentType: response.headers.get('content-type'),
            retryAfter: response.headers.get('retry-after'),
            requestId: response.headers.get('x-request-id'),
            body: text.startsWith('{') ? JSON.parse(text) : text.slice(0, 200),
          });
          if (response.status === 201) onCreated?.(answer.body, count);
        } catch (error) {
          answer.error = String((error as Error).cause ?? error);
        }
        await sleep(25);
      }
    };
    const writer = loop(
      'writer',
      (count) =>
        fetch(`${haproxy.url}/admin/v1/guides`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ team_id: team.id, title: `Outage ${count}` }),
        }),
      (body, count) => acknowledged.set(body.data.id, `Outage ${count}`),
    );
    const reader = loop('reader', (count) => fetch(`${haproxy.url}/v1/guides?limit=5&q=outage-${count}`, { headers: { authorization: `Bearer ${key}` } }));
    await sleep(500);

    const away = performance.now() - started;
    const bringBack = await takeDatabaseAway(new URL(database.env.DATABASE_URL!).pathname.slice(1));
    let allDownAt = 0;
    let back = 0;
    try {
      await eventually('both API processes DOWN in HAProxy', async () => (await states()).every((state) => state.startsWith('DOWN')), PROCESS_WAIT);
      allDownAt = performance.now() - started;
      await sleep(2000);
    } finally {
      await bringBack();
      back = performance.now() - started;
    }
    await eventually('both API processes UP again', async () => (await states()).every((state) => state === 'UP'), PROCESS_WAIT);
    const upAgain = performance.now() - started;
    const writesBefore = acknowledged.size;
    await eventually('writes taken again', () => acknowledged.size >= writesBefore + 5, PROCESS_WAIT);
    stopping = true;
    await Promise.all([writer, reader]);

    const refused = answers.filter((answer) => answer.status === null || answer.status >= 300);
    const fromHaproxy = refused.filter((answer) => answer.body?.detail?.startsWith('No process of the service'));
    console.log(
      `[outage behind HAProxy] ${answers.length} answers; database away at +${Math.round(away)} ms, both processes DOWN at +${Math.round(allDownAt)} ms, ` +
        `back at +${Math.round(back)} ms, both UP at +${Math.round(upAgain)} ms; ${refused.length} refused (${fromHaproxy.length} by HAProxy), ${acknowledged.size} writes acknowledged`,
    );
    const notAProblem = refused.filter(
      (answer) =>
        answer.status !== 503 ||
        answer.contentType?.split(';')[0] !== 'application/problem+json' ||
        !(Number(answer.retryAfter) >= 1) ||
        !/^[A-Za-z0-9._:-]{1,128}$/.test(answer.requestId ?? '') ||
        answer.body?.request_id !== answer.requestId ||
        answer.body?.code !== 'service_unavailable' ||
        answer.body?.type !== `${haproxy.url}/docs#error-service_unavailable`,
    );
    expect(notAProblem.slice(0, 10), 'every refusal a problem+json 503 with Retry-After and X-Request-Id').toEqual([]);
    expect(fromHaproxy.length, 'some answers came from HAProxy while no process was in rotation').toBeGreaterThan(0);
    expect(refused.length - fromHaproxy.length, 'some from the processes before /readyz took them out').toBeGreaterThan(0);
    expect(
      answers.filter((answer) => answer.at > upAgain && answer.status !== null && answer.status >= 300 && answer.loop === 'writer').length,
      'no write refused once both processes are back in rotation',
    ).toBe(0);

    // Every acknowledged write, read back.
    const missing: string[] = [];
    for (const [id, title] of acknowledged) {
      const answer = await fetch(`${haproxy.url}/admin/v1/guides/${id}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const read = answer.ok ? ((await answer.json()) as { data: { title: string } }).data.title : `${answer.status}`;
      if (read !== title) missing.push(`${id}: ${read} where ${title} was acknowledged`);
    }
    expect(missing).toEqual([]);
  }, 180_000);

  it('an API process killed (SIGKILL) under keyed writes: HAProxy and the clients send them again, and no write is made twice (issue 42)', async () => {
    await eventually('both API processes UP', async () => (await states()).every((state) => state === 'UP'), PROCESS_WAIT);
    const admin = (body: unknown, path: string) =>
      fetch(`${haproxy.url}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const organization = ((await (await admin({ name: 'Killed', plan: 'growth' }, '/organizations')).json()) as { data: { id: string } }).data;
    const team = ((await (await admin({ name: 'Killed team', organization_id: organization.id }, '/teams')).json()) as { data: { id: string } }).data;

    // Clients as an SDK is: each write with a key of its own, sent again with it until it is answered.
    const acknowledged = new Map<string, string>();
    let attempts = 0;
    let stopping = false;
    const writer = async (name: string) => {
      for (let count = 0; !stopping; count++) {
        const title = `${name} ${count}`;
        const key = randomUUID();
        for (let tries = 0; tries < 20; tries++) {
          attempts += 1;
          const answer = await fetch(`${haproxy.url}/admin/v1/guides`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify({ team_id: team.id, title }),
          }).catch(() => null);
          if (answer?.status === 201) {
            acknowledged.set(title, ((await answer.json()) as { data: { id: string } }).data.id);
            break;
          }
          await answer?.body?.cancel();
          await sleep(100);
        }
      }
    };
    const writers = ['a', 'b', 'c'].map(writer);
    await sleep(1000);
    const killed = nodes[0]!;
    killed.child.kill('SIGKILL');
    await killed.exited;
    await sleep(2000);
    await startServiceNode(build.main, 'api', env, nodes, { port: apiPorts[0] });
    await eventually('both API processes UP again', async () => (await states()).every((state) => state === 'UP'), PROCESS_WAIT);
    await sleep(500);
    stopping = true;
    await Promise.all(writers);

    const { rows } = await (async () => {
      const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await client.connect();
      try {
        return await client.query<{ title: string; id: string }>('select title, id from guides where team_id = $1', [team.id]);
      } finally {
        await client.end();
      }
    })();
    const byTitle = new Map<string, string[]>();
    for (const row of rows) byTitle.set(row.title, [...(byTitle.get(row.title) ?? []), row.id]);
    const twice = [...byTitle].filter(([, ids]) => ids.length > 1);
    const lost = [...acknowledged].filter(([title, id]) => byTitle.get(title)?.[0] !== id);
    const retriedByHaproxy = haproxy.output().split('\n').filter((line) => /POST \/admin\/v1\/guides/.test(line) && /\d+\/\d+\/\d+\/\d+\/\+?[1-9]\d* \d+\/\d+ "/.test(line)).length;
    console.log(`[kill -9 behind HAProxy] ${acknowledged.size} writes acknowledged over ${attempts} attempts, ${rows.length} guides stored, ${twice.length} made twice, ${lost.length} lost; HAProxy sent ${retriedByHaproxy} writes again`);
    expect(acknowledged.size).toBeGreaterThan(20);
    expect(twice, 'writes made twice').toEqual([]);
    expect(lost, 'acknowledged writes not stored as acknowledged').toEqual([]);
  }, 180_000);
});

// Issue 32, "Deploys that lose nothing, proven" (docs/deploy.md, "Behind a load balancer: HAProxy" and
// "Stopping and deploying"). Two API processes behind a real HAProxy configured as the document says (the
// configuration is read from it), and a worker, on one PostgreSQL and one Redis. Clients that never retry
// read, write and follow the events feed through the balancer the whole time, and every write makes a
// webhook event that the worker delivers to a receiver. Every process is restarted in turn (SIGTERM, wait
// for its exit, the next release on the same port, wait until HAProxy has it back). Afterwards: every
// request was answered 2xx, every acknowledged write reads back, every event of those writes reached the
// receiver, none twice. Then the same with a next release that carries an expand-only migration, which
// the first new process applies while old processes still serve.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Build, buildService } from '../support/build.js';
import { clusterServers } from '../support/cluster.js';
import { documentedHaproxyConfig, type Haproxy, haproxyBinary, startHaproxy, withLoopbackAddresses } from '../support/haproxy.js';
import { buildWithMigration, type ExtraMigration } from '../support/migration-build.js';
import { freePorts, killAll, PROCESS_WAIT, type Role, type ServiceNode, startServiceNode } from '../support/processes.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { ADMIN_TOKEN } from '../support/service.js';
import { type TestDatabase, testDatabase } from '../support/test-database.js';
import { eventually, sleep } from '../support/waiting.js';

const required = Boolean(process.env.REQUIRE_TEST_SERVERS);

/** The backend of the documented configuration, whose servers the test watches through the stats socket. */
const BACKEND = 'guide_api';

/**
 * The next release's migration: expand only. A new table, and a nullable column without a default on
 * the table every write of the traffic touches, which the old processes go on reading and writing.
 */
const EXPAND_ONLY: ExtraMigration = {
  name: '9000_rolling_deploy_expand',
  exportName: 'rollingDeployExpand',
  source: `// Written by test/scale/rolling-deploy.test.ts: an expand-only migration for the next release.
export const rollingDeployExpand = {
  async up(db) {
    await db.schema
      .createTable('rolling_deploy_notes')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('guide_id', 'text')
      .addColumn('note', 'text')
      .execute();
    await db.schema.alterTable('guides').addColumn('rolling_deploy_note', 'text').execute();
  },
};
`,
};

/** Everything one client request came to. */
interface Call {
  loop: string;
  method: string;
  path: string;
  /** ms since the traffic started. */
  at: number;
  ms: number;
  status: number | null;
  error?: string;
  /** The start of the answer's body, kept for failures. */
  body?: string;
}

interface Restart {
  name: string;
  exitCode: number | null;
  /** SIGTERM to exit, ms. */
  stopMs: number;
  /** SIGTERM to HAProxy showing the server DOWN, ms (API processes). */
  outOfRotationMs: number | null;
  /** SIGTERM to the new process ready and (API processes) UP in HAProxy again, ms. */
  backMs: number;
}

interface Timeline {
  at: number;
  what: string;
}

interface Outcome {
  label: string;
  calls: Call[];
  restarts: Restart[];
  timeline: Timeline[];
  created: Map<string, string>;
  edited: Map<string, string>;
  missingWrites: string[];
  deliveries: { eventIds: number; lost: string[]; duplicated: string[]; feedEvents: number; feedNotDelivered: string[]; undelivered: number };
  haproxyRetried: number;
  haproxyLog: string[];
  processWarnings: string[];
  /** The migrations the database has at the end. */
  migrations: string[];
}

const ok = (call: Call) => call.status !== null && call.status >= 200 && call.status < 300;

/** One request over `agent` (a keep-alive connection of one client loop); never retried. */
function send(agent: http.Agent, base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: `${url.pathname}${url.search}`,
        agent,
        timeout: 60_000,
        headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, text }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 60 s')));
    request.on('error', reject);
    request.end(payload);
  });
}

async function queryRows<T>(databaseUrl: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** What `promise` settles to, or `fallback` once `ms` have passed. */
async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A deploy: the processes of `oldMain` behind HAProxy, steady traffic, each process replaced in turn by
 * one of `newMain` on the same port, then everything counted.
 */
async function rollingDeploy(label: string, oldMain: string, newMain: string): Promise<Outcome> {
  const nodes: ServiceNode[] = [];
  const labels = new Map<ServiceNode, string>();
  let database: TestDatabase | undefined;
  let receiver: Receiver | undefined;
  let haproxy: Haproxy | undefined;
  const agents: http.Agent[] = [];
  try {
    database = await testDatabase();
    receiver = await startReceiver();
    const env: Record<string, string> = {
      ...database.env,
      ADMIN_TOKEN,
      DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // Behind one balancer, named by its address, as docs/deploy.md says.
      TRUST_PROXY: '127.0.0.1',
      // One key carries all the reads; the limit is not what this test is about.
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Edits are coalesced into windows that a worker closes: the worker's restart must lose none.
      WEBHOOK_COALESCE_MS: '1000',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_RETRY_DELAYS: '250ms,500ms,1s,2s,4s',
    };
    const [api1Port, api2Port, workerPort, listenPort] = await freePorts(4);
    const slots: { name: string; role: Role; port: number; node?: ServiceNode; behindBalancer: boolean }[] = [
      { name: 'api-1', role: 'api', port: api1Port!, behindBalancer: true },
      { name: 'api-2', role: 'api', port: api2Port!, behindBalancer: true },
      { name: 'worker', role: 'worker', port: workerPort!, behindBalancer: false },
    ];
    // The first process migrates the empty database; the others then start together.
    const start = async (slot: (typeof slots)[number], main: string, release: string) => {
      const starting = startServiceNode(main, slot.role, env, nodes, { port: slot.port });
      // startServiceNode adds the node to `nodes` as soon as it is spawned.
      labels.set(nodes[nodes.length - 1]!, `${slot.name} (${release})`);
      slot.node = await starting;
    };
    await start(slots[0]!, oldMain, 'old release');
    await Promise.all(slots.slice(1).map((slot) => start(slot, oldMain, 'old release')));

    haproxy = await startHaproxy(
      withLoopbackAddresses(
        documentedHaproxyConfig(),
        listenPort!,
        slots.filter((slot) => slot.behindBalancer).map((slot) => slot.port),
      ),
      listenPort!,
    );
    const balancer = haproxy;
    const serverNames = [...(await balancer.serverStates(BACKEND)).keys()];
    expect(serverNames, 'the documented backend has one server line per API process').toHaveLength(2);
    slots[0]!.name = serverNames[0]!;
    slots[1]!.name = serverNames[1]!;
    const serverState = async (name: string) => (await balancer.serverStates(BACKEND)).get(name) ?? 'absent';
    await eventually('both API processes UP in HAProxy', async () => (await Promise.all(serverNames.map(serverState))).every((state) => state === 'UP'), PROCESS_WAIT);

    // Fixtures, through the balancer.
    const base = balancer.url;
    const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const setup = new http.Agent({ keepAlive: true, maxSockets: 4 });
    agents.push(setup);
    const admin = async (method: string, path: string, body?: unknown) => {
      const answer = await send(setup, base, method, `/admin/v1${path}`, adminHeaders, body);
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
      return (JSON.parse(answer.text) as { data: any; secret?: string });
    };
    const organization = (await admin('POST', '/organizations', { name: `Rolling ${label}`, plan: 'growth' })).data;
    const teams = [
      (await admin('POST', '/teams', { name: 'Rolling one', organization_id: organization.id })).data,
      (await admin('POST', '/teams', { name: 'Rolling two', organization_id: organization.id })).data,
    ];
    const key = (await admin('POST', '/api-keys', {
      home: { type: 'organization', id: organization.id },
      name: 'rolling deploy',
      scopes: ['guides:read', 'teams:read'],
      expires_in_days: null,
    })).secret!;
    const endpoint = (await admin('POST', '/webhook-endpoints', {
      home: { type: 'organization', id: organization.id },
      url: `${receiver.url}/rolling`,
      events: ['guide.created', 'guide.updated'],
    })).data;
    await receiver.waitFor(1, 30_000); // the endpoint's ping

    // Steady traffic: clients that never retry, each on keep-alive connections of its own.
    const started = performance.now();
    const startedWall = Date.now();
    const now = () => performance.now() - started;
    const calls: Call[] = [];
    const timeline: Timeline[] = [];
    const note = (what: string) => timeline.push({ at: now(), what });
    const created = new Map<string, string>();
    const edited = new Map<string, string>();
    const feedEventIds = new Set<string>();
    let stopping = false;

    const call = async (loop: string, agent: http.Agent, method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const at = now();
      const record: Call = { loop, method, path, at, ms: 0, status: null };
      calls.push(record);
      try {
        const answer = await send(agent, base, method, path, headers, body);
        record.status = answer.status;
        record.ms = now() - at;
        if (answer.status >= 200 && answer.status < 300) return JSON.parse(answer.text) as any;
        record.body = answer.text.slice(0, 300);
      } catch (error) {
        record.ms = now() - at;
        record.error = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`.trim() : String(error);
      }
      return null;
    };
    const loopCount = new Map<string, number>();
    const loop = async (name: string, paceMs: number, step: (agent: http.Agent) => Promise<void>) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      while (!stopping) {
        await step(agent);
        loopCount.set(name, (loopCount.get(name) ?? 0) + 1);
        if (paceMs > 0) await sleep(paceMs);
      }
    };
    const keyHeaders = { authorization: `Bearer ${key}` };
    const readers = [1, 2].map((n) =>
      loop(`reader-${n}`, 10, async (agent) => {
        await call(`reader-${n}`, agent, 'GET', '/v1/guides?limit=20', keyHeaders);
        await call(`reader-${n}`, agent, 'GET', '/v1/teams', keyHeaders);
      }),
    );
    const writers = [1, 2].map((n) => {
      let count = 0;
      return loop(`writer-${n}`, 20, async (agent) => {
        const title = `Rolling ${n}-${++count}`;
        // Each write carries an Idempotency-Key, so the documented configuration may send it again to
        // another process when the one it reached closed the connection (docs/deploy.md).
        const keyed = () => ({ ...adminHeaders, 'idempotency-key': randomUUID() });
        const answer = await call(`writer-${n}`, agent, 'POST', '/admin/v1/guides', keyed(), { team_id: teams[count % 2].id, title });
        if (!answer) return;
        created.set(answer.data.id, title);
        if (count % 2 === 0) {
          const edit = await call(`writer-${n}`, agent, 'PATCH', `/admin/v1/guides/${answer.data.id}`, keyed(), { title: `${title} edited` });
          if (edit) edited.set(answer.data.id, `${title} edited`);
        }
      });
    });
    let feedCursor: string | null = null;
    const feed = loop('feed', 0, async (agent) => {
      const page = await call('feed', agent, 'GET', `/v1/events?limit=100&wait=2${feedCursor ? `&after=${feedCursor}` : ''}`, keyHeaders);
      if (!page) return;
      for (const event of page.data as { id: string }[]) feedEventIds.add(event.id);
      feedCursor = page.next_cursor;
    });
    const loops = [...readers, ...writers, feed];
    const loopNames = ['reader-1', 'reader-2', 'writer-1', 'writer-2', 'feed'];
    const everyLoopMade = async (count: number) => loopNames.every((name) => (loopCount.get(name) ?? 0) >= count);

    await eventually('every client loop under way', () => everyLoopMade(5), PROCESS_WAIT);
    note('traffic under way');

    // The deploy: one process at a time.
    const restarts: Restart[] = [];
    for (const slot of slots) {
      const old = slot.node!;
      const signalled = now();
      note(`SIGTERM ${slot.name}`);
      old.child.kill('SIGTERM');
      const outOfRotation = slot.behindBalancer
        ? eventually(`${slot.name} DOWN in HAProxy`, async () => (await serverState(slot.name)).startsWith('DOWN') && now(), PROCESS_WAIT)
        : Promise.resolve(null);
      outOfRotation.catch(() => undefined); // awaited below, unless the exit never comes
      const exitCode = await within(old.exited, 30_000, 'still running' as const);
      if (exitCode === 'still running') throw new Error(`${slot.name} was still running 30 s after SIGTERM:\n${old.output().slice(-3000)}`);
      const exitedAt = now();
      note(`${slot.name} exited ${exitCode}`);
      const downAt = await outOfRotation;
      if (downAt !== null) note(`${slot.name} DOWN in HAProxy`);
      await start(slot, newMain, 'next release');
      note(`${slot.name} (next release) ready`);
      if (slot.behindBalancer) {
        await eventually(`${slot.name} UP in HAProxy again`, async () => (await serverState(slot.name)) === 'UP', PROCESS_WAIT);
        note(`${slot.name} UP in HAProxy`);
      }
      restarts.push({
        name: slot.name,
        exitCode,
        stopMs: exitedAt - signalled,
        outOfRotationMs: downAt === null ? null : downAt - signalled,
        backMs: now() - signalled,
      });
    }

    // A little more traffic on the new processes, then stop the clients and let the worker drain.
    const madeAfter = new Map(loopNames.map((name) => [name, loopCount.get(name) ?? 0]));
    await eventually('traffic on the new processes', async () => loopNames.every((name) => (loopCount.get(name) ?? 0) >= madeAfter.get(name)! + 5), PROCESS_WAIT);
    stopping = true;
    await Promise.all(loops);
    note('traffic stopped');

    // Every acknowledged write, read back.
    const missingWrites: string[] = [];
    const ids = [...created.keys()];
    for (let i = 0; i < ids.length; i += 16) {
      await Promise.all(
        ids.slice(i, i + 16).map(async (id) => {
          const answer = await send(setup, base, 'GET', `/admin/v1/guides/${id}`, adminHeaders);
          const expected = edited.get(id) ?? created.get(id);
          const title = answer.status === 200 ? (JSON.parse(answer.text) as { data: { title: string } }).data.title : null;
          if (title !== expected) missingWrites.push(`${id}: ${answer.status}, title ${JSON.stringify(title)} where ${JSON.stringify(expected)} was acknowledged`);
        }),
      );
    }

    // Deliveries: wait until the outbox is empty (nothing left that could still arrive), then count.
    const databaseUrl = env.DATABASE_URL!;
    const received = () => receiver!.received.filter((request) => request.path === '/hook/rolling');
    const deliveredState = () => {
      const createdSeen = new Set<string>();
      const editedSeen = new Map<string, Set<string>>();
      for (const request of received()) {
        const body = JSON.parse(request.body) as { data: { guide?: { id: string; title: string } } };
        const guide = body.data.guide;
        if (!guide) continue;
        if (request.headers['x-service-event'] === 'guide.created') createdSeen.add(guide.id);
        if (request.headers['x-service-event'] === 'guide.updated') editedSeen.set(guide.id, (editedSeen.get(guide.id) ?? new Set()).add(guide.title));
      }
      const lost = [
        ...[...created.keys()].filter((id) => !createdSeen.has(id)).map((id) => `guide.created of ${id}`),
        ...[...edited].filter(([id, title]) => !editedSeen.get(id)?.has(title)).map(([id, title]) => `guide.updated of ${id} (${title})`),
      ];
      return lost;
    };
    let undelivered = 0;
    await eventually(
      'every delivery made and the outbox empty',
      async () => {
        const [pending] = await queryRows<{ count: string }>(
          databaseUrl,
          `select (select count(*) from webhook_attempts where endpoint_id = $1 and status <> 'delivered') + (select count(*) from guide_update_windows) as count`,
          [endpoint.id],
        );
        undelivered = Number(pending!.count);
        return undelivered === 0 && deliveredState().length === 0;
      },
      { ...PROCESS_WAIT, timeoutMs: 60_000 },
    ).catch(() => undefined);
    // The rest of the feed (the last windows have closed by now), without waiting.
    for (;;) {
      const answer = await send(setup, base, 'GET', `/v1/events?limit=100${feedCursor ? `&after=${feedCursor}` : ''}`, keyHeaders);
      if (answer.status !== 200) throw new Error(`reading the rest of the events feed: ${answer.status} ${answer.text}`);
      const page = JSON.parse(answer.text) as { data: { id: string }[]; next_cursor: string };
      for (const event of page.data) feedEventIds.add(event.id);
      feedCursor = page.next_cursor;
      if (page.data.length === 0) break;
    }

    const lost = deliveredState();
    const byEventId = new Map<string, number>();
    for (const request of received()) {
      const id = String(request.headers['webhook-id']);
      byEventId.set(id, (byEventId.get(id) ?? 0) + 1);
    }
    const duplicated = [...byEventId].filter(([, count]) => count > 1).map(([id, count]) => `${id} arrived ${count} times`);
    const feedNotDelivered = [...feedEventIds].filter((id) => !byEventId.has(id));

    // HAProxy's log: a request line (option httplog) carries the status and, after the connection
    // counts, its retries ("+" when redispatched to another server); other lines are its own messages.
    const requestLine = /\s-?\d+\/-?\d+\/-?\d+\/-?\d+\/-?\d+ (-?\d+) .* \d+\/\d+\/\d+\/\d+\/\+?(\d+) \d+\/\d+ "/;
    const haproxyLines = balancer.output().split('\n').filter((line) => line.trim() !== '');
    const retriedLines = haproxyLines.filter((line) => Number(requestLine.exec(line)?.[2] ?? 0) > 0);
    const notableLines = haproxyLines.filter((line) => {
      const request = requestLine.exec(line);
      return !request || !/^2\d\d$/.test(request[1]!) || Number(request[2]) > 0;
    });
    // The processes' warnings and errors (LOG_LEVEL=warn), alike ones counted together.
    const warnings = new Map<string, { count: number; first: number; last: number }>();
    for (const node of nodes) {
      for (const line of node.output().split('\n')) {
        if (!line.startsWith('{')) continue;
        let entry: { level?: number; time?: number; msg?: string; err?: { message?: string; stack?: string } };
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        // The test's build has no console (test/support/build.ts compiles the server only).
        if ((entry.level ?? 0) < 40 || entry.msg?.startsWith('the console files are missing')) continue;
        // Where in the service it came from: the first frame of the build in the error's stack.
        const frame = /at (?:async )?(\S+) \([^()]*\.test-build\/[^/]+\/([^():]+)/.exec(entry.err?.stack ?? '');
        const where = frame ? ` in ${frame[1]} (${frame[2]})` : '';
        const what = `${labels.get(node) ?? `${node.role} ${node.url}`}: ${entry.level! >= 50 ? 'error' : 'warning'} "${entry.err?.message ?? entry.msg}"${where}`;
        const at = (entry.time ?? startedWall) - startedWall;
        const seen = warnings.get(what);
        if (seen) Object.assign(seen, { count: seen.count + 1, last: at });
        else warnings.set(what, { count: 1, first: at, last: at });
      }
    }
    const processWarnings = [...warnings].map(([what, { count, first, last }]) => `${count} × ${what}, from +${seconds(first)} to +${seconds(last)}`);
    const migrations = (await queryRows<{ name: string }>(databaseUrl, 'select name from kysely_migration order by name')).map((row) => row.name);
    return {
      label,
      calls,
      restarts,
      timeline,
      created,
      edited,
      missingWrites,
      deliveries: { eventIds: byEventId.size, lost, duplicated, feedEvents: feedEventIds.size, feedNotDelivered, undelivered },
      haproxyRetried: retriedLines.length,
      haproxyLog: notableLines,
      processWarnings,
      migrations,
    };
  } finally {
    await killAll(nodes);
    await haproxy?.stop();
    for (const agent of agents) agent.destroy();
    await receiver?.close();
    await database?.drop();
  }
}

/** The figures of a deploy in one line. */
function summary(outcome: Outcome): string {
  const { calls, restarts, deliveries } = outcome;
  const failed = calls.filter((call) => !ok(call));
  // Latency of reads and writes; a feed request waits for events by design (wait=2).
  const timed = calls.filter((call) => call.loop !== 'feed');
  const latencies = timed.map((call) => call.ms).sort((a, b) => a - b);
  const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
  const slowest = timed.reduce((worst, call) => (call.ms > worst.ms ? call : worst), timed[0]!);
  const count = (predicate: (call: Call) => boolean) => calls.filter(predicate).length;
  return (
    `[rolling deploy, ${outcome.label}] ${calls.length} requests through HAProxy ` +
    `(${count((call) => call.loop.startsWith('reader'))} reads, ${count((call) => call.loop.startsWith('writer'))} writes, ${count((call) => call.loop === 'feed')} feed waits), ` +
    `${failed.length} failed; reads and writes took at most ${Math.round(slowest.ms)} ms (${slowest.method} ${slowest.path.split('?')[0]!.replace(/[0-9a-f-]{36}/, ':id')}), p99 ${Math.round(p99)} ms; ` +
    `${outcome.created.size} guides created and ${outcome.edited.size} edited, ${outcome.missingWrites.length} missing on read-back; ` +
    `${deliveries.eventIds} webhook events delivered, ${deliveries.lost.length} lost, ${deliveries.duplicated.length} duplicated ` +
    `(feed: ${deliveries.feedEvents} events, ${deliveries.feedNotDelivered.length} not delivered); ` +
    `${restarts.length} restarts (${restarts.map((restart) => restart.name).join(', ')}), exit codes ${restarts.map((restart) => restart.exitCode).join('/')}, ` +
    `stops ${restarts.map((restart) => `${Math.round(restart.stopMs)} ms`).join('/')}, ` +
    `out of rotation after ${restarts.filter((restart) => restart.outOfRotationMs !== null).map((restart) => seconds(restart.outOfRotationMs!)).join('/')}, ` +
    `back after ${restarts.map((restart) => seconds(restart.backMs)).join('/')}; HAProxy retried ${outcome.haproxyRetried} requests`
  );
}

/** Everything that went wrong, each failed request with the restart it fell in. */
function report(outcome: Outcome): string {
  const during = (at: number) => {
    const before = outcome.timeline.filter((entry) => entry.at <= at);
    const last = before[before.length - 1];
    return last ? `after "${last.what}" at +${seconds(last.at)}` : 'before the traffic';
  };
  const lines: string[] = [];
  const failed = outcome.calls.filter((call) => !ok(call));
  if (failed.length > 0) {
    lines.push(`Failed requests (${failed.length}):`);
    for (const call of failed) {
      lines.push(
        `  +${seconds(call.at)} ${call.loop} ${call.method} ${call.path} → ${call.status ?? call.error} after ${Math.round(call.ms)} ms, ${during(call.at)}` +
          (call.body ? `: ${call.body.replace(/\s+/g, ' ')}` : ''),
      );
    }
  }
  if (outcome.missingWrites.length > 0) lines.push(`Acknowledged writes missing (${outcome.missingWrites.length}):`, ...outcome.missingWrites.map((line) => `  ${line}`));
  const { lost, duplicated, feedNotDelivered, undelivered } = outcome.deliveries;
  if (lost.length > 0) lines.push(`Webhook events lost (${lost.length}):`, ...lost.slice(0, 50).map((line) => `  ${line}`));
  if (duplicated.length > 0) lines.push(`Webhook events delivered twice (${duplicated.length}):`, ...duplicated.slice(0, 50).map((line) => `  ${line}`));
  if (feedNotDelivered.length > 0) lines.push(`Feed events never delivered (${feedNotDelivered.length}): ${feedNotDelivered.slice(0, 20).join(', ')}`);
  if (undelivered > 0) lines.push(`Attempts or coalescing windows still pending at the end: ${undelivered}`);
  if (lines.length === 0) return '';
  lines.push('Timeline:', ...outcome.timeline.map((entry) => `  +${seconds(entry.at)} ${entry.what}`));
  if (outcome.haproxyLog.length > 0) lines.push('HAProxy log (retried, not 2xx, and its own messages):', ...outcome.haproxyLog.slice(0, 80).map((line) => `  ${line}`));
  if (outcome.processWarnings.length > 0) lines.push('Service warnings and errors:', ...outcome.processWarnings.map((line) => `  ${line}`));
  return lines.join('\n');
}

function expectNothingLost(outcome: Outcome): void {
  console.log(summary(outcome));
  const problems = report(outcome);
  if (problems) console.log(problems);
  expect.soft(outcome.calls.filter((call) => !ok(call)).map((call) => `${call.method} ${call.path} → ${call.status ?? call.error}`), 'every request answered 2xx').toEqual([]);
  expect.soft(outcome.restarts.map((restart) => `${restart.name} exited ${restart.exitCode}`), 'every process exits 0 on SIGTERM').toEqual(
    outcome.restarts.map((restart) => `${restart.name} exited 0`),
  );
  expect.soft(outcome.missingWrites, 'every acknowledged write reads back').toEqual([]);
  expect.soft(outcome.deliveries.lost, 'every event of an acknowledged write is delivered').toEqual([]);
  expect.soft(outcome.deliveries.duplicated, 'no event is delivered twice').toEqual([]);
  expect.soft(outcome.deliveries.feedNotDelivered, 'every event in the feed is delivered').toEqual([]);
  expect(outcome.created.size, 'the writers wrote').toBeGreaterThan(0);
}

describe.runIf(clusterServers && (haproxyBinary !== null || required))('a rolling deploy behind HAProxy, configured as docs/deploy.md says, loses nothing', () => {
  let build: Build | undefined;
  let nextBuild: Build | undefined;

  beforeAll(async () => {
    if (!haproxyBinary) throw new Error('REQUIRE_TEST_SERVERS is set but haproxy is not installed (Debian: apt-get install haproxy)');
    build = await buildService();
    nextBuild = buildWithMigration(build, EXPAND_ONLY);
  }, 180_000);

  afterAll(async () => {
    await nextBuild?.remove();
    await build?.remove();
  });

  it('restarting every process in turn under steady traffic: every request answered 2xx, every acknowledged write kept, every event delivered once', async () => {
    expectNothingLost(await rollingDeploy('same release', build!.main, build!.main));
  }, 240_000);

  it('the same when the next release adds an expand-only migration, applied by its first process while old processes still serve', async () => {
    const outcome = await rollingDeploy('next release with an expand-only migration', build!.main, nextBuild!.main);
    expect.soft(outcome.migrations, 'the next release applied its migration').toContain(EXPAND_ONLY.name);
    expectNothingLost(outcome);
  }, 240_000);
});

describe('HAProxy for the rolling-deploy test', () => {
  it('is there when CI requires the test servers (REQUIRE_TEST_SERVERS)', () => {
    if (required) expect(haproxyBinary, 'haproxy on PATH or in /usr/sbin').not.toBeNull();
    else expect(haproxyBinary === null || typeof haproxyBinary === 'string').toBe(true);
  });

  it('docs/deploy.md documents one HAProxy configuration with one bind line and a server line per API process', () => {
    const rendered = withLoopbackAddresses(documentedHaproxyConfig(), 8080, [3001, 3002]);
    expect(rendered).toMatch(/^\s*bind 127\.0\.0\.1:8080/m);
    expect(rendered.match(/^\s*server \S+ 127\.0\.0\.1:300[12]/gm)).toHaveLength(2);
  });
});

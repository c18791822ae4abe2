// The webhook benchmark: the service delivers guide.created events to a receiver on loopback through 10
// endpoints of one team.
//   (a) throughput: N events made through the management API (a ROLE=api process, 8 clients, nothing
//       delivered yet), then a ROLE=worker process on the same store drains the N×10 deliveries;
//       deliveries/s from the first arrival to the last, which is what the undici ceiling is compared to;
//       the writes are timed on their own;
//   (b) latency (ROLE=all, the single-process deployment on SQLite): a steady trickle of events, after 3 s
//       of the same as a warm-up; per delivery, arrival minus the event's created_at (stamped
//       in the committing transaction) and arrival minus the moment the write's answer reached the client;
//   (c) the ceiling: a bare undici loop replaying the captured signed deliveries, same concurrency, same count.
// Every wait has a deadline; a run that times out reports what arrived.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { benchScript, serviceMain } from '../paths.js';
import { type Child, freePort, memoryOf, sampleRss, spawnChild, waitReady } from '../processes.js';
import type { WebhookResult } from '../results.js';
import { summarize } from './percentiles.js';
import type { Arrival, ReceiverStats, Sample } from './receiver.js';
import { replayDeliveries } from './undici-ceiling.js';

export interface WebhookOptions {
  events: number;
  endpoints: number;
  latencyEventsPerSecond: number;
  latencySeconds: number;
}

const WRITERS = 8;
const LATENCY_WARM_UP_SECONDS = 3;
// A run waits for its deliveries at least this long, and longer for big runs (at 200 deliveries/s at worst).
const LEAST_WAIT_MS = 30_000;
const SLOWEST_RATE = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Admin {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST /admin/v1${path}: ${response.status} ${text.slice(0, 500)}`);
    return (JSON.parse(text) as { data: T }).data;
  }
}

class ReceiverClient {
  constructor(readonly url: string) {}

  private async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.url}/__bench/${path}`);
    if (!response.ok) throw new Error(`receiver ${path}: ${response.status}`);
    return (await response.json()) as T;
  }

  stats = () => this.get<ReceiverStats>('stats');
  arrivals = () => this.get<Arrival[]>('arrivals');
  samples = () => this.get<Sample[]>('samples');
  async reset(): Promise<void> {
    await fetch(`${this.url}/__bench/reset`, { method: 'POST' });
  }

  /** Waits until `count` deliveries arrived or the deadline passed; answers the last stats and whether it timed out. */
  async waitFor(count: number, timeoutMs: number): Promise<{ stats: ReceiverStats; timedOut: boolean }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const stats = await this.stats();
      if (stats.count >= count) return { stats, timedOut: false };
      if (Date.now() > deadline) return { stats, timedOut: true };
      await sleep(50);
    }
  }
}

const rate = (stats: ReceiverStats) =>
  stats.count > 1 && stats.firstAt !== null && stats.lastAt !== null && stats.lastAt > stats.firstAt ? (stats.count - 1) / ((stats.lastAt - stats.firstAt) / 1000) : 0;

export async function runWebhookBench(options: WebhookOptions, log: (line: string) => void): Promise<WebhookResult> {
  const dir = mkdtempSync(join(tmpdir(), 'guide-service-bench-webhooks-'));
  const children: Child[] = [];
  try {
    const receiverPort = await freePort();
    const receiverChild = spawnChild('receiver', process.execPath, [benchScript('webhooks/receiver.js')], { PORT: String(receiverPort) });
    children.push(receiverChild);
    const receiver = new ReceiverClient(`http://127.0.0.1:${receiverPort}`);
    await waitReady(receiverChild, `${receiver.url}/__bench/stats`);

    const token = `adm_bench_${randomBytes(12).toString('hex')}`;
    // BENCH_SERVICE_NODE_ARGS (say `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the service under load.
    const nodeArgs = process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const start = async (role: 'api' | 'worker' | 'all') => {
      const port = await freePort();
      const child = spawnChild(`service (webhooks, ${role})`, process.execPath, [...nodeArgs, serviceMain], {
        ROLE: role,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: `file:${join(dir, 'service.db')}`,
        DATA_DIR: dir,
        ADMIN_TOKEN: token,
        DEMO: 'false',
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      });
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitReady(child, `${url}/readyz`);
      return { child, url, admin: new Admin(url, token) };
    };

    // (a) throughput: the writes first, with no worker running
    const writer = await start('api');
    const team = await writer.admin.post<{ id: string }>('/teams', { name: 'Webhook bench', plan: 'growth' });
    for (let i = 0; i < options.endpoints; i++) {
      await writer.admin.post('/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${receiver.url}/ep/${i}`, events: ['guide.created'] });
    }
    const createGuide = (admin: Admin, n: number) =>
      admin.post<{ id: string }>('/guides', { team_id: team.id, title: `Bench guide ${n}`, steps: [{ text: 'Open the settings page.' }] });
    await receiver.reset();
    const expected = options.events * options.endpoints;
    log(`  webhooks: ${options.events} events to ${options.endpoints} endpoints (${expected} deliveries)`);
    const writeStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < options.events) await createGuide(writer.admin, next++);
      }),
    );
    const writeSeconds = (performance.now() - writeStarted) / 1000;
    await writer.child.stop();
    log(`  webhooks: ${options.events} events written in ${writeSeconds.toFixed(1)} s; a worker drains them`);
    const drainStarted = performance.now();
    const drainer = await start('worker');
    const drainMemory = sampleRss(drainer.child.pid);
    const throughputWait = await receiver.waitFor(expected, Math.max(LEAST_WAIT_MS, (expected / SLOWEST_RATE) * 1000));
    const totalSeconds = (performance.now() - drainStarted) / 1000;
    const drainPeakMb = drainMemory.stop();
    const drainHwmMb = memoryOf(drainer.child.pid)?.peakMb ?? NaN;
    await drainer.child.stop();
    const throughput = {
      delivered: throughputWait.stats.count,
      deliveriesPerSecond: rate(throughputWait.stats),
      totalSeconds,
      writeSeconds,
      timedOut: throughputWait.timedOut,
    };
    log(`  webhooks: ${throughput.delivered}/${expected} delivered, ${throughput.deliveriesPerSecond.toFixed(0)} deliveries/s`);
    const samples = await receiver.samples();

    const service = await start('all');
    const memory = sampleRss(service.child.pid);
    // (b) latency at a steady rate, after a warm-up at the same rate: a process just started spends its
    // first second or so compiling and connecting, which says nothing about the steady state.
    const every = 1000 / options.latencyEventsPerSecond;
    const warmUpStarted = performance.now();
    const warmUps: Promise<unknown>[] = [];
    for (let i = 0; i < options.latencyEventsPerSecond * LATENCY_WARM_UP_SECONDS; i++) {
      const wait = warmUpStarted + i * every - performance.now();
      if (wait > 0) await sleep(wait);
      warmUps.push(createGuide(service.admin, -1 - i));
    }
    await Promise.all(warmUps);
    await sleep(500);
    await receiver.reset();
    const latencyEvents = options.latencyEventsPerSecond * options.latencySeconds;
    const answeredAt = new Map<string, number>();
    const writes: Promise<void>[] = [];
    const paceStarted = performance.now();
    for (let i = 0; i < latencyEvents; i++) {
      const due = paceStarted + i * every;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      writes.push(createGuide(service.admin, options.events + i).then((guide) => void answeredAt.set(guide.id, performance.timeOrigin + performance.now())));
    }
    await Promise.all(writes);
    const latencyWait = await receiver.waitFor(latencyEvents * options.endpoints, LEAST_WAIT_MS);
    const arrivals = await receiver.arrivals();
    const fromCreatedAt = arrivals.map((arrival) => arrival.at - Date.parse(arrival.createdAt));
    const fromResponse = arrivals.flatMap((arrival) => {
      const answered = answeredAt.get(arrival.guideId);
      return answered === undefined ? [] : [arrival.at - answered];
    });
    const latency = {
      eventsPerSecond: options.latencyEventsPerSecond,
      events: latencyEvents,
      delivered: arrivals.length,
      fromCreatedAt: summarize(fromCreatedAt),
      fromResponse: summarize(fromResponse),
      timedOut: latencyWait.timedOut,
    };
    log(`  webhooks: latency from created_at p50 ${latency.fromCreatedAt.p50Ms} ms, p99 ${latency.fromCreatedAt.p99Ms} ms`);
    const peakRssMb = Math.max(memory.stop(), drainPeakMb);
    const hwmMb = Math.max(memoryOf(service.child.pid)?.peakMb ?? NaN, drainHwmMb);

    // (c) the ceiling, with the service idle: the same number of deliveries as (a) asked for
    await receiver.reset();
    const replay = await replayDeliveries(receiver.url, samples, options.endpoints, expected);
    const replayStats = await receiver.stats();
    const ceiling = { concurrency: options.endpoints, requests: replay.requests, deliveriesPerSecond: rate(replayStats), totalSeconds: replay.seconds };
    log(`  webhooks: undici ceiling ${ceiling.deliveriesPerSecond.toFixed(0)} deliveries/s`);

    return { endpoints: options.endpoints, events: options.events, expectedDeliveries: expected, throughput, latency, ceiling, peakRssMb, hwmMb };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

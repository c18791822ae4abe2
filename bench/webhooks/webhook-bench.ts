// The webhook benchmark: the service delivers guide.created events to a receiver on loopback through 10
// endpoints of one team, on the embedded store and on PostgreSQL.
//   (a) throughput: N events made through the management API (a ROLE=api process, 8 clients, nothing
//       delivered yet), then ROLE=worker processes on the same store drain the N×10 deliveries (one on
//       SQLite; one, then two on a second PostgreSQL database with the same events); deliveries/s from
//       the first arrival to the last, which is what the undici ceiling is compared to;
//   (b) latency: a steady trickle of events after 3 s of the same as a warm-up (SQLite: one ROLE=all
//       process; PostgreSQL: a ROLE=api process and two workers); per delivery, arrival minus the event's
//       created_at (stamped in the committing transaction) and arrival minus the moment the write's answer
//       reached the client;
//   (c) the ceiling: a bare undici loop replaying the captured signed deliveries, same concurrency, same count.
// Every wait has a deadline; a run that times out reports what arrived.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, measureCpu, memoryOf, pidsNamed, sampleRss } from '../processes.js';
import type { WebhookDrain, WebhookStoreResult } from '../results.js';
import type { BenchServers } from '../test-servers.js';
import { type Admin, type RunningService, serviceStarter } from '../services.js';
import { arrivalRate, inParallel, sleep, startReceiver } from './bench-services.js';
import { countStatements, statementLines } from './pg-statements.js';
import { summarize } from './percentiles.js';
import { replayDeliveries } from './undici-ceiling.js';

export interface WebhookOptions {
  events: number;
  endpoints: number;
  latencyEventsPerSecond: number;
  latencySeconds: number;
}

export type WebhookStore = { kind: 'sqlite' } | { kind: 'postgres'; servers: BenchServers; countStatements?: boolean };

const WRITERS = 8;
const LATENCY_WARM_UP_SECONDS = 3;
// A run waits for its deliveries at least this long, and longer for big runs (at 200 deliveries/s at worst).
const LEAST_WAIT_MS = 30_000;
const SLOWEST_RATE = 200;

export async function runWebhookBench(options: WebhookOptions, store: WebhookStore, log: (line: string) => void): Promise<WebhookStoreResult> {
  const dir = mkdtempSync(join(tmpdir(), 'guide-service-bench-webhooks-'));
  const children: Child[] = [];
  let stores = 0;
  /** A fresh store: a new SQLite file, or a new database on the PostgreSQL server. */
  const freshStore = async () => {
    const n = ++stores;
    const dataDir = join(dir, `store-${n}`);
    if (store.kind === 'sqlite') return { databaseUrl: `file:${join(dataDir, 'service.db')}`, dataDir };
    return { databaseUrl: await store.servers.newDatabase(), dataDir, redisUrl: store.servers.redisUrl };
  };
  const label = store.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    const receiver = await startReceiver(children);
    const expected = options.events * options.endpoints;

    /** A team with the benchmark's endpoints, on a service of the store; answers how to make an event. */
    const setUp = async (service: RunningService) => {
      const team = await service.admin.post<{ id: string }>('/teams', { name: 'Webhook bench', plan: 'growth' });
      for (let i = 0; i < options.endpoints; i++) {
        await service.admin.post('/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${receiver.url}/ep/${i}`, events: ['guide.created'] });
      }
      return (admin: Admin, n: number) =>
        admin.post<{ id: string }>('/guides', { team_id: team.id, title: `Bench guide ${n}`, steps: [{ text: 'Open the settings page.' }] });
    };

    // (a) throughput: the writes first, with no worker running, then `workers` workers drain them
    const drain = async (workers: number): Promise<WebhookDrain> => {
      const drainStore = await freshStore();
      const { databaseUrl } = drainStore;
      const start = serviceStarter(children, drainStore);
      const writer = await start('api');
      const createGuide = await setUp(writer);
      await receiver.reset();
      log(`  webhooks (${label}): ${options.events} events to ${options.endpoints} endpoints (${expected} deliveries)`);
      const writeStarted = performance.now();
      await inParallel(options.events, WRITERS, (n) => createGuide(writer.admin, n));
      const writeSeconds = (performance.now() - writeStarted) / 1000;
      await writer.child.stop();
      const counting = store.kind === 'postgres' && store.countStatements ? await countStatements(databaseUrl) : null;
      const drainStarted = performance.now();
      const drainers = await Promise.all(Array.from({ length: workers }, () => start('worker')));
      const memory = drainers.map((drainer) => sampleRss(drainer.child.pid));
      const deadline = Math.max(LEAST_WAIT_MS, (expected / SLOWEST_RATE) * 1000);
      // Where the time goes once deliveries flow (start-up left out): the cores in all, and each process.
      await receiver.waitFor(1, deadline);
      const cpu = measureCpu({
        workers: () => drainers.map((drainer) => drainer.child.pid),
        receiver: () => [receiver.pid],
        ...(store.kind === 'postgres' ? { postgres: () => pidsNamed('postgres') } : {}),
      });
      const wait = await receiver.waitFor(expected, deadline);
      const { machineBusy: cpuBusy, cpuSeconds, seconds: measuredSeconds } = cpu.stop();
      const totalSeconds = (performance.now() - drainStarted) / 1000;
      const peakRssMb = Math.max(...memory.map((sample) => sample.stop()));
      await Promise.all(drainers.map((drainer) => drainer.child.stop()));
      const statements = counting ? await counting.read(wait.stats.count) : undefined;
      const result = { workers, delivered: wait.stats.count, deliveriesPerSecond: arrivalRate(wait.stats), totalSeconds, writeSeconds, timedOut: wait.timedOut, peakRssMb, cpuBusy, cpuSeconds, measuredSeconds, statements };
      log(
        `  webhooks (${label}): ${workers} worker${workers > 1 ? 's' : ''}: ${result.delivered}/${expected} delivered, ${result.deliveriesPerSecond.toFixed(0)} deliveries/s, ` +
          `cores ${(cpuBusy * 100).toFixed(0)} % busy; CPU s over ${measuredSeconds.toFixed(1)} s: ${JSON.stringify(cpuSeconds)}`,
      );
      if (statements) for (const line of statementLines(statements)) log(`  webhooks (${label}): ${workers} worker${workers > 1 ? 's' : ''}: ${line}`);
      return result;
    };
    const drains = [await drain(1)];
    const samples = await receiver.samples();
    if (store.kind === 'postgres') drains.push(await drain(2));

    // (b) latency at a steady rate, after a warm-up at the same rate: a process just started spends its
    // first second or so compiling and connecting, which says nothing about the steady state.
    const start = serviceStarter(children, await freshStore());
    const services = store.kind === 'sqlite' ? [await start('all')] : [await start('api'), await start('worker'), await start('worker')];
    const writer = services[0]!;
    const memory = services.map((service) => sampleRss(service.child.pid));
    const createGuide = await setUp(writer);
    const every = 1000 / options.latencyEventsPerSecond;
    const paced = async (count: number, first: number, onAnswer: (guide: { id: string }) => void = () => undefined) => {
      const started = performance.now();
      const writes: Promise<void>[] = [];
      for (let i = 0; i < count; i++) {
        const wait = started + i * every - performance.now();
        if (wait > 0) await sleep(wait);
        writes.push(createGuide(writer.admin, first + i).then(onAnswer));
      }
      await Promise.all(writes);
    };
    // The warm-up's deliveries all arrive before the measured writes begin: on a machine that falls
    // behind, the ones still due would otherwise count among the measured events.
    const warmUpEvents = options.latencyEventsPerSecond * LATENCY_WARM_UP_SECONDS;
    await receiver.reset();
    await paced(warmUpEvents, -1_000_000);
    await receiver.waitFor(warmUpEvents * options.endpoints, LEAST_WAIT_MS);
    await receiver.reset();
    const latencyEvents = options.latencyEventsPerSecond * options.latencySeconds;
    const answeredAt = new Map<string, number>();
    await paced(latencyEvents, 0, (guide) => void answeredAt.set(guide.id, performance.timeOrigin + performance.now()));
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
      processes: store.kind === 'sqlite' ? 'one ROLE=all process' : 'a ROLE=api process and two ROLE=worker processes',
      delivered: arrivals.length,
      fromCreatedAt: summarize(fromCreatedAt),
      fromResponse: summarize(fromResponse),
      timedOut: latencyWait.timedOut,
    };
    log(`  webhooks (${label}): latency from created_at p50 ${latency.fromCreatedAt.p50Ms} ms, p99 ${latency.fromCreatedAt.p99Ms} ms`);
    const peakRssMb = Math.max(...memory.map((sample) => sample.stop()), ...drains.map((d) => d.peakRssMb));
    const hwmMb = Math.max(...services.map((service) => memoryOf(service.child.pid)?.peakMb ?? NaN));
    for (const service of services) await service.child.stop();

    // (c) the ceiling, with the service stopped: the same number of deliveries as (a) asked for
    await receiver.reset();
    const ceilingCpu = measureCpu({ undici: () => [process.pid], receiver: () => [receiver.pid] });
    const replay = await replayDeliveries(receiver.url, samples, options.endpoints, expected);
    const { cpuSeconds: ceilingCpuSeconds } = ceilingCpu.stop();
    const ceiling = { concurrency: options.endpoints, requests: replay.requests, deliveriesPerSecond: arrivalRate(await receiver.stats()), totalSeconds: replay.seconds, cpuSeconds: ceilingCpuSeconds };
    log(`  webhooks (${label}): undici ceiling ${ceiling.deliveriesPerSecond.toFixed(0)} deliveries/s; CPU s: ${JSON.stringify(ceilingCpuSeconds)}`);

    return { store: store.kind, endpoints: options.endpoints, events: options.events, expectedDeliveries: expected, drains, latency, ceiling, cores: availableParallelism(), peakRssMb, hwmMb };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

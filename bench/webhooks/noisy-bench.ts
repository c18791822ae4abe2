// The bad day (`--only noisy`): endpoints that never answer and endpoints that answer 500 at once, each
// with a backlog, beside 10 healthy endpoints of one team that receive a steady stream of events. The
// bad endpoints are set up first by a ROLE=api process (20 to a team, the most a team may have); the
// bench then moves their pings and backlogs (in the store, with no service running) to fall due together
// at one moment a few seconds ahead. The delivery processes start (SQLite: one ROLE=all process;
// PostgreSQL: a ROLE=api process and two workers) with the healthy stream, which warms them up until
// that moment; then the whole bad wave falls due at once and meets the healthy stream head on.
// Measured from the wave on: each healthy delivery's arrival minus its event's created_at; the warm-up's
// own latency (a process that has just started, nothing bad yet) is reported beside it. Over the whole
// run: every healthy event arriving exactly once, all requests the receiver got per second, and the
// worker processes' resident memory and open sockets, sampled every 100 ms, with the CPU they and the
// machine used. The same stream with no bad endpoint at all (`hanging` and `failing` 0) is the control:
// what the healthy endpoints get from these processes on this machine. The stream's writes are made as an
// integrator makes them: each with an Idempotency-Key, sent again with it after a 503's Retry-After or a
// connection that could not be made; the run counts those, and what was never written.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type Child, measureCpu, memoryOf, pidsNamed, socketsOf } from '../processes.js';
import { isControl, type NoisyResult, type NoisyShape, type StreamWrites } from '../results.js';
import { type Admin, Refusal, serviceStarter } from '../services.js';
import { inParallel, sleep, startReceiver } from './bench-services.js';
import { summarize } from './percentiles.js';
import type { WebhookStore } from './webhook-bench.js';

const PER_TEAM = 20;
const SETUP_CLIENTS = 8;
const DRAIN_WAIT_MS = 30_000;
// The bad wave falls due this long after the bench moves it: time for the delivery processes to start
// (SQLite: one, about a second; PostgreSQL: three, up to 6 s) and for the healthy stream to warm them up.
const WAVE_AFTER_MS = { sqlite: 6000, postgres: 12_000 };
// How long a write of the healthy stream is sent again before the run counts it as never written, and
// how long it waits before sending again when the connection could not be made (no Retry-After to go by).
const GIVE_UP_MS = 30_000;
const NO_CONNECTION_WAIT_MS = 1000;

/** Writes a guide as an integrator would (see the top), counting in `writes`. */
async function writeAsIntegrator(admin: Admin, body: unknown, writes: StreamWrites): Promise<void> {
  const key = randomUUID();
  const giveUpAt = performance.now() + GIVE_UP_MS;
  for (;;) {
    let waitMs: number;
    try {
      await admin.send('POST', '/guides', body, { 'idempotency-key': key });
      writes.written++;
      return;
    } catch (error) {
      // 503: the store is not to be had now; 409: the first send of this key is still being written.
      const retried = error instanceof Refusal ? error.status === 503 || error.status === 409 : typeof (error as { code?: unknown }).code === 'string';
      if (!retried) throw error;
      const why = error instanceof Refusal ? String(error.status) : (error as { code: string }).code;
      writes.retried[why] = (writes.retried[why] ?? 0) + 1;
      waitMs = error instanceof Refusal ? 1000 * (error.retryAfterSeconds ?? 1) : NO_CONNECTION_WAIT_MS;
    }
    if (performance.now() + waitMs > giveUpAt) {
      writes.neverWritten++;
      return;
    }
    await sleep(waitMs);
  }
}

const BAD_ENDPOINTS = `SELECT id FROM webhook_endpoints WHERE url LIKE '%/hang/%' OR url LIKE '%/fail/%'`;

/**
 * Makes every waiting attempt of the bad endpoints, and their queues, due at `at` (timestamps are RFC 3339
 * text in both stores), with no service running.
 */
async function stageWave(location: { databaseUrl: string }, at: Date): Promise<void> {
  const statements = [
    `UPDATE webhook_attempts SET due_at = $1 WHERE status = 'scheduled' AND endpoint_id IN (${BAD_ENDPOINTS})`,
    `UPDATE webhook_queues SET ready_at = $1 WHERE ready_at IS NOT NULL AND endpoint_id IN (${BAD_ENDPOINTS})`,
  ];
  const due = at.toISOString();
  if (location.databaseUrl.startsWith('file:')) {
    const db = new Database(location.databaseUrl.slice('file:'.length));
    try {
      // SQLite reads `$1` as a named parameter called `1`.
      for (const statement of statements) db.prepare(statement).run({ 1: due });
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: location.databaseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement, [due]);
  } finally {
    await client.end();
  }
}

export async function runNoisyBench(options: NoisyShape, store: WebhookStore, log: (line: string) => void): Promise<NoisyResult> {
  const dir = mkdtempSync(join(tmpdir(), 'guide-service-bench-noisy-'));
  const children: Child[] = [];
  const label = store.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    const receiver = await startReceiver(children);
    const dataDir = join(dir, 'store');
    const location =
      store.kind === 'sqlite'
        ? { databaseUrl: `file:${join(dataDir, 'service.db')}`, dataDir }
        : { databaseUrl: await store.servers.newDatabase(), dataDir, redisUrl: store.servers.redisUrl };
    const start = serviceStarter(children, location, { WEBHOOK_MAX_ENDPOINTS_PER_HOME: String(PER_TEAM) });

    // The bad endpoints and their backlogs, with nothing delivered yet.
    const setup = await start('api');
    const badTeams: { id: string; kind: 'hang' | 'fail'; size: number }[] = [];
    for (const [kind, count] of [['hang', options.hanging], ['fail', options.failing]] as const) {
      for (let made = 0; made < count; made += PER_TEAM) badTeams.push({ id: '', kind, size: Math.min(PER_TEAM, count - made) });
    }
    log(
      isControl(options)
        ? `  noisy (${label}): the control, no bad endpoint`
        : `  noisy (${label}): ${options.hanging} endpoints that never answer, ${options.failing} that answer 500, ${options.backlog} events waiting for each`,
    );
    const setupStarted = performance.now();
    await inParallel(badTeams.length, SETUP_CLIENTS, async (t) => {
      const team = badTeams[t]!;
      team.id = (await setup.admin.post<{ id: string }>('/teams', { name: `Bad ${team.kind} ${t}`, plan: 'growth' })).id;
      for (let i = 0; i < team.size; i++) {
        await setup.admin.post('/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${receiver.url}/${team.kind}/${t}-${i}`, events: ['guide.created'] });
      }
    });
    await inParallel(badTeams.length * options.backlog, SETUP_CLIENTS, (n) =>
      setup.admin.post('/guides', { team_id: badTeams[n % badTeams.length]!.id, title: `Backlog ${n}` }),
    );
    const healthyTeam = await setup.admin.post<{ id: string }>('/teams', { name: 'Healthy', plan: 'growth' });
    for (let i = 0; i < options.healthy; i++) {
      await setup.admin.post('/webhook-endpoints', { home: { type: 'team', id: healthyTeam.id }, url: `${receiver.url}/ok/${i}`, events: ['guide.created'] });
    }
    await setup.child.stop();
    const waveAt = new Date(Date.now() + WAVE_AFTER_MS[store.kind]);
    await stageWave(location, waveAt);
    log(`  noisy (${label}): set up in ${((performance.now() - setupStarted) / 1000).toFixed(0)} s; the delivery processes start with the healthy stream, the bad wave falls due ${WAVE_AFTER_MS[store.kind] / 1000} s from now`);

    // The bad day: the delivery processes start, and the healthy stream with them.
    const services = store.kind === 'sqlite' ? [await start('all')] : [await start('api'), await start('worker'), await start('worker')];
    const workers = store.kind === 'sqlite' ? services : services.slice(1);
    await receiver.reset();
    let peakRssMb = 0;
    let peakSockets = 0;
    const sampler = setInterval(() => {
      for (const worker of workers) {
        peakRssMb = Math.max(peakRssMb, memoryOf(worker.child.pid)?.rssMb ?? 0);
        peakSockets = Math.max(peakSockets, socketsOf(worker.child.pid) ?? 0);
      }
    }, 100);
    // The rest of the machine too: on PostgreSQL the API process and the database share the cores.
    const cpu = measureCpu({
      workers: () => workers.map((worker) => worker.child.pid),
      ...(store.kind === 'postgres' ? { api: () => [services[0]!.child.pid], postgres: () => pidsNamed('postgres') } : {}),
      receiver: () => [receiver.pid],
      writer: () => [process.pid],
    });
    // The stream runs until `seconds` after the wave.
    const every = 1000 / options.eventsPerSecond;
    const streamStarted = performance.now();
    const warmUpMs = waveAt.getTime() - Date.now();
    const events = Math.max(0, Math.ceil(warmUpMs / every)) + options.eventsPerSecond * options.seconds;
    const writing: Promise<unknown>[] = [];
    const writes: StreamWrites = { asked: events, written: 0, retried: {}, neverWritten: 0 };
    for (let i = 0; i < events; i++) {
      const wait = streamStarted + i * every - performance.now();
      if (wait > 0) await sleep(wait);
      writing.push(writeAsIntegrator(services[0]!.admin, { team_id: healthyTeam.id, title: `Healthy ${i}` }, writes));
    }
    await Promise.all(writing);
    const expected = writes.written * options.healthy;
    const wait = await receiver.waitFor(expected, DRAIN_WAIT_MS);
    const seconds = (performance.now() - streamStarted) / 1000;
    const counts = await receiver.counts();
    clearInterval(sampler);
    const used = cpu.stop();
    const cpuPerSecond = Object.fromEntries(Object.entries(used.cpuSeconds).map(([group, seconds]) => [group, seconds / used.seconds]));
    const arrivals = (await receiver.arrivals()).filter((arrival) => arrival.endpoint.startsWith('/ok/'));
    const perEndpointEvent = new Set(arrivals.map((arrival) => `${arrival.endpoint} ${arrival.guideId}`));
    const latencyOf = (some: typeof arrivals) => summarize(some.map((arrival) => arrival.at - Date.parse(arrival.createdAt)));
    const fromWave = arrivals.filter((arrival) => Date.parse(arrival.createdAt) >= waveAt.getTime());
    const latency = latencyOf(fromWave);
    const warmUpLatency = latencyOf(arrivals.filter((arrival) => Date.parse(arrival.createdAt) < waveAt.getTime()));
    if (process.env.BENCH_NOISY_TIMELINE) {
      log(`    warm-up (before the wave): ${warmUpLatency.count} arrivals, p50 ${warmUpLatency.p50Ms} ms, p99 ${warmUpLatency.p99Ms} ms, max ${warmUpLatency.maxMs} ms`);
      for (let second = 0; second < options.seconds; second++) {
        const s = latencyOf(fromWave.filter((arrival) => Math.floor((Date.parse(arrival.createdAt) - waveAt.getTime()) / 1000) === second));
        log(`    second ${second} of the wave: ${s.count} arrivals, p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, max ${s.maxMs} ms`);
      }
    }
    const result: NoisyResult = {
      store: store.kind,
      processes: store.kind === 'sqlite' ? 'one ROLE=all process' : 'a ROLE=api process and two ROLE=worker processes',
      ...options,
      healthyLatency: latency,
      warmUpLatency,
      warmUpSeconds: warmUpMs / 1000,
      writes,
      healthyExpected: expected,
      healthyDelivered: perEndpointEvent.size,
      duplicates: arrivals.length - perEndpointEvent.size,
      timedOut: wait.timedOut,
      requestsPerSecond: (counts.answered + counts.failed + counts.hanging) / seconds,
      requests: counts,
      peakRssMb,
      peakSockets,
      cpuPerSecond,
      machineBusy: used.machineBusy,
    };
    const retried = Object.entries(writes.retried).map(([why, times]) => `${times} × ${why}`);
    log(
      `  noisy (${label}): ${writes.written}/${events} written${retried.length > 0 ? ` (sent again after ${retried.join(', ')})` : ''}${writes.neverWritten > 0 ? `, ${writes.neverWritten} never` : ''}; ` +
        `healthy ${result.healthyDelivered}/${expected}; from the wave p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms; ` +
        `warm-up (${(warmUpMs / 1000).toFixed(1)} s) p50 ${warmUpLatency.p50Ms} ms, p99 ${warmUpLatency.p99Ms} ms, max ${warmUpLatency.maxMs} ms; ` +
        `${result.requestsPerSecond.toFixed(0)} requests/s; RSS ${peakRssMb.toFixed(0)} MiB; ${peakSockets} sockets; ` +
        `machine ${(100 * used.machineBusy).toFixed(0)} % busy; CPU s/s: ${JSON.stringify(cpuPerSecond, (_, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(2)) : v))}`,
    );
    return result;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

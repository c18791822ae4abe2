// The mixed benchmark (`--only mixed`): reads shaped like production, with edits coming in meanwhile.
// Thousands of distinct v1 URLs (urls.ts) go round through wrk (wrk-mixed.lua) while the writer (writer.ts)
// edits guides at 0, 1 and 10 edits/s. Two kinds of traffic: four keys' URLs, on SQLite with one ROLE=api
// process (read cache on, and off as the reference) and on PostgreSQL with Redis with one and two ROLE=api
// processes; and one organization key's URLs (issue 36), on SQLite and on PostgreSQL with Redis and without
// it (rate limits counted in the database), with one and two processes. Both stores are filled by the bulk
// loader with the same data. Per run: req/s, p50/p99, answers of 400 or more, the edits made and failed,
// and each service process's resident memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStore, storeName } from '../report/checks.js';
import type { BenchOptions } from '../options.js';
import { type Child, measureCpu, sampleRss } from '../processes.js';
import { drain } from '../reads/read-bench.js';
import type { MixedResult, MixedRun, MixedTraffic } from '../results.js';
import { type RunningService, serviceStarter, UNREACHED_RATE_LIMIT } from '../services.js';
import { type LoadedStore, loadPostgresStore, prepareStore, type StoreShape } from '../store.js';
import type { BenchServers } from '../test-servers.js';
import { combineWrk, failedRequests, runWrk, type WrkMeasurement } from '../wrk.js';
import { askEachOnce, gatherUrls, type UrlList, writeUrlFile } from './urls.js';
import { startWriter } from './writer.js';

export const EDIT_RATES = [0, 1, 10] as const;

export const TWO_PROCESSES =
  'two wrk processes, one per service process, each with half the connections, one thread and the whole URL list ' +
  '(as a round-robin balancer sends every URL to both); their req/s added, p50 and p99 the worse of the two';

/** 200 teams in 10 organizations, 20 teams each as in the read benchmark's store; a few members per team. */
export function mixedShape(guides: number): StoreShape {
  return { guides, teams: 200, organizations: 10, users: 10_000, bigTeamMembers: 2000, seed: 1 };
}

interface Setup {
  store: 'sqlite' | 'postgres';
  traffic: MixedTraffic;
  /** PostgreSQL: rate limits counted in Redis, or in the database. */
  redis: boolean;
  processes: number;
  readCache: boolean;
}

const SETUPS: Setup[] = [
  { store: 'sqlite', traffic: 'four-keys', redis: false, processes: 1, readCache: true },
  { store: 'sqlite', traffic: 'four-keys', redis: false, processes: 1, readCache: false },
  { store: 'sqlite', traffic: 'one-key', redis: false, processes: 1, readCache: true },
  { store: 'postgres', traffic: 'four-keys', redis: true, processes: 1, readCache: true },
  { store: 'postgres', traffic: 'four-keys', redis: true, processes: 2, readCache: true },
  { store: 'postgres', traffic: 'one-key', redis: true, processes: 1, readCache: true },
  { store: 'postgres', traffic: 'one-key', redis: true, processes: 2, readCache: true },
  { store: 'postgres', traffic: 'one-key', redis: false, processes: 1, readCache: true },
  { store: 'postgres', traffic: 'one-key', redis: false, processes: 2, readCache: true },
];

export const describeSetup = (setup: Setup) =>
  `${describeStore(setup)}, ${setup.traffic}, ${setup.processes === 1 ? 'one process' : `${setup.processes} processes`}${setup.readCache ? '' : ', READ_CACHE=off'}`;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function runMixedBench(
  options: BenchOptions,
  postgres: (() => BenchServers) | null,
  log: (line: string) => void,
): Promise<{ result: MixedResult; problems: string[] }> {
  const shape = mixedShape(options.mixedGuides);
  const result: MixedResult = { shape: { guides: shape.guides, teams: shape.teams, organizations: shape.organizations }, twoProcesses: TWO_PROCESSES, urls: [], runs: [] };
  const problems: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'guide-service-bench-mixed-'));

  /** The setups of one store, one after the other, each traffic's on the URL list gathered through its first. */
  const onStore = async (store: LoadedStore, kind: Setup['store'], redisUrl?: string) => {
    const lists = new Map<MixedTraffic, UrlList>();
    for (const setup of SETUPS.filter((candidate) => candidate.store === kind && options.mixedTraffic.includes(candidate.traffic))) {
      // One file per wrk process, each shuffled its own way.
      const files = [0, 1].map((n) => join(dir, `${kind}-${setup.traffic}-urls-${n}.tsv`));
      const children: Child[] = [];
      try {
        const start = serviceStarter(children, { databaseUrl: store.databaseUrl, dataDir: store.dir, redisUrl: setup.redis ? redisUrl : undefined }, {
          READ_CACHE: setup.readCache ? 'on' : 'off',
          RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT,
        });
        const services: RunningService[] = [];
        // One after the other: a service migrates the store at start, and two must not race.
        for (let n = 0; n < setup.processes; n++) services.push(await start('api'));
        let list = lists.get(setup.traffic);
        if (list === undefined) {
          list = await gatherUrls(services[0]!.url, services[0]!.admin, store.ids, setup.traffic);
          lists.set(setup.traffic, list);
          for (const file of files) writeUrlFile(list.urls, file);
          result.urls.push({ store: kind, loadSeconds: store.loadSeconds, ...list.summary });
          const kinds = Object.entries(list.summary.byKind).map(([name, count]) => `${name} ${count}`).join(', ');
          log(`  mixed (${storeName(kind)}, ${setup.traffic}): ${list.summary.total} URLs from ${list.summary.keys.length} keys (${kinds}); ${list.summary.detailGuides} guides to edit`);
        }
        result.runs.push(...(await measureSetup(setup, services, list, files, options, problems, log)));
      } catch (error) {
        const text = `mixed on ${describeSetup(setup)} failed: ${message(error)}`;
        log(text);
        problems.push(text);
      } finally {
        await Promise.all(children.map((child) => child.stop()));
      }
    }
  };

  try {
    try {
      const store = await prepareStore(shape, options.reuse, log);
      try {
        await onStore(store, 'sqlite');
      } finally {
        store.release();
      }
    } catch (error) {
      problems.push(`mixed on SQLite failed: ${message(error)}`);
    }
    if (postgres) {
      try {
        const servers = postgres();
        const store = await loadPostgresStore(shape, await servers.newDatabase(), log);
        try {
          await onStore(store, 'postgres', servers.redisUrl);
        } finally {
          store.release();
        }
      } catch (error) {
        problems.push(`mixed on PostgreSQL failed: ${message(error)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { result, problems };
}

/** wrk on every service process at once (see TWO_PROCESSES), for `seconds`. */
async function load(services: RunningService[], files: string[], options: BenchOptions, seconds: number): Promise<WrkMeasurement[]> {
  const share = services.length;
  return Promise.all(
    services.map((service, n) =>
      runWrk({
        url: `${service.url}/`,
        headers: {},
        connections: Math.round(options.connections / share),
        threads: Math.max(1, Math.round(options.threads / share)),
        seconds,
        script: { name: 'wrk-mixed.lua', args: [files[n]!] },
      }),
    ),
  );
}

interface Round {
  perProcess: WrkMeasurement[];
  load: WrkMeasurement;
  writes: MixedRun['writes'];
  firstError: string | null;
  rssMb: number[];
  machineBusy: number;
  serviceCpuPerSecond: number;
}

/**
 * The edit rates take turns, round after round, and each keeps its median round (as the read benchmark's
 * servers do). Each round begins with every URL asked for once from each process: the last edit run left
 * the caches empty, and the run without edits must start from caches as full as production's would be.
 */
async function measureSetup(
  setup: Setup,
  services: RunningService[],
  list: UrlList,
  files: string[],
  options: BenchOptions,
  problems: string[],
  log: (line: string) => void,
): Promise<MixedRun[]> {
  const admins = services.map((service) => service.admin);
  const drainAll = () => Promise.all(services.map((service) => drain(service.url)));
  const seconds = options.rounds === 1 ? options.seconds : Math.max(2, Math.round(options.seconds / options.rounds));
  const rounds = new Map<number, Round[]>(EDIT_RATES.map((rate) => [rate, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const service of services) await askEachOnce(service.url, list.urls);
    if (round === 0) {
      await load(services, files, options, options.warmupSeconds);
      await drainAll();
    }
    for (const rate of EDIT_RATES) {
      const memory = services.map((service) => sampleRss(service.child.pid));
      const cpu = measureCpu({ services: () => services.map((service) => service.child.pid) });
      const writer = startWriter(admins, list.editable, rate);
      const perProcess = await load(services, files, options, seconds);
      const { firstError, ...writes } = await writer.stop();
      const rssMb = memory.map((sample) => sample.stop());
      const used = cpu.stop();
      await drainAll();
      rounds.get(rate)!.push({ perProcess, load: combineWrk(perProcess), writes, firstError, rssMb, machineBusy: used.machineBusy, serviceCpuPerSecond: used.cpuSeconds.services! / used.seconds });
    }
  }

  const label = describeSetup(setup);
  return EDIT_RATES.map((rate) => {
    const taken = [...rounds.get(rate)!].sort((a, b) => a.load.requestsPerSecond - b.load.requestsPerSecond);
    const median = taken[Math.floor(taken.length / 2)]!;
    const run: MixedRun = {
      ...setup,
      editsPerSecond: rate,
      load: median.load,
      perProcess: setup.processes > 1 ? median.perProcess : [],
      writes: median.writes,
      rssMb: median.rssMb.map((_, n) => Math.max(...taken.map((each) => each.rssMb[n]!))),
      machineBusy: median.machineBusy,
      serviceCpuPerSecond: median.serviceCpuPerSecond,
    };
    const where = `mixed on ${label} at ${rate} edits/s`;
    const failed = failedRequests(run.load);
    if (run.load.requests === 0) problems.push(`${where}: no request completed`);
    if (failed > 0) problems.push(`${where}: ${failed} of ${run.load.requests} requests failed (${JSON.stringify(run.load.errors)})`);
    const editErrors = taken.find((each) => each.firstError !== null)?.firstError;
    if (editErrors) problems.push(`${where}: edits failed, e.g. ${editErrors}`);
    const all = taken.map((each) => each.load.requestsPerSecond.toFixed(0)).join('/');
    log(
      `  mixed ${label.padEnd(56)} ${String(rate).padStart(2)} edits/s ${run.load.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${run.load.p50Ms.toFixed(2)} ms  ` +
        `p99 ${run.load.p99Ms.toFixed(2)} ms  failed ${failed}  edits ${run.writes.made}/${run.writes.made + run.writes.failed}  ` +
        `RSS ${run.rssMb.map((mb) => mb.toFixed(0)).join(' + ')} MiB  (rounds ${all})`,
    );
    return run;
  });
}

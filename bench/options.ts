// The benchmark's command line: `npm run bench -- [--quick] [--reuse] [--only list,search,flood,…] [--no-webhooks]
// [--seconds N] [--warmup N] [--guides N,…] [--mixed-guides N]`.
import { parseArgs } from 'node:util';
import { MIXED_TRAFFIC, type MixedTraffic, type Mode, type NoisyShape } from './results.js';

export const SCENARIO_GROUPS = ['list', 'deep', 'search', 'detail', 'members', 'webhooks', 'noisy', 'mixed', 'flood', 'feed', 'backup', 'footprint', 'audit', 'idempotency'] as const;
export type ScenarioGroup = (typeof SCENARIO_GROUPS)[number];

export interface BenchOptions {
  mode: Mode;
  /** Store sizes, largest first: the full table runs on the first, the scaling pass on the others. */
  guides: number[];
  groups: Set<ScenarioGroup>;
  reuse: boolean;
  warmupSeconds: number;
  seconds: number;
  /** Measured runs per server and scenario, taken in turn with the other servers; the median is kept. */
  rounds: number;
  connections: number;
  threads: number;
  webhookEvents: number;
  webhookEndpoints: number;
  latencyEventsPerSecond: number;
  latencySeconds: number;
  noisy: NoisyShape;
  /** Stores the webhook benchmarks run on. */
  webhookStores: ('sqlite' | 'postgres')[];
  /** The mixed benchmark's store: guides (over 200 teams in 10 organizations), and whether it also runs on PostgreSQL. */
  mixedGuides: number;
  mixedOnPostgres: boolean;
  /** The mixed benchmark's kinds of traffic (bench/mixed/urls.ts). */
  mixedTraffic: MixedTraffic[];
  /** Events in the outbox for the feed benchmark (GET /v1/events, issue 17). */
  feedEvents: number;
  /** Guides in the store the backup benchmark copies (issue 33): the read benchmark's store of that size. */
  backupGuides: number;
  /** Events (each with an attempt and an audit row) the footprint benchmark writes (issue 33). */
  footprintEvents: number;
  /** Write BENCHMARKS.md from this run (off for trial runs with --only). */
  writeReport: boolean;
  /** Counts every statement of the PostgreSQL drains (pg_stat_statements), at some cost to them. */
  pgStatements: boolean;
}

export const USAGE = `npm run bench -- [options]
  --quick            10,000 guides, short runs, 1,000 webhook events (about 9 minutes)
  --reuse            keep loaded stores in the temp directory and use them again
  --only LIST        comma-separated: ${SCENARIO_GROUPS.join(', ')}
                     (flood: new clients during floods of idle, trickling and busy connections,
                     about 90 s; needs ulimit -n 6000; feed: GET /v1/events pages next to
                     GET /v1/guides pages, and 200 clients holding wait=30)
  --no-webhooks      skip the webhook benchmarks (webhooks and noisy)
  --sqlite-only      run the webhook and mixed benchmarks on SQLite only, not also on PostgreSQL
  --pg-statements    count the statements of the PostgreSQL drains, per delivery (pg_stat_statements
                     with planning tracked; it slows PostgreSQL, so such a run is not published)
  --guides N[,N]     store sizes (default: 10000 quick; 1000000,10000 full)
  --mixed-guides N   the mixed benchmark's store (default: 10000 quick; 100000 full)
  --mixed-traffic LIST
                     the mixed benchmark's traffic: four-keys, one-key (default both)
  --seconds N        measured seconds per run (default 2 quick, 10 full)
  --warmup N         warm-up seconds per run (default 1 quick, 3 full)
  --events N         webhook events (default 1000 quick, 10000 full)
  --bad N            noisy: endpoints that hang, and as many that fail (default 200 quick, 1000 full)
  --feed-events N    feed: events in the outbox (default 100000 quick, 1000000 full)
  --backup-guides N  backup: the store npm run backup copies while reads and edits go on
                     (default 10000 quick, 1000000 full)
  --footprint-events N
                     footprint: events, attempts and audit rows written to measure their
                     bytes on SQLite and PostgreSQL (default 10000 quick, 100000 full)`;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number of at least 1, got "${raw}"`);
  return value;
}

/** A comma-separated choice among `allowed`; all of them when not given. */
function listOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T[] {
  if (raw === undefined) return [...allowed];
  const named = raw.split(',').map((part) => part.trim()).filter(Boolean);
  for (const each of named) if (!(allowed as readonly string[]).includes(each)) throw new Error(`--${name}: unknown "${each}"; pick from ${allowed.join(', ')}`);
  return named as T[];
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      reuse: { type: 'boolean', default: false },
      only: { type: 'string' },
      'no-webhooks': { type: 'boolean', default: false },
      guides: { type: 'string' },
      'mixed-guides': { type: 'string' },
      'mixed-traffic': { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      events: { type: 'string' },
      bad: { type: 'string' },
      'feed-events': { type: 'string' },
      'backup-guides': { type: 'string' },
      'footprint-events': { type: 'string' },
      'sqlite-only': { type: 'boolean', default: false },
      'pg-statements': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const quick = values.quick!;
  let groups = new Set<ScenarioGroup>(SCENARIO_GROUPS);
  if (values.only !== undefined) groups = new Set(listOf('only', values.only, SCENARIO_GROUPS));
  if (values['no-webhooks']) {
    groups.delete('webhooks');
    groups.delete('noisy');
  }
  const guides = values.guides
    ? values.guides.split(',').map((part) => positive('guides', part.trim(), 0))
    : quick
      ? [10_000]
      : [1_000_000, 10_000];
  return {
    mode: quick ? 'quick' : 'full',
    guides: guides.sort((a, b) => b - a),
    groups,
    reuse: values.reuse!,
    warmupSeconds: positive('warmup', values.warmup, quick ? 1 : 3),
    seconds: positive('seconds', values.seconds, quick ? 2 : 10),
    rounds: quick ? 1 : 3,
    connections: 64,
    threads: 2,
    webhookEvents: positive('events', values.events, quick ? 1000 : 10_000),
    webhookEndpoints: 10,
    latencyEventsPerSecond: quick ? 50 : 100,
    latencySeconds: quick ? 4 : 10,
    noisy: {
      hanging: positive('bad', values.bad, quick ? 200 : 1000),
      failing: positive('bad', values.bad, quick ? 200 : 1000),
      backlog: 3,
      healthy: 10,
      eventsPerSecond: 100,
      seconds: quick ? 10 : 30,
    },
    webhookStores: values['sqlite-only'] ? ['sqlite'] : ['sqlite', 'postgres'],
    // The shape production was described with: 100,000 guides over 200 teams in 10 organizations.
    mixedGuides: positive('mixed-guides', values['mixed-guides'], quick ? 10_000 : 100_000),
    mixedOnPostgres: !values['sqlite-only'],
    mixedTraffic: listOf('mixed-traffic', values['mixed-traffic'], MIXED_TRAFFIC),
    feedEvents: positive('feed-events', values['feed-events'], quick ? 100_000 : 1_000_000),
    backupGuides: positive('backup-guides', values['backup-guides'], quick ? 10_000 : 1_000_000),
    footprintEvents: positive('footprint-events', values['footprint-events'], quick ? 10_000 : 100_000),
    // A partial run must not overwrite the published table.
    pgStatements: values['pg-statements']!,
    writeReport:
      values.only === undefined &&
      !values['pg-statements'] &&
      !values['no-webhooks'] &&
      !values['sqlite-only'] &&
      values.guides === undefined &&
      values['mixed-guides'] === undefined &&
      values['backup-guides'] === undefined &&
      values['footprint-events'] === undefined,
  };
}

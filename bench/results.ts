// The shape of a run's results, as written to bench/results/*.json and read back by the report.
import type { WrkMeasurement } from './wrk.js';

export type Mode = 'quick' | 'full';

/** The four servers each read scenario runs against, in the order they run. */
export const TARGETS = ['service', 'serviceNoCache', 'ceilingSql', 'ceilingBytes'] as const;
export type Target = (typeof TARGETS)[number];

export const TARGET_LABELS: Record<Target, string> = {
  service: 'service',
  serviceNoCache: 'service, READ_CACHE=off',
  ceilingSql: 'ceiling: node:http + same SQL',
  ceilingBytes: 'ceiling: node:http + fixed bytes',
};

export interface TargetMeasurement extends WrkMeasurement {
  /** The largest resident set of the target process sampled every 100 ms during the measured run, MiB. */
  peakRssMb: number;
}

export interface ReadScenarioResult {
  id: string;
  label: string;
  /** Guides in the store this ran on. */
  guides: number;
  path: string;
  /** Size of one answer body: the service's and the SQL ceiling's (the bytes ceiling writes the service's). */
  responseBytes: { service: number; ceilingSql: number };
  /** True when the SQL ceiling's body is byte for byte the service's. */
  sameBody: boolean;
  targets: Partial<Record<Target, TargetMeasurement>>;
  /**
   * Searches only: the service's latency with one connection, one request at a time. Under 64 connections
   * a saturated process's median is the queue's (64 requests' work), which says how many requests a
   * second it answers rather than how long one takes.
   */
  alone?: Partial<Record<'service' | 'serviceNoCache', { p50Ms: number; p99Ms: number; requestsPerSecond: number }>>;
}

export interface ProcessPeak {
  target: Target;
  guides: number;
  /** VmHWM at the end of the pass over one store: the peak over its whole life, warm-ups included, MiB. */
  peakMb: number;
}

export interface SearchPlan {
  guides: number;
  term: string;
  /** EXPLAIN QUERY PLAN lines of every statement the search ran. */
  plan: string[];
  tableScan: boolean;
}

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** ROLE=worker processes draining a backlog written before they started. */
export interface WebhookDrain {
  workers: number;
  delivered: number;
  /** Deliveries per second from the first arrival to the last. */
  deliveriesPerSecond: number;
  /** Seconds from the workers' start to the last arrival. */
  totalSeconds: number;
  /** Seconds spent making the events through the management API. */
  writeSeconds: number;
  timedOut: boolean;
  /** The workers' largest sampled resident set, MiB. */
  peakRssMb: number;
  /** How busy the machine's cores were while deliveries flowed (1: all of them, all the time). */
  cpuBusy: number;
  /** CPU seconds used meanwhile by the workers, the receiver and (on PostgreSQL) the database server. */
  cpuSeconds: Record<string, number>;
  /** Seconds from the first arrival to the last, over which the CPU was measured. */
  measuredSeconds: number;
  /** With --pg-statements, on PostgreSQL: what the database did per delivery. */
  statements?: StatementProfile;
}

/** What PostgreSQL did for a drain's deliveries, from pg_stat_statements (bench/webhooks/pg-statements.ts). */
export interface StatementProfile {
  deliveries: number;
  /** Distinct statement texts. */
  texts: number;
  /** Statements (round trips, BEGIN and COMMIT included) per delivery. */
  callsPerDelivery: number;
  plansPerDelivery: number;
  execUsPerDelivery: number;
  planUsPerDelivery: number;
  transactionsPerDelivery: number;
  /** The kinds of statement (their texts' start) that took the most of PostgreSQL's time. */
  top: { statement: string; texts: number; callsPerDelivery: number; plansPerCall: number; rowsPerCall: number; execUsPerDelivery: number; planUsPerDelivery: number }[];
}

export interface WebhookStoreResult {
  store: 'sqlite' | 'postgres';
  endpoints: number;
  events: number;
  expectedDeliveries: number;
  /** One worker; on PostgreSQL also two, on a second database with the same events. */
  drains: WebhookDrain[];
  latency: {
    eventsPerSecond: number;
    events: number;
    /** Which processes delivered. */
    processes: string;
    delivered: number;
    /** Arrival minus the event's created_at, stamped inside the committing transaction (ms precision). */
    fromCreatedAt: LatencySummary;
    /** Arrival minus the moment the write's response reached the client (can be negative: sent before the answer). */
    fromResponse: LatencySummary;
    timedOut: boolean;
  };
  ceiling: {
    concurrency: number;
    requests: number;
    deliveriesPerSecond: number;
    totalSeconds: number;
    /** CPU seconds used meanwhile by the undici loop (the bench's own process) and the receiver; absent before issue 36. */
    cpuSeconds?: Record<string, number>;
  };
  /** The machine's cores, which bound the drain with the CPU each delivery takes; absent before issue 36. */
  cores?: number;
  /** The service's largest sampled resident set during the webhook runs, and VmHWM at the end of the latency run, MiB. */
  peakRssMb: number;
  hwmMb: number;
}

/** The bad day's shape: how many endpoints hang and fail, and the healthy stream beside them. */
export interface NoisyShape {
  /** Endpoints that never answer, and endpoints that answer 500; both 0 for the control. */
  hanging: number;
  failing: number;
  /** Events waiting for each bad endpoint; with its ping they fall due at once, a few seconds into the stream. */
  backlog: number;
  /** Healthy endpoints, the events per second they get, and for how long from the wave on (after a warm-up). */
  healthy: number;
  eventsPerSecond: number;
  seconds: number;
}

/** The bad day's control run: the healthy stream alone. */
export const isControl = (run: NoisyShape) => run.hanging + run.failing === 0;

/** The bad day: hanging and failing endpoints beside healthy ones. */
/** The bad day's stream of writes, made as an integrator makes them (bench/webhooks/noisy-bench.ts). */
export interface StreamWrites {
  asked: number;
  written: number;
  /** Times a write was sent again, by why: the status of the answer (503, 409) or the connection's error code. */
  retried: Record<string, number>;
  /** Writes still refused when the bench gave up on them. */
  neverWritten: number;
}

export interface NoisyResult extends NoisyShape {
  store: 'sqlite' | 'postgres';
  processes: string;
  /** Healthy deliveries of the events written from the bad wave on: arrival minus the event's created_at. */
  healthyLatency: LatencySummary;
  /** The same for the events written before the wave, while the processes warmed up, and how long that was (absent from older results). */
  warmUpLatency?: LatencySummary;
  warmUpSeconds?: number;
  /** Absent from results written before the stream's writes were retried; every write was answered 2xx then. */
  writes?: StreamWrites;
  healthyExpected: number;
  /** Distinct (endpoint, event) pairs that arrived. */
  healthyDelivered: number;
  /** Healthy deliveries that arrived more than once. */
  duplicates: number;
  timedOut: boolean;
  /** Every request the receiver got (answered, failed, left hanging), per second of the run. */
  requestsPerSecond: number;
  requests: { answered: number; failed: number; hanging: number };
  /** Largest resident set and most open sockets of a delivering process, sampled every 100 ms. */
  peakRssMb: number;
  peakSockets: number;
  /**
   * CPU seconds a second over the stream, by group: `workers` (the delivering processes together), the
   * API process and PostgreSQL (on PostgreSQL), the receiver, the bench writing the stream; and how busy
   * the machine's cores were (1 = all) (absent from older results).
   */
  cpuPerSecond?: Record<string, number>;
  machineBusy?: number;
}

/** What a mixed run asked for: each kind of v1 request, by the number of distinct URLs of that kind. */
export const MIXED_URL_KINDS = ['list', 'deep', 'search', 'team', 'detail', 'permalink', 'teams', 'members'] as const;
export type MixedUrlKind = (typeof MIXED_URL_KINDS)[number];

/** Whose URLs the mixed benchmark asks for (bench/mixed/urls.ts): four keys' or one organization key's. */
export const MIXED_TRAFFIC = ['four-keys', 'one-key'] as const;
export type MixedTraffic = (typeof MIXED_TRAFFIC)[number];

/** A run's or a URL list's traffic: results written before issue 36 name none, and were four keys'. */
export const trafficOf = (item: { traffic?: MixedTraffic }): MixedTraffic => item.traffic ?? 'four-keys';
/** Whether a run on PostgreSQL counted rate limits in Redis: results written before issue 36 did. */
export const countsInRedis = (run: { redis?: boolean }): boolean => run.redis ?? true;

/** The URL list of the mixed benchmark on one store, gathered through the API before the runs. */
export interface MixedUrls {
  store: 'sqlite' | 'postgres';
  /** Absent from results written before issue 36: four keys. */
  traffic?: MixedTraffic;
  /** Seconds the bulk loader took on this store. */
  loadSeconds: number;
  total: number;
  byKind: Record<MixedUrlKind, number>;
  /** Each key: what it reaches and how many of the URLs are its own. */
  keys: { label: string; teams: number; guides: number; urls: number }[];
  /** Distinct guides asked for by id; the writer edits among these. */
  detailGuides: number;
}

/** One measured run of the mixed benchmark: one store, one or two service processes, one edit rate. */
export interface MixedRun {
  store: 'sqlite' | 'postgres';
  /** Absent from results written before issue 36: four keys. */
  traffic?: MixedTraffic;
  /** PostgreSQL only: whether rate limits count in Redis (REDIS_URL) or in the database. Absent before issue 36: with Redis. */
  redis?: boolean;
  processes: number;
  readCache: boolean;
  editsPerSecond: number;
  /** wrk's figures over all its processes: requests and req/s added, percentiles the worse of them. */
  load: WrkMeasurement;
  /** With two service processes, one wrk each: each one's own figures. */
  perProcess: WrkMeasurement[];
  /** Edits through the management API while wrk ran: answered 2xx, and not. */
  writes: { made: number; failed: number };
  /** The largest resident set of each service process, sampled every 100 ms during the run, MiB. */
  rssMb: number[];
  /** How busy the machine's cores were (1 = all of them) and the CPU seconds a second the service processes used together, over the median round (absent from older results). */
  machineBusy?: number;
  serviceCpuPerSecond?: number;
}

export interface MixedResult {
  shape: { guides: number; teams: number; organizations: number };
  /** How two service processes are put under load, in words. */
  twoProcesses: string;
  urls: MixedUrls[];
  runs: MixedRun[];
}

/** The flood benchmark's servers: the service as built, and bare node:http without and with its connection limits. */
export type FloodTarget = 'service' | 'node:http' | 'node:http, limited';
export type FloodKind = 'idle' | 'trickle' | 'busy';

/** New clients while one client (127.0.0.1) floods a server with connections. */
export interface FloodRun {
  target: FloodTarget;
  flood: FloodKind;
  /** The flood's connections, and how long it lasted. */
  connections: number;
  seconds: number;
  /** New clients (127.0.0.2), from connect() to the first byte of the answer; one without a 200 counts as 30 s. */
  newClients: LatencySummary;
  /** Their connect() alone: about 1 s or 3 s is a connection attempt the kernel dropped and the client repeated. */
  connect: LatencySummary;
  /** New clients answered other than 200, or not at all. */
  unanswered: number;
  /** busy: what wrk got; idle and trickle: the flood's connections that got through, closed by the server, and never made. */
  floodClient: { requestsPerSecond: number; timeouts: number } | { connected: number; closedByServer: number; failed: number };
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryMb: number;
  node: string;
  wrk: string;
  kernel: string;
  loadAverage: number[];
}

export interface StoreInfo {
  guides: number;
  loadSeconds: number;
  reused: boolean;
}

import type { FeedBenchResult } from './feed/feed-bench.js';

export interface BenchResults {
  mode: Mode;
  startedAt: string;
  finishedAt: string;
  seconds: number;
  command: string;
  gitCommit: string;
  gitDirty: boolean;
  machine: Machine;
  load: { connections: number; threads: number; warmupSeconds: number; seconds: number; rounds?: number };
  stores: StoreInfo[];
  reads: ReadScenarioResult[];
  processPeaks: ProcessPeak[];
  searchPlans: SearchPlan[];
  webhooks: WebhookStoreResult[];
  noisy: NoisyResult[];
  /** Absent from results written before the mixed benchmark existed. */
  mixed?: MixedResult;
  /** Absent from results written before the flood benchmark existed. */
  flood?: FloodRun[];
  /** The events feed (issue 17); absent from results written before it existed. */
  feed?: FeedBenchResult;
  /** Backups of the embedded store while the service runs (issue 33); absent from results written before it existed. */
  backup?: BackupBenchResult;
  /** Disk per event, delivery attempt and audit row (issue 33); absent from results written before it existed. */
  footprint?: FootprintResult;
  /** What recording an audit event adds to a management write (issue 33); absent from results written before it existed. */
  audit?: AuditStoreResult[];
  /** What an Idempotency-Key adds to a management write (issue 42); absent from results written before it existed. */
  idempotency?: IdempotencyStoreResult[];
  /** What did not run or ran wrong, in words. */
  problems: string[];
}

/** How the backup benchmark copied the store: not at all, by `npm run backup`, or by a way the command did not take. */
export type BackupMethod = 'none' | 'command' | 'vacuum-into' | 'backup-api';

/** One copy of the store. */
export interface BackupCopy {
  /** Seconds copying (the command's own figure, without its check). */
  seconds: number;
  /** The command's PRAGMA quick_check of the copy; null for the others. */
  checkSeconds: number | null;
  /** From the process's start to its end. */
  wallSeconds: number;
  /** The copy's size; 0 when it did not finish. */
  bytes: number;
  finished: boolean;
  /** The backup API alone: how often it started over, and the largest share of the store it had copied (0–100). */
  restarts: number | null;
  furthestPercent: number | null;
}

/** One measured run of the backup benchmark: reads and edits for the run's seconds, copies back to back meanwhile (none for `none`). */
export interface BackupRun {
  method: BackupMethod;
  reads: WrkMeasurement;
  writes: { made: number; failed: number };
  /** The most of the -wal not yet checkpointed into the database file at any moment, bytes (from the wal-index header). */
  uncheckpointedLogPeakBytes: number;
  copies: BackupCopy[];
}

export interface BackupBenchResult {
  guides: number;
  /** The database file's size when the benchmark began. */
  storeBytes: number;
  editsPerSecond: number;
  urls: number;
  /** Rounds of (no backup, the command); the other methods run once. */
  rounds: number;
  /** Measured seconds per run. */
  seconds: number;
  /** The -wal file's size at the end (it does not shrink). */
  walFileBytes: number;
  runs: BackupRun[];
}

/** Bytes a row takes with its indexes, on one store. */
export interface FootprintStore {
  store: 'sqlite' | 'postgres';
  /** Rows written of each kind. */
  events: number;
  eventBytes: number;
  attemptBytes: number;
  /** The estimate for an audit event (copies of the one the guide's creation recorded). */
  auditBytes: number;
  /** SQLite: what the file grew by, per event with its attempt and audit event; null on PostgreSQL. */
  fileBytesPerEvent: number | null;
  /** What the rows hold: the event's JSON payload, the attempt's request headers, the audit event's text. */
  payloadBytes: number;
  requestHeadersBytes: number;
  auditTextBytes: number;
}

/** One store's audit cost (bench/audit/audit-bench.ts). */
export interface AuditStoreResult {
  store: 'sqlite' | 'postgres';
  writes: number;
  /** Mean time of one guide edit at the domain, without and with its audit event, in µs. */
  withoutUs: number;
  withUs: number;
  /** The median of the ratios of blocks timed side by side (bench/paired-blocks.ts; withUs / withoutUs before 2026-11-29). */
  ratio: number;
  /** Mean time of one PATCH through the HTTP stack, with its audit event, in µs. */
  pathUs: number;
  /** pathUs / (pathUs - (withUs - withoutUs)): what the event adds to the write path. */
  pathRatio: number;
}

/** One store's cost of an Idempotency-Key (bench/idempotency/idempotency-bench.ts). */
export interface IdempotencyStoreResult {
  store: 'sqlite' | 'postgres';
  writes: number;
  /** Mean time of one POST /admin/v1/guides through the HTTP stack, without and with a key, in µs. */
  withoutUs: number;
  withUs: number;
  /** The median of the ratios of blocks timed side by side (bench/paired-blocks.ts). */
  ratio: number;
  /** Those ratios' first and third quartiles (absent in runs before 2026-11-29's second). */
  quartiles?: [number, number];
}

export interface FootprintResult {
  events: number;
  stores: FootprintStore[];
}

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

export interface WebhookResult {
  endpoints: number;
  events: number;
  expectedDeliveries: number;
  throughput: {
    delivered: number;
    /** Deliveries per second from the first arrival to the last. */
    deliveriesPerSecond: number;
    /** Seconds from the first write to the last arrival. */
    totalSeconds: number;
    /** Seconds spent making the events through the management API. */
    writeSeconds: number;
    timedOut: boolean;
  };
  latency: {
    eventsPerSecond: number;
    events: number;
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
  };
  /** The service's largest sampled resident set during the webhook run, and VmHWM at its end, MiB. */
  peakRssMb: number;
  hwmMb: number;
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
  webhooks: WebhookResult | null;
  /** What did not run or ran wrong, in words. */
  problems: string[];
}

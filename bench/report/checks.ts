// The targets of issues 5 and 11 and of the mixed benchmark, each checked against one run's results. Pure:
// the report and its unit test read the same verdicts.
import { type BenchResults, countsInRedis, isControl, type MixedResult, type MixedRun, type MixedTraffic, type ReadScenarioResult, type Target, trafficOf } from '../results.js';
import { FIRST_PAGE_OF } from '../reads/scenarios.js';

export interface Check {
  what: string;
  measured: number;
  /** How the measured value is shown: a ratio, milliseconds or MiB. */
  unit: 'ratio' | 'ms' | 'MiB' | 'bool' | 'count';
  target: string;
  pass: boolean;
}

/** Groups whose SQL-vs-SQL ratio and tail latency issue 5 sets targets for. */
const SQL_BOUND = /^(list|deep|detail|members)/;

export const storeName = (store: 'sqlite' | 'postgres') => (store === 'sqlite' ? 'SQLite' : 'PostgreSQL');

/** How a mixed run's store is named in tables and checks: PostgreSQL says where it counts rate limits. */
export const describeStore = (run: { store: 'sqlite' | 'postgres'; redis?: boolean }) =>
  run.store === 'sqlite' ? storeName(run.store) : `${storeName(run.store)} ${countsInRedis(run) ? 'with' : 'without'} Redis`;

export function ratio(numerator: number | undefined, denominator: number | undefined): number {
  if (numerator === undefined || denominator === undefined || !(denominator > 0)) return NaN;
  return numerator / denominator;
}

const rps = (scenario: ReadScenarioResult | undefined, target: Target) => scenario?.targets[target]?.requestsPerSecond;

/** The store the main table describes: the largest one measured. */
export function mainGuides(results: BenchResults): number {
  return Math.max(0, ...results.reads.map((read) => read.guides));
}

export function checks(results: BenchResults): Check[] {
  const out: Check[] = [];
  const main = mainGuides(results);
  const smallest = Math.min(...results.reads.map((read) => read.guides));
  const at = (guides: number) => results.reads.filter((read) => read.guides === guides);
  const find = (id: string, guides: number) => results.reads.find((read) => read.id === id && read.guides === guides);

  for (const read of at(main)) {
    if (SQL_BOUND.test(read.id)) {
      const value = ratio(rps(read, 'serviceNoCache'), rps(read, 'ceilingSql'));
      out.push({ what: `${read.id}: service (READ_CACHE=off) / SQL ceiling`, measured: value, unit: 'ratio', target: '≥ 0.85', pass: value >= 0.85 });
      const service = read.targets.service;
      if (service) {
        const tail = ratio(service.p99Ms, service.p50Ms);
        out.push({ what: `${read.id}: service p99 / p50`, measured: tail, unit: 'ratio', target: '≤ 4', pass: tail <= 4 });
      }
    }
  }
  // Issue 12: without the cache, an organization's list costs about what a team's does, and the tail
  // stays within four times the median at the load's concurrency.
  const organizationList = find('list-org', main);
  const teamList = find('list-team', main);
  if (organizationList && teamList) {
    const value = ratio(rps(organizationList, 'serviceNoCache'), rps(teamList, 'serviceNoCache'));
    out.push({ what: 'list-org / list-team: READ_CACHE=off req/s', measured: value, unit: 'ratio', target: '≥ 0.80', pass: value >= 0.8 });
  }
  for (const read of at(main)) {
    const uncached = read.targets.serviceNoCache;
    if (!uncached) continue;
    const tail = ratio(uncached.p99Ms, uncached.p50Ms);
    out.push({ what: `${read.id}: READ_CACHE=off p99 / p50`, measured: tail, unit: 'ratio', target: '≤ 4', pass: tail <= 4 });
  }
  for (const [deepId, firstId] of Object.entries(FIRST_PAGE_OF)) {
    const deep = find(deepId, main);
    const first = find(firstId, main);
    if (!deep || !first) continue;
    for (const target of ['service', 'serviceNoCache'] as const) {
      const value = ratio(rps(deep, target), rps(first, target));
      out.push({ what: `${deepId} / ${firstId}: ${target === 'service' ? 'service' : 'READ_CACHE=off'} req/s`, measured: value, unit: 'ratio', target: '≥ 0.90', pass: value >= 0.9 });
    }
  }
  if (smallest < main) {
    for (const read of at(main).filter((scenario) => /^(list|search)/.test(scenario.id))) {
      const small = find(read.id, smallest);
      for (const target of ['service', 'serviceNoCache'] as const) {
        const value = ratio(rps(read, target), rps(small, target));
        out.push({ what: `${read.id}: ${main.toLocaleString('en')} / ${smallest.toLocaleString('en')} guides, ${target === 'service' ? 'service' : 'READ_CACHE=off'} req/s`, measured: value, unit: 'ratio', target: '≥ 0.80', pass: value >= 0.8 });
      }
    }
  }
  // A search's latency is measured one request at a time (ReadScenarioResult.alone); runs from before
  // that have only the 64-connection median, which is the queue's.
  for (const read of at(main).filter((scenario) => scenario.id.startsWith('search'))) {
    for (const target of ['service', 'serviceNoCache'] as const) {
      const alone = read.alone?.[target]?.p50Ms;
      const p50 = alone ?? read.targets[target]?.p50Ms;
      if (p50 === undefined) continue;
      const how = alone === undefined ? '' : ', one connection';
      out.push({ what: `${read.id} at ${main.toLocaleString('en')} guides: ${target === 'service' ? 'service' : 'READ_CACHE=off'} p50${how}`, measured: p50, unit: 'ms', target: '< 10 ms', pass: p50 < 10 });
    }
  }
  for (const plan of results.searchPlans.filter((entry) => entry.guides === main)) {
    out.push({ what: `search "${plan.term}": EXPLAIN shows a table scan`, measured: plan.tableScan ? 1 : 0, unit: 'bool', target: 'no', pass: !plan.tableScan });
  }
  for (const w of results.webhooks) {
    const store = storeName(w.store);
    const best = w.drains[w.drains.length - 1]!;
    const value = ratio(best.deliveriesPerSecond, w.ceiling.deliveriesPerSecond);
    const workers = `${best.workers} worker${best.workers > 1 ? 's' : ''}`;
    out.push({ what: `webhooks (${store}, ${workers}): deliveries/s / undici ceiling`, measured: value, unit: 'ratio', target: '≥ 0.6', pass: value >= 0.6 && !best.timedOut });
    if (w.drains.length > 1) {
      const scale = ratio(best.deliveriesPerSecond, w.drains[0]!.deliveriesPerSecond);
      out.push({ what: `webhooks (${store}): ${workers} / one worker, deliveries/s`, measured: scale, unit: 'ratio', target: '≥ 1.6', pass: scale >= 1.6 });
    }
    out.push({ what: `webhooks (${store}): first-attempt latency p50`, measured: w.latency.fromCreatedAt.p50Ms, unit: 'ms', target: '< 20 ms', pass: w.latency.fromCreatedAt.p50Ms < 20 });
    out.push({ what: `webhooks (${store}): first-attempt latency p99`, measured: w.latency.fromCreatedAt.p99Ms, unit: 'ms', target: '< 100 ms', pass: w.latency.fromCreatedAt.p99Ms < 100 && !w.latency.timedOut });
  }
  for (const n of results.noisy) {
    const store = isControl(n) ? `${storeName(n.store)}, control: no bad endpoint` : storeName(n.store);
    const l = n.healthyLatency;
    out.push({ what: `bad day (${store}): healthy latency p50`, measured: l.p50Ms, unit: 'ms', target: '< 50 ms', pass: l.p50Ms < 50 });
    out.push({ what: `bad day (${store}): healthy latency p99`, measured: l.p99Ms, unit: 'ms', target: '< 500 ms', pass: l.p99Ms < 500 });
    out.push({ what: `bad day (${store}): healthy latency max`, measured: l.maxMs, unit: 'ms', target: '< 2000 ms', pass: l.maxMs < 2000 });
    out.push({ what: `bad day (${store}): delivering process RSS`, measured: n.peakRssMb, unit: 'MiB', target: '< 300 MiB', pass: n.peakRssMb < 300 });
    if (n.writes) {
      const refused = Object.values(n.writes.retried).reduce((sum, times) => sum + times, 0);
      out.push({ what: `bad day (${store}): healthy writes refused (503, 409 or no connection)`, measured: refused, unit: 'count', target: '0', pass: refused === 0 });
    }
    const lost = n.healthyExpected - n.healthyDelivered;
    out.push({ what: `bad day (${store}): healthy events lost or sent twice`, measured: lost + n.duplicates, unit: 'count', target: '0', pass: lost === 0 && n.duplicates === 0 });
  }
  if (results.mixed) out.push(...mixedChecks(results.mixed));
  for (const audit of results.audit ?? []) {
    out.push({ what: `audit (${storeName(audit.store)}): a management write with its audit event / without, on the write path`, measured: audit.pathRatio, unit: 'ratio', target: '≤ 1.1', pass: audit.pathRatio <= 1.1 });
  }
  for (const keyed of results.idempotency ?? []) {
    out.push({ what: `idempotency (${storeName(keyed.store)}): a management write with an Idempotency-Key / without`, measured: keyed.ratio, unit: 'ratio', target: '≤ 1.1', pass: keyed.ratio <= 1.1 });
  }
  const servicePeaks = results.processPeaks.filter((peak) => peak.target === 'service' || peak.target === 'serviceNoCache').map((peak) => peak.peakMb);
  for (const w of results.webhooks) servicePeaks.push(w.hwmMb);
  if (servicePeaks.length > 0) {
    const highest = Math.max(...servicePeaks);
    out.push({ what: 'service peak RSS (VmHWM), any run', measured: highest, unit: 'MiB', target: '< 300 MiB', pass: highest < 300 });
  }
  return out;
}

/** Which mixed runs a check compares; a run written before issue 36 is four keys' traffic, on PostgreSQL with Redis. */
interface MixedPick {
  store: MixedRun['store'];
  traffic: MixedTraffic;
  redis?: boolean;
  processes: number;
  edits: number;
}

function mixedRun(mixed: MixedResult, pick: MixedPick): MixedRun | undefined {
  return mixed.runs.find(
    (run) =>
      run.store === pick.store &&
      trafficOf(run) === pick.traffic &&
      (pick.store === 'sqlite' || countsInRedis(run) === countsInRedis(pick)) &&
      run.processes === pick.processes &&
      run.readCache &&
      run.editsPerSecond === pick.edits,
  );
}

/** Edits against none, PostgreSQL against SQLite, two processes against one, and memory; a ratio whose runs are missing is left out. */
function mixedChecks(mixed: MixedResult): Check[] {
  const out: Check[] = [];
  const rps = (pick: MixedPick) => mixedRun(mixed, pick)?.load.requestsPerSecond;
  const compare = (what: string, numerator: number | undefined, denominator: number | undefined, goal: number) => {
    if (numerator === undefined || denominator === undefined) return;
    const value = ratio(numerator, denominator);
    out.push({ what, measured: value, unit: 'ratio', target: `≥ ${goal}`, pass: value >= goal });
  };
  const four = { traffic: 'four-keys', processes: 1, edits: 0 } as const;
  for (const store of ['sqlite', 'postgres'] as const) {
    compare(`mixed (${storeName(store)}, one process): 1 / 0 edits/s, req/s`, rps({ ...four, store, edits: 1 }), rps({ ...four, store }), 0.8);
    compare(`mixed (${storeName(store)}, one process): 10 / 0 edits/s, req/s`, rps({ ...four, store, edits: 10 }), rps({ ...four, store }), 0.6);
  }
  compare('mixed, 0 edits/s: PostgreSQL / SQLite, one process, req/s', rps({ ...four, store: 'postgres' }), rps({ ...four, store: 'sqlite' }), 0.6);
  compare('mixed (PostgreSQL), 0 edits/s: two processes / one, req/s', rps({ ...four, store: 'postgres', processes: 2 }), rps({ ...four, store: 'postgres' }), 1.3);
  // Issue 36: one organization key's traffic, every request in one rate-limit window.
  const one = { traffic: 'one-key', processes: 1, edits: 0 } as const;
  const sqlite = rps({ ...one, store: 'sqlite' });
  for (const [redis, goal] of [[true, 0.8], [false, 0.6]] as const) {
    const store = `PostgreSQL ${redis ? 'with' : 'without'} Redis`;
    compare(`mixed, one key, 0 edits/s: ${store} / SQLite, one process, req/s`, rps({ ...one, store: 'postgres', redis }), sqlite, goal);
    compare(`mixed, one key (${store}), 0 edits/s: two processes / one, req/s`, rps({ ...one, store: 'postgres', redis, processes: 2 }), rps({ ...one, store: 'postgres', redis }), 1.3);
  }
  for (const store of ['sqlite', 'postgres'] as const) {
    const rss = mixed.runs.filter((run) => run.store === store).flatMap((run) => run.rssMb);
    if (rss.length === 0) continue;
    const highest = Math.max(...rss);
    out.push({ what: `mixed (${storeName(store)}): RSS of a service process, highest`, measured: highest, unit: 'MiB', target: '< 300 MiB', pass: highest < 300 });
  }
  return out;
}

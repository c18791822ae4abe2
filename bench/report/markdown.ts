// BENCHMARKS.md from the latest results: the targets with their verdicts, the read table (service,
// ceilings, ratios, memory), scaling, search plans, webhooks, the machine and the command. Pure: it
// takes the results and the hand-written CHANGES text and answers the document.
import {
  type AuditStoreResult,
  type IdempotencyStoreResult,
  type BackupBenchResult,
  type BackupMethod,
  type BackupRun,
  type BenchResults,
  countsInRedis,
  type FloodRun,
  type FootprintResult,
  isControl,
  type MixedResult,
  type MixedRun,
  type MixedUrls,
  type NoisyResult,
  type ReadScenarioResult,
  TARGET_LABELS,
  TARGETS,
  trafficOf,
  type WebhookStoreResult,
} from '../results.js';
import { SCENARIO_GROUPS } from '../options.js';
import { type Check, checks, describeStore, mainGuides, ratio, storeName } from './checks.js';

const fixed = (value: number | undefined, digits: number) => (value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits));
const whole = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '–' : Math.round(value).toLocaleString('en'));
const count = (value: number) => value.toLocaleString('en');

function measured(check: Check): string {
  if (check.unit === 'bool') return check.measured ? 'yes' : 'no';
  if (check.unit === 'ms') return `${fixed(check.measured, 2)} ms`;
  if (check.unit === 'MiB') return `${fixed(check.measured, 0)} MiB`;
  if (check.unit === 'count') return count(check.measured);
  return fixed(check.measured, 2);
}

/** A plan's distinct steps, per-arm names (d0…d19, t0…) folded to dN/tN and repeats counted: one line per search. */
export function distinctSteps(plan: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of plan) {
    const folded = line.replace(/\b([a-z])\d+\b/g, '$1N');
    counts.set(folded, (counts.get(folded) ?? 0) + 1);
  }
  return [...counts].map(([line, times]) => (times > 1 ? `${line} ×${times}` : line));
}

function checksTable(list: Check[]): string[] {
  const lines = ['| target | measured | goal | met |', '|---|---:|---|:-:|'];
  for (const check of list) lines.push(`| ${check.what} | ${measured(check)} | ${check.target} | ${check.pass ? 'yes' : '**no**'} |`);
  return lines;
}

function readsTable(reads: ReadScenarioResult[]): string[] {
  const lines = [
    '| scenario | service req/s | READ_CACHE=off req/s | SQL ceiling req/s | bytes ceiling req/s | off / SQL | service / SQL | service / bytes | service p50 / p99 ms | off p50 / p99 ms | service RSS MiB | body bytes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const read of reads) {
    const t = read.targets;
    lines.push(
      `| ${read.label} | ${whole(t.service?.requestsPerSecond)} | ${whole(t.serviceNoCache?.requestsPerSecond)} | ${whole(t.ceilingSql?.requestsPerSecond)} | ${whole(t.ceilingBytes?.requestsPerSecond)} ` +
        `| ${fixed(ratio(t.serviceNoCache?.requestsPerSecond, t.ceilingSql?.requestsPerSecond), 2)} ` +
        `| ${fixed(ratio(t.service?.requestsPerSecond, t.ceilingSql?.requestsPerSecond), 2)} ` +
        `| ${fixed(ratio(t.service?.requestsPerSecond, t.ceilingBytes?.requestsPerSecond), 2)} ` +
        `| ${fixed(t.service?.p50Ms, 2)} / ${fixed(t.service?.p99Ms, 2)} | ${fixed(t.serviceNoCache?.p50Ms, 2)} / ${fixed(t.serviceNoCache?.p99Ms, 2)} ` +
        `| ${fixed(t.service?.peakRssMb, 0)} | ${count(read.responseBytes.service)}${read.sameBody ? '' : ` (SQL ceiling: ${count(read.responseBytes.ceilingSql)})`} |`,
    );
  }
  return lines;
}

function runSection(results: BenchResults, heading: string): string[] {
  const main = mainGuides(results);
  const sizes = [...new Set(results.reads.map((read) => read.guides))].sort((a, b) => b - a);
  const m = results.machine;
  const lines: string[] = [
    `## ${heading}`,
    '',
    `\`${results.command}\` on ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC, commit ${results.gitCommit}${results.gitDirty ? ' with uncommitted changes under src/' : ''}, ` +
      `${Math.round(results.seconds)} s in all. Load: wrk, ${results.load.connections} connections, ${results.load.threads} threads, ` +
      `${results.load.warmupSeconds} s warm-up then ${results.load.seconds} s measured, per server and scenario` +
        ((results.load.rounds ?? 1) > 1
          ? `, in ${results.load.rounds} rounds in which the four servers take turns; the median round is shown.`
          : '.'),
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}, ${count(m.memoryMb)} MiB, Linux ${m.kernel}, Node.js ${m.node}, ${m.wrk}; load average at start ${m.loadAverage.join(' ')}. ` +
      'wrk and the server under load share the same cores.',
    '',
    `Stores: ${results.stores.map((store) => `${count(store.guides)} guides (${store.reused ? 'reused, loaded' : 'loaded'} in ${store.loadSeconds} s)`).join(', ')}.`,
    '',
    '### Targets',
    '',
    ...checksTable(checks(results)),
    '',
  ];
  for (const guides of sizes) {
    const reads = results.reads.filter((read) => read.guides === guides);
    if (reads.length === 0) continue;
    lines.push(`### Reads at ${count(guides)} guides${guides === main ? '' : ' (scaling)'}`, '', ...readsTable(reads), '');
  }
  if (results.searchPlans.length > 0) {
    lines.push('### Search plans (EXPLAIN QUERY PLAN of the statements one search runs)', '');
    for (const plan of results.searchPlans) {
      lines.push(`- ${count(plan.guides)} guides, \`q=${plan.term}\`${plan.tableScan ? ' — **table scan**' : ''}: ${distinctSteps(plan.plan).map((line) => `\`${line}\``).join('; ')}`);
    }
    lines.push('');
  }
  if (results.mixed) lines.push(...mixedSection(results.mixed));
  for (const w of results.webhooks) lines.push(...webhookSection(w));
  if (results.noisy.length > 0) lines.push(...noisySection(results.noisy));
  if (results.flood && results.flood.length > 0) lines.push(...floodSection(results.flood));
  if (results.backup) lines.push(...backupSection(results.backup));
  if (results.footprint && results.footprint.stores.length > 0) lines.push(...footprintSection(results.footprint));
  if (results.audit && results.audit.length > 0) lines.push(...auditSection(results.audit));
  if (results.idempotency && results.idempotency.length > 0) lines.push(...idempotencySection(results.idempotency));
  lines.push('### Peak memory per server (VmHWM over a whole pass, warm-ups included)', '', '| guides | ' + TARGETS.map((target) => TARGET_LABELS[target]).join(' | ') + ' |', '|---|' + TARGETS.map(() => '---:').join('|') + '|');
  for (const guides of sizes) {
    const row = TARGETS.map((target) => fixed(results.processPeaks.find((peak) => peak.guides === guides && peak.target === target)?.peakMb, 0));
    lines.push(`| ${count(guides)} | ${row.join(' | ')} |`);
  }
  lines.push('');
  if (results.problems.length > 0) lines.push('### Problems in this run', '', ...results.problems.map((problem) => `- ${problem}`), '');
  return lines;
}

function mixedSection(mixed: MixedResult): string[] {
  const { guides, teams, organizations } = mixed.shape;
  const lines = [
    `### Mixed: thousands of distinct URLs from four keys or one, with edits meanwhile (${count(guides)} guides, ${count(teams)} teams in ${count(organizations)} organizations)`,
    '',
    '| traffic | store | service processes | edits/s | req/s | / 0 edits/s | p50 ms | p99 ms | non-2xx | edits made / failed | RSS MiB per process | machine busy · service CPU s/s |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  const sameSetup = (a: MixedRun, b: MixedRun) =>
    a.store === b.store && trafficOf(a) === trafficOf(b) && countsInRedis(a) === countsInRedis(b) && a.processes === b.processes && a.readCache === b.readCache;
  for (const run of mixed.runs) {
    const still = mixed.runs.find((other) => sameSetup(other, run) && other.editsPerSecond === 0);
    const e = run.load.errors;
    const socketErrors = e.connect + e.read + e.write + e.timeout;
    lines.push(
      `| ${trafficOf(run)} | ${describeStore(run)}${run.readCache ? '' : ', READ_CACHE=off'} | ${run.processes} | ${run.editsPerSecond} | ${whole(run.load.requestsPerSecond)} ` +
        `| ${fixed(ratio(run.load.requestsPerSecond, still?.load.requestsPerSecond), 2)} | ${fixed(run.load.p50Ms, 2)} | ${fixed(run.load.p99Ms, 2)} ` +
        `| ${count(e.status)}${socketErrors > 0 ? ` (and ${count(socketErrors)} socket errors)` : ''} | ${count(run.writes.made)} / ${count(run.writes.failed)} ` +
        `| ${run.rssMb.map((mb) => fixed(mb, 0)).join(', ')} | ${run.machineBusy === undefined ? '' : `${whole(100 * run.machineBusy)} % · ${fixed(run.serviceCpuPerSecond ?? NaN, 2)}`} |`,
    );
  }
  lines.push('');
  const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
  const describe = (urls: MixedUrls) => {
    const kinds = Object.entries(urls.byKind).map(([kind, n]) => `${kind} ${count(n)}`).join(', ');
    const keys = urls.keys.map((key) => `${key.label} (${plural(key.teams, 'team')}, ${plural(key.guides, 'guide')}, ${plural(key.urls, 'URL')})`).join('; ');
    return `${count(urls.total)} distinct URLs (${kinds}) from ${plural(urls.keys.length, 'key')}: ${keys}; the writer edits among the ${count(urls.detailGuides)} guides asked for by id`;
  };
  for (const [n, urls] of mixed.urls.entries()) {
    // The list is gathered again on each store (keys and cursors are the store's own); mostly it comes out the same.
    const earlier = mixed.urls.slice(0, n).find((other) => trafficOf(other) === trafficOf(urls));
    const same = earlier !== undefined && describe(urls) === describe(earlier);
    lines.push(
      `${trafficOf(urls)} on ${storeName(urls.store)} (loaded in ${urls.loadSeconds} s): ${same ? `the same list, gathered again with its own keys and cursors` : describe(urls)}.`,
      '',
    );
  }
  const two = mixed.runs.filter((run) => run.processes > 1 && run.perProcess.length > 1);
  if (two.length > 0) {
    const each = two
      .map(
        (run) =>
          `${trafficOf(run)} on ${describeStore(run)} at ${run.editsPerSecond} edits/s ` +
          `${whole(run.perProcess.reduce((sum, part) => sum + part.requestsPerSecond, 0))} = ${run.perProcess.map((part) => whole(part.requestsPerSecond)).join(' + ')}`,
      )
      .join('; ');
    lines.push(`Two service processes: ${mixed.twoProcesses}. Per process, req/s: ${each}.`, '');
  }
  return lines;
}

function webhookSection(w: WebhookStoreResult): string[] {
  const lines = [
    `### Webhooks on ${storeName(w.store)}`,
    '',
    '| | deliveries | deliveries/s | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const drain of w.drains) {
    lines.push(
      `| ${drain.workers} worker${drain.workers > 1 ? 's' : ''} draining ${count(w.events)} events × ${w.endpoints} endpoints${drain.timedOut ? ' (**timed out**)' : ''} | ${count(drain.delivered)} of ${count(w.expectedDeliveries)} | ${whole(drain.deliveriesPerSecond)} | | | |`,
    );
  }
  lines.push(
    `| undici ceiling, concurrency ${w.ceiling.concurrency}, same signed bodies | ${count(w.ceiling.requests)} | ${whole(w.ceiling.deliveriesPerSecond)} | | | |`,
    `| latency at ${w.latency.eventsPerSecond} events/s (${w.latency.processes}, after a 3 s warm-up), from the event's created_at${w.latency.timedOut ? ' (**timed out**)' : ''} | ${count(w.latency.delivered)} of ${count(w.latency.events * w.endpoints)} | | ${fixed(w.latency.fromCreatedAt.p50Ms, 1)} | ${fixed(w.latency.fromCreatedAt.p99Ms, 1)} | ${fixed(w.latency.fromCreatedAt.maxMs, 1)} |`,
    `| the same, from the write's answer at the client | | | ${fixed(w.latency.fromResponse.p50Ms, 1)} | ${fixed(w.latency.fromResponse.p99Ms, 1)} | ${fixed(w.latency.fromResponse.maxMs, 1)} |`,
    '',
    `Service / ceiling: ${w.drains.map((drain) => `${fixed(ratio(drain.deliveriesPerSecond, w.ceiling.deliveriesPerSecond), 2)} (${drain.workers} worker${drain.workers > 1 ? 's' : ''})`).join(', ')}. ` +
      `Writing the ${count(w.events)} events took ${w.drains.map((drain) => `${fixed(drain.writeSeconds, 1)} s`).join(' and ')} (8 clients, a ROLE=api process, nothing delivered meanwhile). ` +
      `Service RSS: ${fixed(w.peakRssMb, 0)} MiB at most sampled, VmHWM ${fixed(w.hwmMb, 0)} MiB.`,
    ...cpuBound(w),
    '',
  );
  return lines;
}

/** Microseconds of CPU per delivery, from CPU seconds over a number of deliveries. */
const perDelivery = (seconds: number | undefined, deliveries: number) => (seconds === undefined ? undefined : (seconds / deliveries) * 1e6);

/**
 * What the cores allow: the CPU one worker's drain took per delivery, its own and the receiver's (and the
 * database server's), and the most deliveries a second the machine's cores could make at that cost,
 * against the undici loop's own cost. Absent for results written before issue 36.
 */
function cpuBound(w: WebhookStoreResult): string[] {
  const one = w.drains[0];
  const ceilingCpu = w.ceiling.cpuSeconds;
  if (!one || !ceilingCpu || w.cores === undefined || one.delivered === 0) return [];
  const spent = Object.entries(one.cpuSeconds).map(([group, seconds]) => [group, perDelivery(seconds, one.delivered)!] as const);
  const total = spent.reduce((sum, [, us]) => sum + us, 0);
  const bound = (w.cores * 1e6) / total;
  const named = (list: readonly (readonly [string, number | undefined])[]) => list.map(([group, us]) => `${group} ${fixed(us, 0)}`).join(', ');
  return [
    '',
    `CPU per delivery, µs: one worker's drain ${named(spent)} (${fixed(total, 0)} in all); the undici ceiling ${named(Object.entries(ceilingCpu).map(([group, seconds]) => [group, perDelivery(seconds, w.ceiling.requests)]))}. ` +
      `At the drain's cost, ${w.cores} cores make at most ${whole(bound)} deliveries/s, ${fixed(ratio(bound, w.ceiling.deliveriesPerSecond), 2)} of the ceiling, however the work is spread over threads.`,
  ];
}

/** How the bad day's CPU column names the processes beside the delivering ones. */
const OTHER_CPU: Record<string, string> = { api: 'API', postgres: 'PostgreSQL', receiver: 'receiver', writer: 'the bench writing the stream' };

/** The stream's writes that were refused and sent again, or never written, when there were any. */
function refusedWrites(n: NoisyResult): string {
  if (!n.writes) return '';
  const retried = Object.entries(n.writes.retried).map(([why, times]) => `${count(times)} × ${why}`);
  if (retried.length === 0) return '';
  return ` (**writes sent again after ${retried.join(', ')}**${n.writes.neverWritten > 0 ? `; **${count(n.writes.neverWritten)} of ${count(n.writes.asked)} never written**` : ''})`;
}

function noisySection(runs: NoisyResult[]): string[] {
  const lines = [
    '### The bad day: hanging and failing receivers beside healthy ones',
    '',
    '| store | processes | bad endpoints | healthy deliveries | p50 ms | p99 ms | max ms | warm-up p50 / p99 ms | requests/s (answered · 500 · hanging) | RSS MiB | sockets | CPU s/s of the delivering processes · machine busy |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|',
  ];
  for (const n of runs) {
    const l = n.healthyLatency;
    const bad = isControl(n) ? 'none (the control)' : `${count(n.hanging)} hanging, ${count(n.failing)} failing, ${n.backlog} events waiting each`;
    const { workers, ...others } = n.cpuPerSecond ?? {};
    const named = Object.entries(others).map(([group, perSecond]) => `${OTHER_CPU[group] ?? group} ${fixed(perSecond, 2)}`);
    const cpu = workers === undefined ? '' : `${fixed(workers, 2)} · ${whole(100 * (n.machineBusy ?? NaN))} %${named.length > 0 ? ` (${named.join(', ')})` : ''}`;
    lines.push(
      `| ${storeName(n.store)} | ${n.processes} | ${bad} | ` +
        `${count(n.healthyDelivered)} of ${count(n.healthyExpected)}${n.duplicates ? `, ${count(n.duplicates)} twice` : ''}${n.timedOut ? ' (**timed out**)' : ''}${refusedWrites(n)} | ` +
        `${fixed(l.p50Ms, 1)} | ${fixed(l.p99Ms, 1)} | ${fixed(l.maxMs, 1)} | ${n.warmUpLatency ? `${fixed(n.warmUpLatency.p50Ms, 1)} / ${fixed(n.warmUpLatency.p99Ms, 1)}${n.warmUpSeconds === undefined ? '' : ` (${fixed(n.warmUpSeconds, 1)} s)`}` : ''} | ${whole(n.requestsPerSecond)} (${count(n.requests.answered)} · ${count(n.requests.failed)} · ${count(n.requests.hanging)}) | ${fixed(n.peakRssMb, 0)} | ${count(n.peakSockets)} | ${cpu} |`,
    );
  }
  const first = runs[0]!;
  lines.push(
    '',
    `${first.healthy} healthy endpoints receive ${first.eventsPerSecond} events/s from the moment the delivery processes start; a few seconds later every bad endpoint's ping and backlog fall due at once, ` +
      `and the stream runs ${first.seconds} s more. Latency is each healthy delivery's arrival minus its event's created_at, for the events written from that moment on; ` +
      'the warm-up column is the seconds before it, in processes that had just started. ' +
      'The control runs the same stream through the same kind of processes with no bad endpoint, right after: what the healthy endpoints get from those processes on this machine at all. ' +
      'Each write of the stream carries an Idempotency-Key and is sent again with it after a 503 (at its Retry-After) or a connection that could not be made, as an integrator would; the deliveries expected are those of the writes that were answered. ' +
      'CPU s/s counts every thread of the delivering processes (its garbage collector and checkpoint threads too), so it can pass 1; in brackets, the CPU s/s of the other processes on the machine.',
    '',
  );
  return lines;
}

function floodSection(runs: FloodRun[]): string[] {
  const lines = [
    '### New clients during a connection flood from one address',
    '',
    '| server | flood | new clients p50 / p99 / max ms | connect p99 ms | unanswered | the flooding client |',
    '|---|---|---|---:|---:|---|',
  ];
  for (const run of runs) {
    const n = run.newClients;
    const flooder =
      'requestsPerSecond' in run.floodClient
        ? `${whole(run.floodClient.requestsPerSecond)} req/s, ${count(run.floodClient.timeouts)} time-outs`
        : `${count(run.floodClient.connected)} connected, ${count(run.floodClient.closedByServer)} closed by the server`;
    lines.push(
      `| ${run.target} | ${count(run.connections)} ${run.flood} connections, ${run.seconds} s | ${fixed(n.p50Ms, 0)} / ${fixed(n.p99Ms, 0)} / ${fixed(n.maxMs, 0)} | ${fixed(run.connect.p99Ms, 0)} | ${run.unanswered} | ${flooder} |`,
    );
  }
  lines.push('', 'A new client (127.0.0.2) connects every 0.5 s and asks GET /healthz; the time is from connect() to the first byte of the answer.', '');
  return lines;
}

const BACKUP_LABELS: Record<BackupMethod, string> = {
  none: 'no backup',
  command: '`npm run backup`',
  'vacuum-into': 'VACUUM INTO',
  'backup-api': 'online backup API alone (100 pages a step)',
};

const median = <T>(items: T[], by: (item: T) => number): T | undefined => [...items].sort((a, b) => by(a) - by(b))[Math.floor(items.length / 2)];
const megabytes = (bytes: number) => (bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 1);

function backupSection(b: BackupBenchResult): string[] {
  const lines = [
    `### Backups of the embedded store while it serves reads and edits (${count(b.guides)} guides, ${(b.storeBytes / 1e9).toFixed(2)} GB)`,
    '',
    '| copy made by | reads req/s | / no backup | p50 / p99 ms | edits made / failed | copies finished, all rounds | s a copy, median (+ quick_check) | MB/s | copy MB | started over | -wal held back, MB at most |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
  ];
  const byMethod = (method: BackupMethod) => b.runs.filter((run) => run.method === method);
  const baseline = median(byMethod('none'), (run) => run.reads.requestsPerSecond);
  for (const method of ['none', 'command', 'vacuum-into', 'backup-api'] as const) {
    const runs = byMethod(method);
    const run: BackupRun | undefined = median(runs, (each) => each.reads.requestsPerSecond);
    if (!run) continue;
    // The copies of every round: the median round's reads, the median copy.
    const all = runs.flatMap((each) => each.copies);
    const finished = all.filter((copy) => copy.finished);
    const gaveUp = all.filter((copy) => !copy.finished);
    const copy = median(finished, (each) => each.seconds);
    const restarts = all.reduce((sum, each) => sum + (each.restarts ?? 0), 0);
    const furthest = Math.max(0, ...gaveUp.map((each) => each.furthestPercent ?? 0));
    const copies = method === 'none' ? '' : `${finished.length}${gaveUp.length > 0 ? `; ${gaveUp.length} given up at ${fixed(furthest, 1)} % copied at most` : ''}`;
    lines.push(
      `| ${BACKUP_LABELS[method]} | ${whole(run.reads.requestsPerSecond)} | ${method === 'none' ? '' : fixed(ratio(run.reads.requestsPerSecond, baseline?.reads.requestsPerSecond), 2)} ` +
        `| ${fixed(run.reads.p50Ms, 2)} / ${fixed(run.reads.p99Ms, 2)} | ${count(run.writes.made)} / ${count(run.writes.failed)} | ${copies} ` +
        `| ${copy ? `${fixed(copy.seconds, 1)}${copy.checkSeconds === null ? '' : ` (+ ${fixed(copy.checkSeconds, 1)})`}` : ''} ` +
        `| ${copy ? whole(copy.bytes / 1e6 / copy.seconds) : ''} | ${copy ? megabytes(copy.bytes) : ''} | ${method === 'none' || run.copies.every((each) => each.restarts === null) ? '' : count(restarts)} ` +
        `| ${megabytes(Math.max(...runs.map((each) => each.uncheckpointedLogPeakBytes)))} |`,
    );
  }
  lines.push(
    '',
    `One ROLE=all service; wrk reads ${count(b.urls)} distinct v1 URLs (the mixed benchmark's) while ${b.editsPerSecond} guides a second are edited through the management API, ` +
      `${b.seconds} s per run. Copies run back to back from ${LEAD_SECONDS} s before the measured run until it ends. ${b.rounds > 1 ? `No backup and \`npm run backup\` take turns over ${b.rounds} rounds (the median round is shown); ` : ''}` +
      'VACUUM INTO and the backup API alone run once. Reads and edits are the median round\'s; the copies are those of every round, MB/s the median copy\'s size over its copying time (`npm run backup` then checks the copy with quick_check). ' +
      `"-wal held back" is the log the checkpoints had not yet copied into the database file (frames × page size, from the -shm's wal-index header), at most; the -wal file ended at ${megabytes(b.walFileBytes)} MB.`,
    '',
  );
  return lines;
}

/** How long the backup benchmark's copies run before the measured run (bench/backup/backup-bench.ts LEAD_MS). */
const LEAD_SECONDS = 0.5;

function auditSection(stores: readonly AuditStoreResult[]): string[] {
  const lines = [
    '### What an audit event adds to a management write',
    '',
    '| store | a guide edit, at the domain | with its audit event | ratio | as a PATCH through the HTTP stack | the write path, with / without |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const s of stores) {
    lines.push(`| ${storeName(s.store)} | ${whole(s.withoutUs)} µs | ${whole(s.withUs)} µs | ${fixed(s.ratio, 3)} | ${whole(s.pathUs)} µs | ${fixed(s.pathRatio, 3)} |`);
  }
  lines.push(
    '',
    `${count(stores[0]!.writes)} edits of one guide's title each way, in blocks of 10 side by side (ABBA), in one process; the ratio is the median of the pairs' (\`bench/audit/audit-bench.ts\`, \`bench/paired-blocks.ts\`). ` +
      "At the domain: the management API's own write function, with its guide.updated window and read-cache notice, without and with an acting scope (which records the event in the write's transaction). " +
      'The write path: the same edit as `PATCH /admin/v1/guides/{id}` through Fastify (routing, admission, validation, the answer), which always records the event; today\'s path is that less the difference at the domain.',
    '',
  );
  return lines;
}

function idempotencySection(stores: readonly IdempotencyStoreResult[]): string[] {
  const lines = ['### What an Idempotency-Key adds to a management write', '', '| store | POST /admin/v1/guides | with an Idempotency-Key | ratio |', '|---|---:|---:|---:|'];
  for (const s of stores) lines.push(`| ${storeName(s.store)} | ${whole(s.withoutUs)} µs | ${whole(s.withUs)} µs | ${fixed(s.ratio, 3)} |`);
  lines.push(
    '',
    `${count(stores[0]!.writes)} guides made each way through the HTTP stack, in blocks of 10 side by side (ABBA), in one process; the ratio is the median of the pairs' (\`bench/idempotency/idempotency-bench.ts\`, \`bench/paired-blocks.ts\`). ` +
      'With a key, the request looks its key up before the write, keeps its answer in the write\'s transaction, and commits only once the answer is rendered.',
    '',
  );
  return lines;
}

function footprintSection(f: FootprintResult): string[] {
  const lines = [
    `### Disk per row, with its indexes (${count(f.events)} of each written)`,
    '',
    '| store | event | delivery attempt | audit event (estimate) | a million events with one attempt each | a million audit events |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const store of f.stores) {
    lines.push(
      `| ${storeName(store.store)} | ${whole(store.eventBytes)} B | ${whole(store.attemptBytes)} B | ${whole(store.auditBytes)} B ` +
        `| ${fixed((store.eventBytes + store.attemptBytes) / 1e3, 2)} GB | ${fixed(store.auditBytes / 1e3, 2)} GB |`,
    );
  }
  const first = f.stores[0]!;
  const file = f.stores.find((store) => store.fileBytesPerEvent !== null);
  lines.push(
    '',
    `A guide.created event and its delivered attempt made by the service, copied with new ids: the event's JSON payload is ${count(first.payloadBytes)} bytes, the attempt's request headers ${count(first.requestHeadersBytes)}. ` +
      `The audit row is an estimate from copies of the service's own audit event of that guide's creation (by the operator, ${count(first.auditTextBytes)} bytes of text; a person's carries an actor id more) in the audit log's table. ` +
      'SQLite: the pages of the table and its indexes (dbstat)' +
      (file ? `; the file grew by ${whole(file.fileBytesPerEvent!)} bytes per event with its attempt and audit row` : '') +
      '. PostgreSQL: pg_total_relation_size (heap, TOAST, indexes).',
    '',
  );
  return lines;
}

const METHOD = `## How it measures

- **Servers.** Per store, four servers run side by side on the same SQLite file and take turns under the
  same load: the service (\`ROLE=api\`, started as docs/deploy.md says), the service with
  \`READ_CACHE=off\`, the SQL ceiling (\`bench/ceiling/sql-server.ts\`: bare \`node:http\` calling the
  service's own domain functions from \`dist/\` — key look-up, policy, scope, guide page or guide detail,
  members — and writing \`JSON.stringify\` of the result, with \`READ_CACHE=off\`), and the bytes ceiling
  (bare \`node:http\` writing the bytes the service answered for that request). Before measuring, each scenario is fetched once from each
  server; a SQL-ceiling body that differs from the service's is listed under Problems.
- **Load.** wrk on loopback, 64 connections, 2 threads; a warm-up run, then the measured run. Percentiles
  come from wrk's own histogram through a Lua \`done\` hook (\`bench/wrk-report.lua\`). Any status of 400 or
  more counts as a failed request and is listed under Problems. The rate limit is set to its highest
  (\`RATE_LIMIT_PER_MINUTE=1000000\`).
- **Ratios, not absolutes.** Every ratio compares figures from the same run, minutes apart at most.
  "off / SQL" is the framework's cost (routing, validation, rate limit, headers); "service / SQL" is how far
  the caches take the service past the SQL ceiling.
- **Deep pages.** The cursor halfway down the key's list, found by paging through it: at 1,000,000 guides
  the organization key sees 20,000 guides over the store's two years, so its halfway cursor sits where the
  store's 500,000th newest guide is.
- **Memory.** VmRSS of the server under load, sampled every 100 ms during each measured run (the table's
  RSS column), and VmHWM at the end of each pass (the peak table).
- **Mixed** (\`--only mixed\`). Production-shaped reads: thousands of distinct v1 URLs from four keys (the
  bulk loader's organization key reaching its 20 teams, a team key of the same organization, a team key on
  a free plan, and an organization key of that free team's organization made through the management API).
  Per key: \`GET /v1/guides?limit=N\` for every N from 1 to 100; deep pages from 40 cursors spread down the
  key's whole list at limits 10, 25, 50 and 100; \`q=\` searches for 12 words of the loader's titles (common
  and rare) at 8 limits; \`team_id=\` lists and \`/v1/members\` of every team it reaches; \`/v1/teams\`; and
  \`GET /v1/guides/{id}\` for 1,500 distinct guides shared among the keys, one in four also by permalink.
  The list is gathered through the API before anything is measured (\`bench/mixed/urls.ts\`), and every URL
  must answer 200 once from each process before each round, which also refills the caches. wrk walks the
  shuffled list round-robin, each request with its own key (\`bench/wrk-mixed.lua\`, same report hook).
  Meanwhile the bench edits the title of a random guide among the 1,500 through
  \`PATCH /admin/v1/guides/{id}\` at 0, 1 and 10 edits/s, on a clock, alternating between the processes.
  Setups: SQLite with one \`ROLE=api\` process, read cache on and, as the reference, off; PostgreSQL (durable
  defaults) with Redis (\`REDIS_URL\`) with one and with two \`ROLE=api\` processes, loaded by the same bulk
  loader with the same seed. **One key** (\`one-key\`, issue 36): the same kinds of URL from the loader's
  organization key alone (every limit from 1 to 100, 14 words × 5 limits, 40 deep cursors, 20 team lists,
  the members of its 20 teams, \`/v1/teams\` and 1,500 guides by id), so that every request counts in one
  rate-limit window; on SQLite and on PostgreSQL with Redis and without it (rate limits counted in the
  database), each with one and two processes. \`--mixed-traffic four-keys|one-key\` runs one of the two. Two processes get two wrk processes, one each, with half the connections and
  the whole list each (as a round-robin balancer would send every URL to both); req/s are added and p50/p99
  are the worse of the two. The edit rates take turns round after round, each keeping its median round.
  Non-2xx counts answers of 400 or more (wrk's status errors): no request carries \`If-None-Match\` and
  the API does not redirect. RSS is each service process's VmRSS, sampled every 100 ms.
- **Webhooks.** 10 endpoints of one team on a receiver process (\`bench/webhooks/receiver.ts\`) that
  answers 200 at once. Throughput: events made through \`POST /admin/v1/guides\` by 8 clients with nothing
  delivered yet, then \`ROLE=worker\` processes drain them (SQLite: one; PostgreSQL: one, then two on a
  copy with the same events); deliveries/s from the first arrival to the last, with the machine's busy
  share and each process's CPU seconds. Latency: a steady trickle of events after a warm-up (SQLite: one
  \`ROLE=all\` process; PostgreSQL: a \`ROLE=api\` process and two workers); arrival minus the event's
  \`created_at\` (stamped inside the committing transaction, millisecond precision), and arrival minus the
  moment the write's answer reached the client (which can be negative: a delivery may arrive before the
  answer does). Ceiling: a bare undici loop replaying the captured signed deliveries to the same receiver,
  10 in flight (the worker sends to each endpoint one at a time). PostgreSQL keeps its durable defaults.
- **The bad day** (\`--only noisy\`). 1,000 endpoints whose receiver accepts the request and never answers
  and 1,000 that answer 500 at once (20 to a team), each with 3 events waiting, set up before the delivery
  processes start. With no service running, the bench then moves those pings and backlogs (their attempts'
  due times and their queues' ready times, in the store) to fall due together 6 s later (PostgreSQL, whose
  three processes take longer to start: 12 s). The delivery
  processes start (SQLite: one \`ROLE=all\`; PostgreSQL: a \`ROLE=api\` and two \`ROLE=worker\`) and 10
  healthy endpoints of another team get 100 events/s from then on: the first seconds warm the processes
  up, then the whole bad wave falls due at once and meets the stream head on, which runs 30 s more.
  Measured: each healthy delivery's arrival minus its event's \`created_at\` for the events written from
  the wave on (those of the warm-up, a process that has just started with nothing bad yet, apart), that
  every healthy event arrived exactly once, all requests the receiver got per second, the workers'
  resident memory and open sockets, sampled every 100 ms, and the CPU the delivering processes and the
  machine used. Right after, the control: the same healthy stream through fresh processes of the same
  kind with no bad endpoint at all, so the two rows together tell what the bad endpoints cost the healthy
  ones from what the processes cost them on this machine.
  \`BENCH_NOISY_TIMELINE=1\` prints the healthy latency second by second.
- **Backups** (\`--only backup\`, issue 33). The read benchmark's store (1,000,000 guides; \`--backup-guides\`)
  under one \`ROLE=all\` service: wrk walks the mixed benchmark's URL list while its writer edits 10 guides a
  second. Runs with no backup and runs while \`npm run backup\` copies the store back to back take turns, each
  keeping its median round; then, once each, the two ways the command did not take
  (\`bench/backup/alternative.ts\`): \`VACUUM INTO\`, and better-sqlite3's \`db.backup()\` as documented (100
  pages a step, no transaction around the steps), which starts over whenever the service commits and gives
  up when the run ends. "/ no backup" is the reads' req/s over the median run without a backup, in the same
  bench run. The copies are written beside the store and deleted after each.
- **Footprint** (\`--only footprint\`, issue 33). A fresh store per kind (SQLite; PostgreSQL with durable
  defaults) where the service makes one guide.created event delivered to the receiver, and the guide's
  audit event; with the service stopped, the bench writes \`--footprint-events\` copies of each (new ids,
  the same lengths) and reads what each table grew by with its indexes.
- **Audit** (\`--only audit\`, issue 33). In one process on a fresh store (a SQLite file; PostgreSQL with
  durable defaults), one guide's title is edited through the management API's own write function in
  blocks of 10 side by side (ABBA; the ratio is the median of the pairs', \`bench/paired-blocks.ts\`),
  without and with an acting scope (which records the audit event in the write's transaction), then
  through the HTTP stack as \`PATCH /admin/v1/guides/{id}\` (Fastify's
  inject). What the event adds to the write path is the path's time over the path's time less the
  difference at the domain.
`;

export function renderBenchmarks(runs: { full: BenchResults | null; quick: BenchResults | null }, changes: string): string {
  const lines = [
    '# Benchmarks',
    '',
    '<!-- Generated by bench/report/generate.ts from bench/results/latest-*.json; edit bench/CHANGES.md for "What was changed". -->',
    '',
    'How fast the service answers reads and delivers webhooks on this machine, as a fraction of what bare',
    'Node.js reaches on the same work in the same run (issue 5). Reproduce:',
    '',
    '```sh',
    'npm run bench              # full: 1,000,000 and 10,000 guides, mixed at 100,000, 10,000 webhook events (32-47 minutes in its recorded runs)',
    'npm run bench -- --quick   # 10,000 guides, 1,000 webhook events (about 9 minutes plus the build: 494-543 s in its recorded runs)',
    `npm run bench -- --help    # --reuse keeps loaded stores; --only ${SCENARIO_GROUPS.join(',')}`,
    '```',
    '',
    'Results: `bench/results/<time>-<mode>.json` and `bench/results/latest-<mode>.json`.',
    '',
  ];
  if (runs.full) lines.push(...runSection(runs.full, 'Full run'));
  if (runs.quick) lines.push(...runSection(runs.quick, 'Quick run'));
  if (!runs.full && !runs.quick) lines.push('No results yet: run `npm run bench`.', '');
  lines.push(METHOD, '## What was changed to get there', '', changes.trim(), '');
  return lines.join('\n');
}

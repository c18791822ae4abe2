// `npm run bench`: builds the service and the bench, loads the stores, runs the read benchmark on each
// store, the mixed benchmark and the webhook benchmark, writes bench/results/<time>-<mode>.json and
// latest-<mode>.json, and regenerates BENCHMARKS.md. Figures are only compared within one run (see
// BENCHMARKS.md, How it measures).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeMachine, gitState } from './machine.js';
import { runAuditBench } from './audit/audit-bench.js';
import { runIdempotencyBench } from './idempotency/idempotency-bench.js';
import { runBackupBench } from './backup/backup-bench.js';
import { runFeedBench } from './feed/feed-bench.js';
import { runFootprintBench } from './footprint/footprint-bench.js';
import { runFloodBench } from './flood/flood-bench.js';
import { runMixedBench } from './mixed/mixed-bench.js';
import { parseOptions, USAGE } from './options.js';
import { partialResultsDir, repoRoot, resultsDir } from './paths.js';
import { runReadPass } from './reads/read-bench.js';
import type { BenchResults } from './results.js';
import { type LoadedStore, prepareStore, shapeFor } from './store.js';
import { startBenchServers, type BenchServers } from './test-servers.js';
import { runNoisyBench } from './webhooks/noisy-bench.js';
import { runWebhookBench, type WebhookStore } from './webhooks/webhook-bench.js';
import type { BenchOptions } from './options.js';

const webhookOptions = (options: BenchOptions) => ({
  events: options.webhookEvents,
  endpoints: options.webhookEndpoints,
  latencyEventsPerSecond: options.latencyEventsPerSecond,
  latencySeconds: options.latencySeconds,
});
import { ensureWrk } from './wrk.js';
import { writeBenchmarks } from './report/generate.js';

const started = new Date();
const log = (line: string) => process.stderr.write(`[${((Date.now() - started.getTime()) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

/** Writes the run's file; a complete run also becomes latest-<mode>.json, which BENCHMARKS.md is made from. */
// A partial run (--only, --guides, --no-webhooks) is for development: its file goes to the ignored build
// directory, never next to the published results.
function writeResults(results: BenchResults, complete: boolean): string {
  const dir = complete ? resultsDir : partialResultsDir;
  mkdirSync(dir, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-').slice(0, 19);
  const file = join(dir, `${stamp}-${results.mode}${complete ? '' : '-partial'}.json`);
  const text = JSON.stringify(results, null, 2) + '\n';
  writeFileSync(file, text);
  if (!complete) return file;
  // Written aside and renamed, so that an interrupted write never leaves a broken latest file.
  const latest = join(resultsDir, `latest-${results.mode}.json`);
  writeFileSync(`${latest}.tmp`, text);
  renameSync(`${latest}.tmp`, latest);
  return file;
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const wrk = ensureWrk(log);
  const git = gitState(repoRoot);
  const results: BenchResults = {
    mode: options.mode,
    startedAt: started.toISOString(),
    finishedAt: '',
    seconds: 0,
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    gitCommit: git.commit,
    gitDirty: git.dirty,
    machine: describeMachine(wrk),
    load: { connections: options.connections, threads: options.threads, warmupSeconds: options.warmupSeconds, seconds: options.seconds, rounds: options.rounds },
    stores: [],
    reads: [],
    processPeaks: [],
    searchPlans: [],
    webhooks: [],
    noisy: [],
    problems: [],
  };
  log(`${options.mode} run on ${results.machine.cpus} × ${results.machine.cpuModel}, Node.js ${results.machine.node}, ${wrk}`);

  let servers: BenchServers | null = null;
  try {
    await runBenchmarks(options, results, () => (servers ??= startBenchServers({ statements: options.pgStatements })));
  } finally {
    (servers as BenchServers | null)?.stop();
  }

  const finished = new Date();
  results.finishedAt = finished.toISOString();
  results.seconds = (finished.getTime() - started.getTime()) / 1000;
  log(`results: ${writeResults(results, options.writeReport)}`);
  if (options.writeReport) log(`report: ${writeBenchmarks()}`);
  else log('a partial run (--only, --no-webhooks, --sqlite-only, --guides or --mixed-guides): BENCHMARKS.md left as it was');
  for (const problem of results.problems) log(`problem: ${problem}`);
  if (results.problems.length > 0) process.exitCode = 1;
}

/** The benchmarks the options ask for, in turn; PostgreSQL and Redis start when one first needs them. */
async function runBenchmarks(options: BenchOptions, results: BenchResults, benchServers: () => BenchServers): Promise<void> {
  const readGroups = [...options.groups].filter((group) => !['webhooks', 'noisy', 'mixed', 'flood', 'feed', 'backup', 'footprint', 'audit', 'idempotency'].includes(group));
  let backupDone = false;
  const backup = async (store: LoadedStore | null) => {
    backupDone = true;
    log(`backups of the embedded store at ${options.backupGuides.toLocaleString('en')} guides while it serves reads and edits`);
    const run = await runBackupBench(options, store, log);
    if (run.result) results.backup = run.result;
    results.problems.push(...run.problems);
  };
  if (readGroups.length > 0) {
    for (const [index, guides] of options.guides.entries()) {
      let store: LoadedStore | null = null;
      try {
        store = await prepareStore(shapeFor(guides), options.reuse, log);
        results.stores.push({ guides, loadSeconds: store.loadSeconds, reused: store.reused });
        // The largest store gets every scenario; the others only those of the scaling ratio.
        const scalingOnly = index > 0;
        log(`reads at ${guides.toLocaleString('en')} guides${scalingOnly ? ' (scaling: list and search)' : ''}`);
        const pass = await runReadPass(store, options, scalingOnly, log);
        results.reads.push(...pass.reads);
        results.processPeaks.push(...pass.peaks);
        results.searchPlans.push(...pass.searchPlans);
        results.problems.push(...pass.problems);
        // The backup benchmark copies a store of this size: this one, rather than loading it again.
        if (options.groups.has('backup') && guides === options.backupGuides) await backup(store);
      } catch (error) {
        const message = `reads at ${guides} guides failed: ${error instanceof Error ? error.message : String(error)}`;
        log(message);
        results.problems.push(message);
      } finally {
        store?.release();
      }
    }
  }

  if (options.groups.has('backup') && !backupDone) await backup(null);

  if (options.groups.has('footprint')) {
    log(`disk per event, delivery attempt and audit row (${options.footprintEvents.toLocaleString('en')} of each)`);
    const footprint = await runFootprintBench(options, options.webhookStores.includes('postgres') ? benchServers : null, log);
    results.footprint = footprint.result;
    results.problems.push(...footprint.problems);
  }

  if (options.groups.has('audit')) {
    log('what an audit event adds to a management write');
    try {
      const postgresUrl = options.webhookStores.includes('postgres') ? await benchServers().newDatabase() : undefined;
      results.audit = await runAuditBench({ rounds: options.mode === 'quick' ? 10 : 40, postgresUrl }, log);
    } catch (error) {
      results.problems.push(`the audit benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  if (options.groups.has('idempotency')) {
    log('what an Idempotency-Key adds to a management write');
    try {
      const postgresUrl = options.webhookStores.includes('postgres') ? await benchServers().newDatabase() : undefined;
      results.idempotency = await runIdempotencyBench({ rounds: options.mode === 'quick' ? 10 : 40, postgresUrl }, log);
    } catch (error) {
      results.problems.push(`the idempotency benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  if (options.groups.has('mixed')) {
    log(`mixed reads and edits at ${options.mixedGuides.toLocaleString('en')} guides`);
    const mixed = await runMixedBench(options, options.mixedOnPostgres ? benchServers : null, log);
    results.mixed = mixed.result;
    results.problems.push(...mixed.problems);
  }

  if (options.groups.has('feed')) {
    log(`events feed at ${options.feedEvents.toLocaleString('en')} events`);
    const feed = await runFeedBench(options, log);
    if (feed.result) results.feed = feed.result;
    results.problems.push(...feed.problems);
  }

  if (options.groups.has('flood')) {
    log('new clients during connection floods');
    try {
      const flood = await runFloodBench(log);
      results.flood = flood.runs;
      results.problems.push(...flood.problems);
    } catch (error) {
      const message = `flood failed: ${error instanceof Error ? error.message : String(error)}`;
      log(message);
      results.problems.push(message);
    }
  }

  const webhookGroups = (['webhooks', 'noisy'] as const).filter((group) => options.groups.has(group));
  if (webhookGroups.length > 0) {
    try {
      for (const kind of options.webhookStores) {
        const store: WebhookStore = kind === 'postgres' ? { kind, servers: benchServers(), countStatements: options.pgStatements } : { kind: 'sqlite' };
        for (const group of webhookGroups) {
          log(`${group} on ${kind}`);
          try {
            if (group === 'webhooks') results.webhooks.push(await runWebhookBench(webhookOptions(options), store, log));
            else {
              results.noisy.push(await runNoisyBench(options.noisy, store, log));
              // The control: the same healthy stream through fresh processes of the same kind, with no bad endpoint.
              results.noisy.push(await runNoisyBench({ ...options.noisy, hanging: 0, failing: 0 }, store, log));
            }
          } catch (error) {
            const message = `${group} on ${kind} failed: ${error instanceof Error ? error.message : String(error)}`;
            log(message);
            results.problems.push(message);
          }
        }
      }
    } catch (error) {
      const message = `PostgreSQL for the webhook benchmarks could not start: ${error instanceof Error ? error.message : String(error)}`;
      log(message);
      results.problems.push(message);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

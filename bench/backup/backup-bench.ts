// `--only backup` (issue 33): what `npm run backup` costs the running service and how fast it copies, on the
// read benchmark's store (1,000,000 guides; 10,000 with --quick). One ROLE=all service, as `npm start` runs
// it, serves the mixed benchmark's production-shaped reads (thousands of distinct v1 URLs through
// wrk-mixed.lua) while the mixed benchmark's writer edits 10 guides a second. Rounds take turns: reads with
// no backup, then reads while the command copies the store, back to back for the whole measured run; each
// keeps its median round. Then, once each under the same load, the two ways the command did not take
// (alternative.ts): VACUUM INTO, and the online backup API as better-sqlite3 documents it (which starts over
// whenever the service commits). Per run: req/s and percentiles of the reads, the edits made and failed, each
// copy's time, size and MB/s, and how much of the -wal the checkpoints could not yet copy into the database
// (read from the -shm's wal-index header: the log a copy's read transaction holds back).
import { closeSync, mkdirSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { askEachOnce, gatherUrls, writeUrlFile } from '../mixed/urls.js';
import { startWriter } from '../mixed/writer.js';
import type { BenchOptions } from '../options.js';
import { backupCommand, benchScript } from '../paths.js';
import { type Child, runToEnd } from '../processes.js';
import { drain } from '../reads/read-bench.js';
import type { BackupBenchResult, BackupCopy, BackupMethod, BackupRun } from '../results.js';
import { serviceStarter, UNREACHED_RATE_LIMIT } from '../services.js';
import { type LoadedStore, prepareStore, shapeFor } from '../store.js';
import { failedRequests, runWrk } from '../wrk.js';
import type { AlternativeCopy } from './alternative.js';

/** The writer's rate while the reads are measured, with and without a backup. */
const EDITS_PER_SECOND = 10;
/** How long the copies run before wrk starts, so that the measured run is all under a copy. */
const LEAD_MS = 500;

export const METHOD_LABELS: Record<BackupMethod, string> = {
  none: 'no backup',
  command: '`npm run backup` (online backup API in one read transaction, then quick_check)',
  'vacuum-into': 'VACUUM INTO',
  'backup-api': 'online backup API alone, 100 pages a step',
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The log the checkpoints have not yet copied into the database file, in bytes, from the wal-index header in the -shm (SQLite's file format, §4.5). */
export function uncheckpointedLog(database: string): number {
  let fd: number;
  try {
    fd = openSync(`${database}-shm`, 'r');
  } catch {
    return 0;
  }
  try {
    const header = Buffer.alloc(104);
    if (readSync(fd, header, 0, header.length, 0) < header.length) return 0;
    // Native byte order: the -shm is shared memory, never moved between machines.
    const little = endianness() === 'LE';
    const read32 = (offset: number) => (little ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
    const pageSizeField = little ? header.readUInt16LE(14) : header.readUInt16BE(14);
    const pageSize = pageSizeField === 1 ? 65536 : pageSizeField;
    const mxFrame = read32(16);
    const nBackfill = read32(96);
    return Math.max(0, mxFrame - nBackfill) * (pageSize + 24);
  } finally {
    closeSync(fd);
  }
}

/** Samples `uncheckpointedLog` every 100 ms until stopped; answers the largest sample. */
function sampleLog(database: string): { stop(): number } {
  let peak = uncheckpointedLog(database);
  const timer = setInterval(() => (peak = Math.max(peak, uncheckpointedLog(database))), 100);
  return { stop: () => (clearInterval(timer), Math.max(peak, uncheckpointedLog(database))) };
}

/** One copy by `method` into `target` (removed afterwards), as a child process. */
async function oneCopy(method: Exclude<BackupMethod, 'none'>, store: LoadedStore, target: string, giveUpSeconds: number): Promise<BackupCopy> {
  const database = store.databaseUrl.slice('file:'.length);
  try {
    if (method === 'command') {
      const started = performance.now();
      const stdout = await runToEnd('npm run backup', process.execPath, [backupCommand, target], { DATABASE_URL: store.databaseUrl });
      const wall = (performance.now() - started) / 1000;
      const match = / in ([\d.]+) s \(\d+ MB\/s\).* in ([\d.]+) s\.$/m.exec(stdout);
      if (!match) throw new Error(`npm run backup printed no result line: ${stdout}`);
      return { seconds: Number(match[1]), checkSeconds: Number(match[2]), wallSeconds: wall, bytes: statSync(target).size, finished: true, restarts: null, furthestPercent: null };
    }
    const started = performance.now();
    const stdout = await runToEnd(method, process.execPath, [benchScript('backup/alternative.js'), method, database, target, String(giveUpSeconds)]);
    const copy = JSON.parse(stdout.trim().split('\n').at(-1)!) as AlternativeCopy;
    return { ...copy, checkSeconds: null, wallSeconds: (performance.now() - started) / 1000 };
  } finally {
    for (const file of [target, `${target}-journal`, `${target}-wal`, `${target}-shm`]) rmSync(file, { force: true });
  }
}

/** Copies by `method`, one after the other, until `stop()`; the copy under way then finishes (or gives up). */
function copiesBackToBack(method: Exclude<BackupMethod, 'none'>, store: LoadedStore, dir: string, giveUpSeconds: number): { stop(): Promise<BackupCopy[]> } {
  let stopping = false;
  const copies: BackupCopy[] = [];
  const loop = (async () => {
    for (let n = 0; !stopping; n++) copies.push(await oneCopy(method, store, join(dir, `copy-${n}.db`), giveUpSeconds));
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop;
      return copies;
    },
  };
}

export async function runBackupBench(
  options: BenchOptions,
  loaded: LoadedStore | null,
  log: (line: string) => void,
): Promise<{ result: BackupBenchResult | null; problems: string[] }> {
  const problems: string[] = [];
  const store = loaded ?? (await prepareStore(shapeFor(options.backupGuides), options.reuse, log));
  const children: Child[] = [];
  const dir = join(store.dir, 'backup-bench');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const database = store.databaseUrl.slice('file:'.length);
  try {
    const start = serviceStarter(children, { databaseUrl: store.databaseUrl, dataDir: store.dir }, { RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT });
    const service = await start('all');
    const list = await gatherUrls(service.url, service.admin, store.ids, 'four-keys');
    const urls = join(dir, 'urls.tsv');
    writeUrlFile(list.urls, urls);
    const storeBytes = statSync(database).size;
    log(`  backup: ${list.urls.length} URLs, store ${(storeBytes / 1e9).toFixed(2)} GB, ${EDITS_PER_SECOND} edits/s meanwhile`);

    const seconds = options.seconds;
    const reads = (duration: number) =>
      runWrk({ url: `${service.url}/`, headers: {}, connections: options.connections, threads: options.threads, seconds: duration, script: { name: 'wrk-mixed.lua', args: [urls] } });

    /** One measured run: reads and edits for `seconds`, under back-to-back copies by `method` unless none. */
    const measure = async (method: BackupMethod): Promise<BackupRun> => {
      await askEachOnce(service.url, list.urls);
      await drain(service.url);
      const writer = startWriter([service.admin], list.editable, EDITS_PER_SECOND);
      const logPeak = sampleLog(database);
      const giveUpSeconds = seconds + LEAD_MS / 1000 + 1;
      const copying = method === 'none' ? null : copiesBackToBack(method, store, dir, giveUpSeconds);
      if (copying) await new Promise((resolve) => setTimeout(resolve, LEAD_MS));
      const load = await reads(seconds);
      const copies = (await copying?.stop()) ?? [];
      const { firstError, ...writes } = await writer.stop();
      const run: BackupRun = { method, reads: load, writes, uncheckpointedLogPeakBytes: logPeak.stop(), copies };
      if (firstError) problems.push(`backup (${METHOD_LABELS[method]}): edits failed, e.g. ${firstError}`);
      const failed = failedRequests(load);
      if (failed > 0) problems.push(`backup (${METHOD_LABELS[method]}): ${failed} of ${load.requests} reads failed (${JSON.stringify(load.errors)})`);
      const copied = copies.map((copy) => (copy.finished ? `${copy.seconds.toFixed(1)} s` : `gave up at ${copy.furthestPercent?.toFixed(1)} % after ${copy.restarts} restarts`)).join(', ');
      log(
        `  backup ${method.padEnd(11)} ${load.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${load.p99Ms.toFixed(1)} ms  edits ${writes.made}/${writes.made + writes.failed}  ` +
          `log held ${(run.uncheckpointedLogPeakBytes / 1e6).toFixed(1)} MB${copies.length ? `  copies: ${copied}` : ''}`,
      );
      return run;
    };

    await askEachOnce(service.url, list.urls);
    await reads(options.warmupSeconds);
    const runs: BackupRun[] = [];
    for (let round = 0; round < options.rounds; round++) {
      runs.push(await measure('none'));
      runs.push(await measure('command'));
    }
    for (const method of ['vacuum-into', 'backup-api'] as const) {
      try {
        runs.push(await measure(method));
      } catch (error) {
        problems.push(`backup by ${METHOD_LABELS[method]} failed: ${message(error)}`);
      }
    }
    const walFileBytes = statSync(`${database}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    return { result: { guides: store.shape.guides, storeBytes, editsPerSecond: EDITS_PER_SECOND, urls: list.urls.length, rounds: options.rounds, seconds, walFileBytes, runs }, problems };
  } catch (error) {
    problems.push(`backup failed: ${message(error)}`);
    return { result: null, problems };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
    if (!loaded) store.release();
  }
}

// Checkpoints the embedded store's write-ahead log on a thread of its own. SQLite's automatic checkpoint
// runs inside the commit that crosses its threshold, so every thousand pages or so one commit on the
// service's only thread copies the log into the database file and waits for the disk: 15–30 ms in which
// no request is answered and no delivery sent, about a sixth of the thread's time under a steady write
// load (BENCHMARKS.md, "The bad day"). Here a second connection, on a worker thread, checkpoints
// passively and often: it never blocks the writer or a reader, and the log stays small.
// The log starts over at the first commit after a checkpoint that copied all of it. The writer keeps an
// automatic checkpoint at a much higher threshold as a backstop, in case this thread falls behind (a
// write load that never pauses) or dies. (A RESTART checkpoint here would hold the writer back, and the
// writer waits on the service's thread.)
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Pages in the log past which the writer checkpoints by itself (the backstop). */
export const BACKSTOP_PAGES = 20_000;

/**
 * The size the log file is cut back to when it starts over after a checkpoint (journal_size_limit):
 * what 100 ms of the heaviest write load fills, so that a steady load does not cut and grow it at
 * every turn.
 */
export const LOG_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/** How often the thread checkpoints. */
const EVERY_MS = 100;
/** How often at most while checkpoints fail. */
const FAILING_EVERY_MS = 2000;

// The thread's code, given as text so that it runs the same from the build and from the TypeScript
// sources under the tests. It loads the same better-sqlite3 the service uses.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
// A checkpoint that fails (a full disk) fails again at once: tried less often while it does, and said
// once, not at every try, then once more when it works again.
let failing = null;
let failures = 0;
let timer;
const next = (ms) => (timer = setTimeout(checkpoint, ms));
function checkpoint() {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    if (failing !== null) parentPort.postMessage({ recovered: failures });
    failing = null;
    failures = 0;
    next(workerData.everyMs);
  } catch (error) {
    const message = String(error && error.message || error);
    if (message !== failing) parentPort.postMessage({ error: message });
    failing = message;
    failures++;
    next(Math.min(workerData.everyMs * 2 ** failures, workerData.failingEveryMs));
  }
}
next(workerData.everyMs);
parentPort.on('message', (message) => {
  if (message.truncate !== undefined) {
    // Waits (busy_timeout) for readers of older snapshots to finish, copies the whole log and empties it.
    try {
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)');
      parentPort.postMessage({ truncated: message.truncate, busy: result.busy === 1 });
    } catch (error) {
      parentPort.postMessage({ truncated: message.truncate, busy: true, reason: String(error && error.message || error) });
    }
    return;
  }
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /**
   * Copies the whole log into the database file and empties the log file, so that no older version of
   * a page is left in it (an erasure); rejects with SQLITE_BUSY (answered 503) when a reader of an older
   * snapshot (a backup under way) kept it from finishing within 5 s.
   */
  truncate(): Promise<void>;
  close(): Promise<void>;
}

/** Where the thread's troubles are told: once when checkpoints start failing, once when they work again. */
export interface BackgroundLog {
  error(message: string): void;
  info(message: string): void;
}

/** Starts checkpointing the log of the database file at `path`; `log` hears what failed (the backstop covers it). */
export function startCheckpointer(path: string, log: BackgroundLog): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { path, driver, everyMs: EVERY_MS, failingEveryMs: FAILING_EVERY_MS } });
  const onError = (message: string) => log.error(`checkpointing the write-ahead log failed: ${message} (tried again every ${FAILING_EVERY_MS / 1000} s at most; said again only if the cause changes)`);
  const truncations = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextTruncation = 0;
  worker.on('message', (message: { error?: string; recovered?: number; truncated?: number; busy?: boolean; reason?: string }) => {
    if (message.error) onError(message.error);
    if (message.recovered !== undefined) log.info(`checkpointing the write-ahead log works again, after ${message.recovered} failed tries`);
    if (message.truncated === undefined) return;
    const waiting = truncations.get(message.truncated)!;
    truncations.delete(message.truncated);
    if (!message.busy) waiting.resolve();
    else waiting.reject(Object.assign(new Error(`the write-ahead log could not be emptied: ${message.reason ?? 'a reader kept it busy'}`), { code: 'SQLITE_BUSY' }));
    if (truncations.size === 0) worker.unref();
  });
  worker.on('error', (error) => onError(error.message));
  // The thread must not keep the process alive on its own.
  worker.unref();
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      for (const waiting of truncations.values()) waiting.reject(Object.assign(new Error('the checkpoint thread has stopped'), { code: 'SQLITE_BUSY' }));
      truncations.clear();
      resolve();
    }),
  );
  return {
    truncate() {
      const id = nextTruncation++;
      // Held while someone waits for its answer.
      worker.ref();
      return new Promise<void>((resolve, reject) => {
        truncations.set(id, { resolve, reject });
        worker.postMessage({ truncate: id });
      });
    },
    async close() {
      // Held again while it stops: a process waiting only for this must not end before it has.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}

// A consistent copy of the embedded store while the service runs and writes (shared decisions §10,
// "Backup"; docs/decisions.md, "Backups"). SQLite's online backup API copies the database page by page,
// as its own connection sees it: the file and the write-ahead log together, so what is only in the log is
// copied too. On its own it restarts from the first page whenever another connection commits between two
// of its steps, and under the service's steady writes a large store never finishes (BENCHMARKS.md,
// "Backups and retention"). Here every step runs inside ONE read transaction that this connection opens first and holds
// to the end: sqlite3_backup_step opens a transaction of its own only when its connection has none, and
// the restart comes only from a read transaction that begins on a changed database. So the copy is the
// store as it was at one moment (every write committed before it, none after), it never restarts, and it
// can say how far it has come. The price is VACUUM INTO's: while it runs, the service's checkpoints cannot
// pass that moment, and the -wal grows by what the service writes meanwhile.
//
// The copy is then made self-contained (rollback journal instead of WAL, so no -wal or -shm belongs to it;
// the service switches it back to WAL when it opens it) and checked with PRAGMA quick_check.
import { rmSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';

/** Pages copied per step (4 MiB at SQLite's default 4 KiB page): the progress is reported between steps. */
export const PAGES_PER_STEP = 1024;

export interface CopyProgress {
  copiedPages: number;
  totalPages: number;
  pageSize: number;
}

export interface CopyOptions {
  pagesPerStep?: number;
  /** Hears how far the copy has come, after every step. */
  onProgress?: (progress: CopyProgress) => void;
  /** Stops the copy at the next step (its partial file is removed). */
  signal?: AbortSignal;
}

export interface CopyResult {
  /** Size of the copy, after it was made self-contained. */
  bytes: number;
  pages: number;
  pageSize: number;
  /** When the copy's read transaction began: the copy holds every write committed before, none after. */
  snapshotAt: Date;
  copySeconds: number;
  checkSeconds: number;
}

/**
 * Copies the SQLite database at `source` (which must exist) into `target` (which must not: it is created,
 * and removed again when the copy fails). The caller makes sure of both.
 */
export async function copySqliteStore(source: string, target: string, options: CopyOptions = {}): Promise<CopyResult> {
  const pagesPerStep = options.pagesPerStep ?? PAGES_PER_STEP;
  const started = performance.now();
  const db = new SQLite(source, { fileMustExist: true });
  let snapshotAt: Date;
  let pageSize: number;
  try {
    // As the service waits for its locks; a reader of a WAL database rarely has to.
    db.pragma('busy_timeout = 5000');
    // This connection never writes the store, whatever happens.
    db.pragma('query_only = ON');
    db.exec('BEGIN');
    // The first read opens the transaction: the moment the copy is of.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    snapshotAt = new Date();
    pageSize = db.pragma('page_size', { simple: true }) as number;
    let total = -1;
    let remaining = Number.POSITIVE_INFINITY;
    await db.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        // Every step copies pages, so fewer remain. Were SQLite to start over (never expected inside one
        // read transaction), the copy would not be of one moment any more: it fails rather than hands one back.
        if ((total >= 0 && totalPages !== total) || remainingPages >= remaining) {
          throw new Error(`the copy started over (${remainingPages} of ${totalPages} pages left, after ${remaining} of ${total}); nothing was written`);
        }
        total = totalPages;
        remaining = remainingPages;
        if (options.signal?.aborted) throw new Error('stopped');
        options.onProgress?.({ copiedPages: totalPages - remainingPages, totalPages, pageSize });
        return pagesPerStep;
      },
    });
  } finally {
    // Ends the read transaction (a rollback of a transaction that wrote nothing), then the connection.
    if (db.inTransaction) db.exec('ROLLBACK');
    db.close();
  }
  const copied = performance.now();

  let pages: number;
  try {
    const copy = new SQLite(target, { fileMustExist: true });
    try {
      // The pages came from a WAL database and say so; as a rollback-journal database the copy is one file.
      copy.pragma('journal_mode = DELETE');
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy failed PRAGMA quick_check: ${String(check)}`);
      pages = copy.pragma('page_count', { simple: true }) as number;
    } finally {
      copy.close();
    }
  } catch (error) {
    removeCopy(target);
    throw error;
  }
  const checked = performance.now();
  return {
    bytes: statSync(target).size,
    pages,
    pageSize,
    snapshotAt,
    copySeconds: (copied - started) / 1000,
    checkSeconds: (checked - copied) / 1000,
  };
}

/** Removes a copy that is not to be kept, and the journal SQLite may have left beside it. */
export function removeCopy(path: string): void {
  for (const file of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
}

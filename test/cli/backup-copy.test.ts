// How `npm run backup` copies the embedded store (src/cli/sqlite-backup.ts, docs/decisions.md "Backups"):
// SQLite's online backup API, every step inside one read transaction, so that commits of another
// connection between its steps neither restart it nor get into the copy. The rule it stands on is shown
// too: the backup API alone starts over after such a commit.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { copySqliteStore, type CopyProgress } from '../../src/cli/sqlite-backup.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A WAL database of 2,000 rows of 1 KiB (about 600 pages), part of it still in the -wal, and a connection writing to it. */
function store(): { path: string; writer: Database.Database } {
  dir = mkdtempSync(join(tmpdir(), 'guide-service-backup-copy-'));
  const path = join(dir, 'service.db');
  const writer = new Database(path);
  writer.pragma('journal_mode = WAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = writer.prepare('INSERT INTO rows (body) VALUES (?)');
  writer.transaction(() => {
    for (let i = 0; i < 1500; i++) insert.run('x'.repeat(1024));
  })();
  writer.pragma('wal_checkpoint(TRUNCATE)');
  writer.transaction(() => {
    for (let i = 0; i < 500; i++) insert.run('y'.repeat(1024));
  })();
  return { path, writer };
}

const count = (path: string) => {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('the copy is of one moment, however the store is written meanwhile', () => {
  it('the online backup API alone starts over after each commit of another connection between its steps', async () => {
    const { path, writer } = store();
    const source = new Database(path);
    let restarts = 0;
    let steps = 0;
    let remaining = Number.POSITIVE_INFINITY;
    const stopped = new Error('enough');
    await expect(
      source.backup(join(dir!, 'plain.db'), {
        progress: ({ remainingPages }) => {
          // A step that copied its pages leaves fewer; one that started over, as many as after the first step.
          if (remainingPages >= remaining) restarts++;
          remaining = remainingPages;
          if (++steps === 20) throw stopped;
          writer.prepare('INSERT INTO rows (body) VALUES (?)').run('z');
          return 16;
        },
      }),
    ).rejects.toBe(stopped);
    source.close();
    writer.close();
    // Every commit sent it back to the first page: under steady writes it never gets far.
    expect(restarts).toBeGreaterThanOrEqual(18);
  });

  it('holding one read transaction, it never starts over, holds every row committed before it began, the -wal included, and none after', async () => {
    const { path, writer } = store();
    const before = count(path);
    const target = join(dir!, 'backup.db');
    const progress: CopyProgress[] = [];
    const result = await copySqliteStore(path, target, {
      pagesPerStep: 16,
      onProgress: (step) => {
        progress.push(step);
        writer.prepare('INSERT INTO rows (body) VALUES (?)').run('written during the copy');
      },
    });
    writer.close();

    expect(progress.length).toBeGreaterThan(30);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.totalPages).toBe(progress[0]!.totalPages);
      expect(progress[i]!.copiedPages).toBeGreaterThan(progress[i - 1]!.copiedPages);
    }
    expect(count(target)).toBe(before);
    expect(count(path)).toBe(before + progress.length);
    expect(result.pages).toBe(progress[0]!.totalPages);
    expect(result.bytes).toBe(result.pages * result.pageSize);
  });

  it('the copy is one self-contained file: a rollback-journal database with nothing beside it, that passes quick_check', async () => {
    const { path, writer } = store();
    writer.close();
    const target = join(dir!, 'backup.db');
    await copySqliteStore(path, target);
    for (const suffix of ['-wal', '-shm', '-journal']) expect(existsSync(target + suffix)).toBe(false);
    const copy = new Database(target, { readonly: true, fileMustExist: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
    copy.close();
  });

  it('a copy stopped half-way leaves no file behind', async () => {
    const { path, writer } = store();
    writer.close();
    const target = join(dir!, 'backup.db');
    const stop = new AbortController();
    await expect(copySqliteStore(path, target, { pagesPerStep: 16, signal: stop.signal, onProgress: () => stop.abort() })).rejects.toThrow('stopped');
    for (const suffix of ['', '-wal', '-shm', '-journal']) expect(existsSync(target + suffix)).toBe(false);
  });
});

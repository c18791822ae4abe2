// Backups of the embedded store (shared decisions §10 "Backup", docs/deploy.md "Backups and restores"):
// `npm run backup -- <file>` copies the store while the service runs and writes; restored as docs/deploy.md
// says (service stopped, the copy put in place as DATABASE_URL's file, the -wal and -shm beside it removed,
// service started), it serves every write answered before the backup began, through v1 (the read cache
// included) and the events feed. The built service and the built command run as real processes, as an
// operator runs them. The check itself is shown to catch a broken copy: the database file alone, copied
// without its write-ahead log while writes go on.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Build, buildService } from '../support/build.js';
import { freePort, PROCESS_WAIT, type ServiceProcess, spawnService } from '../support/processes.js';
import { ADMIN_TOKEN } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';
import { eventually } from '../support/waiting.js';
import { missingFrom, readerTeam, readSome, WriteLoad } from './restore-check.js';

let build: Build;
const running: ServiceProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  build = await buildService();
}, 120_000);

afterAll(async () => {
  for (const service of running) service.child.kill('SIGKILL');
  await Promise.all(running.map((service) => service.exited));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await build?.remove();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'guide-service-backup-'));
  dirs.push(dir);
  return dir;
}

/** The service as `npm start` runs it (one process, every role) on the store at `databaseUrl`. */
async function startService(databaseUrl: string): Promise<{ service: ServiceProcess; url: string }> {
  const port = await freePort();
  const service = spawnService(
    build.main,
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      ROLE: 'all',
      ADMIN_TOKEN,
      DEMO: 'false',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Each edit's guide.updated is recorded in its own transaction, as guide.created is.
      WEBHOOK_COALESCE_MS: '0',
    },
    tempDir(),
  );
  running.push(service);
  const url = `http://127.0.0.1:${port}`;
  await eventually(`the service on ${databaseUrl} ready`, async () => (await fetch(`${url}/readyz`)).ok, PROCESS_WAIT);
  return { service, url };
}

interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run backup -- …args` as the build runs it: node on the built command, in `cwd`, with `env` over this process's. */
function backupCommand(args: string[], env: Record<string, string>, cwd = tempDir()): Promise<CommandRun> {
  const command = join(dirname(build.main), 'cli', 'backup.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [command, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A reader of the store at `database` that sees it as it is now, taken when the -wal has been copied into the
 * database file whole (the service's writes held back for that moment), so that it reads the file alone:
 * while it is open no checkpoint may write to the file, which keeps what it is now, all of it, and what is
 * written from now on goes to the -wal only.
 */
function holdCheckpointsBack(database: string): Database.Database {
  const writer = new Database(database, { fileMustExist: true });
  const checkpointer = new Database(database, { fileMustExist: true });
  const reader = new Database(database, { readonly: true, fileMustExist: true });
  try {
    writer.pragma('busy_timeout = 5000');
    writer.exec('BEGIN IMMEDIATE');
    try {
      // The service's checkpoint thread may be at it: again until one of ours has copied the whole log.
      for (let tries = 0; ; tries++) {
        const [result] = checkpointer.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
        if (result!.busy === 0 && result!.log === result!.checkpointed) break;
        if (tries > 100_000) throw new Error(`the log was never copied whole: ${JSON.stringify(result)}`);
      }
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM guides').get();
    } finally {
      writer.exec('ROLLBACK');
    }
  } catch (error) {
    reader.close();
    throw error;
  } finally {
    writer.close();
    checkpointer.close();
  }
  return reader;
}

/**
 * A service on a fresh store with writers going, some answers read into its read cache before more writes
 * change them. Then a reader holds the log's checkpoints back, as any long read in the service does: the
 * writes answered from then on are in the -wal only, not in the database file, so a copy that leaves out
 * the log leaves them out. `copy` makes the backup while the writers go on, and answers when it began (a
 * performance.now() reading). Answers what was answered before then, which of it is only in the log, and
 * where the copy is.
 */
async function backupUnderWrites(copy: (database: string, target: string) => Promise<number>) {
  const dir = tempDir();
  const database = join(dir, 'service.db');
  const original = await startService(`file:${database}`);
  const { teamId, key } = await readerTeam(original.url);
  const load = new WriteLoad(original.url, teamId);
  await load.further(60);
  await readSome(original.url, key, teamId, load.guides.slice(0, 10).map((guide) => guide.id));
  await load.further(60);

  const target = join(dir, 'backup.db');
  const reader = holdCheckpointsBack(database);
  let began: number;
  let answeredDuring: number;
  const heldFrom = performance.now();
  try {
    await load.further(40);
    const answeredBefore = load.answered;
    began = await copy(database, target);
    answeredDuring = load.answered - answeredBefore;
  } finally {
    reader.close();
  }
  await load.further(20);
  await load.stop();
  expect(load.failures).toEqual([]);
  // Sent after the reader began (an answer that arrives later may be of a write committed before), answered before the copy.
  const onlyInTheLog = load.guides.filter((guide) => guide.titles[0]!.sentAt > heldFrom && guide.titles[0]!.answeredAt < began);
  expect(onlyInTheLog.length).toBeGreaterThan(0);
  return { database, target, original, teamId, key, acknowledged: load.answeredBefore(began), answeredDuring, onlyInTheLog, load, began };
}

/**
 * Restores as docs/deploy.md says: the service stopped (killed here, the worst case: its -wal and -shm stay
 * behind, holding writes made after the backup), the copy put in place as DATABASE_URL's file, the -wal
 * and -shm beside it removed, the service started on it.
 */
async function restore(database: string, target: string, original: { service: ServiceProcess }) {
  original.service.child.kill('SIGKILL');
  await original.service.exited;
  expect(existsSync(`${database}-wal`)).toBe(true);
  copyFileSync(target, database);
  rmSync(`${database}-wal`, { force: true });
  rmSync(`${database}-shm`, { force: true });
  return startService(`file:${database}`);
}

// The embedded store is the same in both of CI's passes: these run in the SQLite pass only (the PostgreSQL
// pass has test/db/postgres-backup.test.ts).
describe.skipIf(usingPostgres)('npm run backup: a copy of the embedded store, made while the service runs and writes', () => {
  it('a service started on the restored copy serves every write answered before the backup began: through v1, its read cache, and the events feed', async () => {
    let run: CommandRun | undefined;
    let ended = 0;
    const { database, target, original, teamId, key, acknowledged, answeredDuring, load, began } = await backupUnderWrites(async (database, target) => {
      const began = performance.now();
      run = await backupCommand([target], { DATABASE_URL: `file:${database}` });
      ended = performance.now();
      return began;
    });
    expect(run!.code, run!.stderr).toBe(0);
    // The copy's size and how long it took, at the end.
    expect(run!.stdout).toMatch(/^Backed up .+ \(\d[\d.]* [kMG]?B\) to .+backup\.db in \d[\d.]* s \(\d[\d.]* MB\/s\)/m);
    // The service went on taking writes while the command ran, every one of them (the command never takes the write lock).
    expect(answeredDuring).toBeGreaterThan(0);
    expect(load.unavailable.filter((at) => at >= began && at <= ended)).toEqual([]);
    expect(acknowledged.guides.length).toBeGreaterThan(50);
    expect(acknowledged.titles.some((entry) => entry.kind === 'updated')).toBe(true);
    expect(acknowledged.members.length).toBeGreaterThan(5);
    // A complete file: nothing of the store's log left behind to be needed beside it.
    expect(existsSync(`${target}-wal`)).toBe(false);

    const restored = await restore(database, target, original);
    expect(await missingFrom(restored.url, key, teamId, acknowledged)).toEqual([]);
  }, 90_000);

  it('a copy of the database file alone, without its write-ahead log, lacks writes that were answered, and the restore check finds them', async () => {
    const { database, target, original, teamId, key, acknowledged, onlyInTheLog } = await backupUnderWrites(async (database, target) => {
      const began = performance.now();
      copyFileSync(database, target);
      return began;
    });
    const restored = await restore(database, target, original);
    const problems = await missingFrom(restored.url, key, teamId, acknowledged);
    for (const guide of onlyInTheLog) expect(problems).toContain(`guide ${guide.id} is not in GET /v1/guides`);
  }, 90_000);
});

describe('npm run backup refuses what it cannot copy, with exit code 2 and the reason', () => {
  it('a PostgreSQL DATABASE_URL is refused and pointed to docs/deploy.md, without connecting', async () => {
    const run = await backupCommand([join(tempDir(), 'backup.db')], { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/guides' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PostgreSQL');
    expect(run.stderr).toContain('pg_dump');
    expect(run.stderr).toContain('docs/deploy.md');
  });

  it('an existing file is never overwritten, nor a file whose -wal, -shm or -journal is there', async () => {
    const dir = tempDir();
    const database = join(dir, 'service.db');
    new Database(database).close();
    const target = join(dir, 'backup.db');
    writeFileSync(target, 'an earlier backup');
    const run = await backupCommand([target], { DATABASE_URL: `file:${database}` });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${target} exists`);
    expect(readFileSync(target, 'utf8')).toBe('an earlier backup');

    for (const suffix of ['-wal', '-shm', '-journal']) {
      const fresh = join(dir, `backup${suffix.replace('-', '')}.db`);
      writeFileSync(`${fresh}${suffix}`, 'stale');
      const refused = await backupCommand([fresh], { DATABASE_URL: `file:${database}` });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${fresh}${suffix} exists`);
      expect(existsSync(fresh)).toBe(false);
    }
  });

  it('an in-memory store, a store file that is not there, a missing directory, a missing or extra argument and a bad DATABASE_URL are refused', async () => {
    const dir = tempDir();
    const target = join(dir, 'backup.db');
    const memory = await backupCommand([target], { DATABASE_URL: 'file::memory:' });
    expect([memory.code, memory.stderr]).toEqual([2, expect.stringContaining('in-memory')]);

    const absent = join(dir, 'absent.db');
    const missing = await backupCommand([target], { DATABASE_URL: `file:${absent}` });
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining(`no store at ${absent}`)]);
    expect(existsSync(absent)).toBe(false);

    const database = join(dir, 'service.db');
    new Database(database).close();
    const nowhere = await backupCommand([join(dir, 'no-such-directory', 'backup.db')], { DATABASE_URL: `file:${database}` });
    expect([nowhere.code, nowhere.stderr]).toEqual([2, expect.stringContaining('no-such-directory')]);

    for (const args of [[], [target, target]]) {
      const usage = await backupCommand(args, { DATABASE_URL: `file:${database}` });
      expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining('npm run backup -- <file>')]);
    }

    const bad = await backupCommand([target], { DATABASE_URL: 'mysql://db/guides' });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('DATABASE_URL')]);
    expect(existsSync(target)).toBe(false);
  });
});

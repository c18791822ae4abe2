// Taking a test service's store away and giving it back (decisions §10): a PostgreSQL database closed to
// connections with its sessions ended, as when the server restarts or a failover is under way; for the
// embedded store, the faults it can meet while the process runs (a full store, a read-only one, another
// process holding the write lock past the time-out).
import { sql } from 'kysely';
import SQLite from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { TestService } from './service.js';

const require = createRequire(import.meta.url);

async function asAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Closes the service's PostgreSQL database to connections and ends its sessions; answers what opens it again. */
export function takePostgresAway(t: TestService): Promise<() => Promise<void>> {
  return takeDatabaseAway(t.service.store.name);
}

/** Closes the PostgreSQL database `name` to connections and ends its sessions; answers what opens it again. */
export async function takeDatabaseAway(name: string): Promise<() => Promise<void>> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  await asAdmin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  await asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
  return () => asAdmin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
}

/** Runs a PRAGMA on the service's own embedded connection. */
export async function pragma(t: TestService, text: string): Promise<unknown[]> {
  return (await sql.raw(`PRAGMA ${text}`).execute(t.service.store.db)).rows;
}

/**
 * Fills the service's embedded store to the last page it may have (max_page_count), as a full disk
 * does: a write that needs a page more fails with SQLITE_FULL. Answers what frees the room again.
 */
export async function fillEmbeddedStore(t: TestService): Promise<() => Promise<void>> {
  await pragma(t, 'max_page_count = 1000000');
  await sql`CREATE TABLE filler (bytes blob)`.execute(t.service.store.db);
  const pages = (await pragma(t, 'page_count')) as { page_count: number }[];
  await pragma(t, `max_page_count = ${pages[0]!.page_count + 8}`);
  for (;;) {
    try {
      await sql`INSERT INTO filler VALUES (randomblob(512))`.execute(t.service.store.db);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_FULL') break;
      throw error;
    }
  }
  return async () => {
    await sql`DROP TABLE filler`.execute(t.service.store.db);
    await pragma(t, 'max_page_count = 1000000000');
  };
}

/**
 * Another process's write transaction on the embedded store's file, held until released; the service
 * waits `waitMs` for the lock before it gives up (5 s unless told).
 */
export async function holdWriteLock(t: TestService, waitMs: number): Promise<() => void> {
  t.service.store.writeLockWait!.ms = waitMs;
  const other = new SQLite(t.service.store.name);
  other.exec('BEGIN IMMEDIATE');
  other.exec('CREATE TABLE held_by_another_process (x)');
  return () => {
    other.exec('ROLLBACK');
    other.close();
  };
}

/**
 * Another process that takes the embedded store's write lock and lets it go after `ms`; resolves once it
 * holds it. (A connection in this process would block the event loop while the service waits for it.)
 */
export async function writeLockForAWhile(t: TestService, ms: number): Promise<{ released: Promise<void> }> {
  const script = `const SQLite = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new SQLite(${JSON.stringify(t.service.store.name)});
    db.exec('BEGIN IMMEDIATE'); db.exec('CREATE TABLE held_by_another_process (x)');
    process.stdout.write('held\\n');
    setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => String(chunk).includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code} before holding the lock`)));
  });
  return { released: new Promise((resolve) => child.once('exit', () => resolve())) };
}


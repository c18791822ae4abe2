// Opens the store named by DATABASE_URL: the embedded SQLite default through better-sqlite3, or
// PostgreSQL through a pg pool (decisions §8). The queries are the same Kysely code on both.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { FairSqliteDialect, type WriteLockWait } from './fair-sqlite-dialect.js';
import { preparingPool } from './prepared-statements.js';
import { cachingStatements } from './statement-cache.js';
import { StoreHealth } from './store-health.js';
import { BACKSTOP_PAGES, type BackgroundLog, LOG_SIZE_LIMIT_BYTES, startCheckpointer } from './wal-checkpointer.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The PostgreSQL pool, for LISTEN/NOTIFY and the shared rate-limit counters; null on SQLite. */
  pool: pg.Pool | null;
  /** A name for this store that is safe to show: the SQLite path or the PostgreSQL database name. */
  name: string;
  /** SQLite's data_version: it changes when another connection commits to the file. None on PostgreSQL. */
  dataVersion?: () => number;
  /** Whether the store can take a write now, and the requests that found it could not (store-health.ts). */
  health: StoreHealth;
  /** The embedded store's wait for another process's write lock (fair-sqlite-dialect.ts); none on PostgreSQL. */
  writeLockWait?: WriteLockWait;
  /**
   * Leaves no copy of what was deleted or overwritten in `tables` where the store can reach it (an
   * erasure, decisions §10): on the embedded store, whose freed space is zeroed as it is freed
   * (secure_delete), the write-ahead log is copied and emptied, so that it holds no older page; on
   * PostgreSQL the tables are vacuumed, so that no dead row version is left in them or their indexes.
   */
  purgeDeleted(tables: readonly (keyof Database)[]): Promise<void>;
  close(): Promise<void>;
}

// 64-bit integers (bigserial, count) as numbers: every one the service keeps is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** Connections in the PostgreSQL pool of each process (docs/deploy.md sizes max_connections by it). */
const POOL_SIZE = 20;
/**
 * How long a query waits for a connection of the pool, or for a new one to be made: past it the store
 * counts as unavailable (503), as SQLite's busy_timeout does for its write lock, rather than a request
 * hanging on a database that does not answer.
 */
const CONNECT_TIMEOUT_MS = 5000;

/** How long the embedded store waits for another process's write lock before it counts as unavailable (503). */
const WRITE_LOCK_WAIT_MS = 5000;
/**
 * How long a PostgreSQL statement waits for a lock another transaction holds (a table locked by hand, a
 * stuck transaction, a migration waiting behind a backup) before the store counts as unavailable (503,
 * store-faults.ts), as the embedded store waits for its write lock: a request does not hang on it, and
 * its connection goes back to the pool. Migrations wait as long as they must (migrate.ts).
 */
export const LOCK_WAIT_MS = 5000;
/** The setting that gives a connection that wait: each pool connection's first statement. */
export const SET_LOCK_WAIT = `SET lock_timeout = ${LOCK_WAIT_MS}`;

export interface StoreOptions {
  /** Hears what goes wrong and right again in the background (the embedded store's checkpoint thread); the default writes to stderr. */
  backgroundLog?: BackgroundLog;
}

const STDERR_LOG: BackgroundLog = { error: (message) => process.stderr.write(`${message}\n`), info: (message) => process.stderr.write(`${message}\n`) };

export function openStore(databaseUrl: string, options: StoreOptions = {}): Store {
  if (databaseUrl.startsWith('file:')) return openSqlite(databaseUrl.slice('file:'.length), options.backgroundLog ?? STDERR_LOG);
  return openPostgres(databaseUrl, POOL_SIZE);
}

function openSqlite(path: string, backgroundLog: BackgroundLog): Store {
  const inMemory = path === ':memory:';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // Temporary data in memory: a statement that writes several rows inside a transaction keeps a
  // statement journal, which past 64 KiB SQLite otherwise spills to a new file in /var/tmp, one per
  // statement. An event's ten attempts took 560 µs to insert that way and 250 µs in memory (bench/CHANGES.md).
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('foreign_keys = ON');
  // What a delete or an update frees is overwritten with zeros, so that an erased person's address is
  // not left in a page's free space or on the free list (decisions §10; the cost in docs/decisions.md).
  sqlite.pragma('secure_delete = ON');
  // Another process's write lock is waited for without blocking the thread (fair-sqlite-dialect.ts).
  sqlite.pragma('busy_timeout = 0');
  const writeLockWait: WriteLockWait = { ms: WRITE_LOCK_WAIT_MS };
  // 48 MiB of page cache (the default is 2 MiB): a page of 50 guides from 20 teams touches a few hundred
  // pages, which should be read from memory rather than through the file each time. 64 MiB was no
  // faster in the 100,000-guide mixed benchmark, and with the read cache's parts it took a process past
  // 300 MB there (bench/CHANGES.md, "Memory after parts").
  sqlite.pragma('cache_size = -49152');
  const db = new Kysely<Database>({ dialect: new FairSqliteDialect({ database: cachingStatements(sqlite) }, writeLockWait) });
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  // The log is checkpointed on a thread of its own (wal-checkpointer.ts); this connection only as a backstop.
  if (!inMemory) sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  // A log that grew (checkpoints failing on a full disk, a long backup) is cut back to this when it
  // starts over, so that the room it took is given back.
  if (!inMemory) sqlite.pragma(`journal_size_limit = ${LOG_SIZE_LIMIT_BYTES}`);
  const checkpointer = inMemory ? null : startCheckpointer(path, backgroundLog);
  const close = async () => {
    await checkpointer?.close();
    await db.destroy();
  };
  const health = new StoreHealth(db, inMemory ? null : path);
  const purgeDeleted = async () => {
    await checkpointer?.truncate();
  };
  return { db, dialect: 'sqlite', pool: null, name: path, dataVersion: () => dataVersion.get() as number, health, writeLockWait, purgeDeleted, close };
}

function openPostgres(url: string, poolSize: number): Store {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  // An idle connection that drops (a restarted server) must not take the process down.
  pool.on('error', () => undefined);
  // Sent before any query of the pool's on the new connection (a client runs its queries in order); a
  // setting rather than a startup option, which a pooler in front may refuse.
  pool.on('connect', (client) => void client.query(SET_LOCK_WAIT).catch(() => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
  // VACUUM takes no lock that holds reads or writes back, and outside a transaction: a statement of its own.
  const purgeDeleted = async (tables: readonly (keyof Database)[]) => {
    await sql`vacuum (index_cleanup on) ${sql.join(tables.map((table) => sql.table(table)))}`.execute(db);
  };
  return { db, dialect: 'postgres', pool, name, health: new StoreHealth(db, null), purgeDeleted, close: () => db.destroy() };
}

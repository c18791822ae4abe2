// Opens the store named by DATABASE_URL. The embedded default is SQLite through better-sqlite3; the
// PostgreSQL dialect plugs in here (decisions §8) without touching the queries.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

export function openStore(databaseUrl: string): Store {
  if (databaseUrl.startsWith('file:')) return openSqlite(databaseUrl.slice('file:'.length));
  throw new Error(`DATABASE_URL: PostgreSQL is not supported by this build yet (got ${redact(databaseUrl)})`);
}

function openSqlite(path: string): Store {
  const inMemory = path === ':memory:';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

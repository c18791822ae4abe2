// Kysely's SQLite driver prepares every statement it runs, and preparing costs about as much as running
// a small query. The service runs the same few hundred statements over and over, so they are kept
// prepared, the least recently used dropped past a bound (statements with IN lists vary in length).
// Reusing a statement is safe here: the driver runs one statement at a time on the one connection and
// never leaves one half-read: the service does not stream query results.
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

const KEPT_STATEMENTS = 500;

export function cachingStatements(sqlite: SQLiteDatabase): SqliteDatabase {
  const kept = new Map<string, Statement>();
  return {
    close: () => {
      kept.clear();
      sqlite.close();
    },
    prepare(sql: string) {
      let statement = kept.get(sql);
      if (statement) {
        kept.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
      }
      kept.set(sql, statement);
      return statement;
    },
  };
}

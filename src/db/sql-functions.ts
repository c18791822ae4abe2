// SQL that is spelled differently by the two stores, behind one name.
import { type Expression, type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The largest of the values: GREATEST on PostgreSQL, the scalar max() on SQLite. They disagree about a
 * NULL among non-null values (PostgreSQL skips it, SQLite answers NULL), so callers pass no NULL unless
 * all are NULL.
 */
export function greatest<T>(db: Kysely<any>, ...values: Expression<T>[]): RawBuilder<T> {
  const list = sql.join(values);
  return isPostgres(db) ? sql<T>`greatest(${list})` : sql<T>`max(${list})`;
}

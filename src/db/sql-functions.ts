// SQL that is spelled differently by the two stores, behind one name.
import { type Expression, type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';

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

/** `column` holds `text` anywhere in it, ASCII letters compared in either case; text without a value holds nothing. */
export function holdsText(db: Kysely<any>, column: string, text: string): Expression<SqlBool> {
  const position = isPostgres(db) ? sql`strpos(lower(${sql.ref(column)}), lower(cast(${text} as text)))` : sql`instr(lower(${sql.ref(column)}), lower(${text}))`;
  return sql<SqlBool>`coalesce(${position}, 0) > 0`;
}

/**
 * Holds the row of `table` with this id until the transaction `trx` ends, on PostgreSQL: two transactions
 * that count something under it (the last admin, the endpoints of a home) then take turns rather than
 * each passing the count. SQLite writes one transaction at a time: nothing to do.
 */
export async function holdRow(trx: Kysely<any>, table: 'teams' | 'organizations', id: string): Promise<void> {
  if (isPostgres(trx)) await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
}

type ColumnType = 'TEXT' | 'INTEGER' | 'BIGINT';

/**
 * `v (columns…) AS (…)` for a WITH clause: rows given to one statement, which joins them to a table to
 * update many rows at once. Column names come from the code, never from input.
 *
 * On PostgreSQL the rows are one JSON parameter read by json_to_recordset: the statement's text is the
 * same whatever the number of rows, so that each connection prepares and plans it once. As a VALUES list
 * of one parameter per value it was a new text for nearly every size of a group of delivery outcomes,
 * parsed and planned afresh on each connection: 19 µs of planning for each delivery's outcome, beside
 * 92 µs executing it (bench/CHANGES.md, "Issue 46"). On SQLite, where a statement is prepared in the
 * process for a few µs, a VALUES list whose values are cast to their column's type.
 */
export function valuesTable<C extends string>(db: Kysely<any>, columns: Record<C, ColumnType>, rows: readonly Record<C, unknown>[]): RawBuilder<unknown> {
  if (!isPostgres(db)) return valuesListTable(columns, rows);
  const record = sql.raw(
    Object.entries(columns)
      .map(([name, type]) => `${name} ${type}`)
      .join(', '),
  );
  return sql`${tableHead(columns)} AS (SELECT * FROM json_to_recordset(CAST(${JSON.stringify(rows)} AS json)) AS r (${record}))`;
}

/**
 * valuesTable as a VALUES list on both stores: on PostgreSQL a text for each number of rows, planned for
 * those rows, for a statement whose plan made once for every size goes wrong.
 */
export function valuesListTable<C extends string>(columns: Record<C, ColumnType>, rows: readonly Record<C, unknown>[]): RawBuilder<unknown> {
  return sql`${tableHead(columns)} AS (${valuesList(columns, rows)})`;
}

/** `v (columns…)`: the name and columns of valuesTable's table. */
const tableHead = (columns: Record<string, ColumnType>) => sql`v (${sql.join(Object.keys(columns).map((name) => sql.raw(name)))})`;

/** `VALUES (…), …`, the rows' values in the order of `columns`, each cast to its column's type. */
export function valuesList<C extends string>(columns: Record<C, ColumnType>, rows: readonly Record<C, unknown>[]): RawBuilder<unknown> {
  const names = Object.keys(columns) as C[];
  const tuples = rows.map((row) => sql`(${sql.join(names.map((name) => sql`CAST(${row[name]} AS ${sql.raw(columns[name])})`))})`);
  return sql`VALUES ${sql.join(tuples)}`;
}

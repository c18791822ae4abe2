// Rows given to one statement (valuesTable): they come back as given, with their types, on the store the
// suite runs on; and on PostgreSQL the statement's text is the same for any number of rows, so that each
// connection prepares and plans it once (a text for each size was 19 µs of planning per delivery).
import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { valuesTable } from '../../src/db/sql-functions.js';
import { suiteStore } from '../support/suite-store.js';

const COLUMNS = { v_seq: 'BIGINT', v_count: 'INTEGER', v_text: 'TEXT' } as const;
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ v_seq: 9_007_199_254_740_000 + i, v_count: i, v_text: i === 1 ? null : `ünï “${i}” '; --` }));

describe('rows given to one statement', () => {
  const store = suiteStore();

  it('come back as given: numbers, a NULL, quotes and Unicode', async () => {
    const result = await sql<{ v_seq: string | number; v_count: number; v_text: string | null }>`WITH ${valuesTable(store().db, COLUMNS, rows(3))}
      SELECT v_seq, v_count, v_text FROM v ORDER BY v_count`.execute(store().db);
    expect(result.rows.map((row) => ({ ...row, v_seq: Number(row.v_seq) }))).toEqual(rows(3));
  });

  it('on PostgreSQL, are one statement text whatever their number', () => {
    const postgres = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: {} as pg.Pool }) });
    const text = (n: number) => sql`WITH ${valuesTable(postgres, COLUMNS, rows(n))} SELECT * FROM v`.compile(postgres);
    expect(text(1).sql).toBe(text(40).sql);
    expect(text(40).parameters).toHaveLength(1);
  });
});

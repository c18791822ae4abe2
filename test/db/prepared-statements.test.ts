// Queries reach PostgreSQL as named prepared statements: plain queries only, one name per text, and no
// more than 500 names, so that a connection never holds more prepared statements than that.
import { sql } from 'kysely';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/db/database.js';
import { preparingPool } from '../../src/db/prepared-statements.js';
import { testDatabase, usingPostgres } from '../support/test-database.js';

function fakePool() {
  const sent: unknown[] = [];
  const client = {
    query: async (...args: unknown[]) => (sent.push(args.length === 1 ? args[0] : { text: args[0], values: args[1] }), { rows: [] }),
    release: () => undefined,
    on: () => client,
  };
  const pool = { connect: async () => client, end: async () => undefined } as unknown as pg.Pool;
  return { pool, sent };
}

describe('prepared statements', () => {
  it('names each plain query by its text, the same name every time, and leaves other statements unnamed', async () => {
    const { pool, sent } = fakePool();
    const preparing = preparingPool(pool);
    const client = await preparing.connect();
    expect(await preparing.connect()).toBe(client);
    await client.query('select * from guides where id = $1', ['a']);
    await client.query('select * from guides where id = $1', ['b']);
    await client.query('  WITH x AS (select 1) select * from x', []);
    await client.query('begin', []);
    await client.query('create index i on guides (id)', []);
    const [first, second, withQuery, begin, ddl] = sent as { name?: string; text: string; values: unknown[] }[];
    expect(first!.name).toMatch(/^s[\w-]{24}$/);
    expect(second).toEqual({ name: first!.name, text: first!.text, values: ['b'] });
    expect(withQuery!.name).toBeDefined();
    expect(withQuery!.name).not.toBe(first!.name);
    expect(begin!.name).toBeUndefined();
    expect(ddl!.name).toBeUndefined();
  });

  it('names the first 500 distinct texts and runs later ones unnamed', async () => {
    const { pool, sent } = fakePool();
    const client = await preparingPool(pool).connect();
    for (let i = 0; i < 501; i++) await client.query(`select ${i}`, []);
    await client.query('select 0', []);
    const named = (sent as { name?: string }[]).map((query) => query.name !== undefined);
    expect(named.slice(0, 500).every(Boolean)).toBe(true);
    expect(named[500]).toBe(false);
    expect(named[501]).toBe(true);
  });
});

describe.runIf(usingPostgres)('prepared statements on a PostgreSQL store', () => {
  it('the store’s queries are prepared on their connection under their name', async () => {
    const database = await testDatabase();
    const store = openStore(database.env.DATABASE_URL!);
    try {
      // One transaction keeps one connection, whose prepared statements pg_prepared_statements shows.
      const prepared = await store.db.transaction().execute(async (trx) => {
        await sql`select 41 + 1 as answer`.execute(trx);
        return (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx)).rows;
      });
      expect(prepared.find((row) => row.statement === 'select 41 + 1 as answer')?.name).toMatch(/^s[\w-]{24}$/);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

// A transaction's last statement and its COMMIT in one message (src/db/commit-with.ts): the statement's
// parameters, written into its text, store exactly what the same statement with parameters stores, on
// both stores; on PostgreSQL the transaction has committed when the statement returns, and a statement
// sent after it in the same transaction is refused rather than run outside any transaction.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitWith } from '../../src/db/commit-with.js';
import { openStore, type Store } from '../../src/db/database.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../support/test-database.js';

let database: TestDatabase;
let store: Store;

beforeAll(async () => {
  database = await testDatabase();
  store = openStore(database.env.DATABASE_URL!);
  await sql`CREATE TABLE commit_with_values (n INTEGER, t TEXT, b INTEGER, x TEXT)`.execute(store.db);
});

afterAll(async () => {
  await store.close();
  await database.drop();
});

// Quotes, backslashes (PostgreSQL writes those as E''), a placeholder's look-alike, lines, Unicode,
// NUL-free control characters, empty text, negative and large numbers, null.
const ODD_VALUES: [number, string, number | null, string | null][] = [
  [1, "O'Brien said 'hello'", 0, null],
  [-2, 'back\\slash \\n and \\\\', 1, '$1 and $2, not placeholders'],
  [2_147_483_647, 'line one\nline two\r\n\ttabbed', null, ''],
  [0, 'Zürich · 東京 · 🦆 · \u200d', -1, "'); DROP TABLE commit_with_values; --"],
];

const insert = (rows: typeof ODD_VALUES) =>
  sql`INSERT INTO commit_with_values (n, t, b, x) VALUES ${sql.join(rows.map(([n, t, b, x]) => sql`(${n}, ${t}, ${b}, ${x})`))}`;

const stored = async () => (await sql<{ n: number; t: string; b: number | null; x: string | null }>`SELECT n, t, b, x FROM commit_with_values ORDER BY n`.execute(store.db)).rows;

describe('a last statement sent with its commit', () => {
  it('stores exactly what the same statement with parameters stores', async () => {
    await insert(ODD_VALUES).execute(store.db);
    const withParameters = await stored();
    await sql`DELETE FROM commit_with_values`.execute(store.db);
    await store.db.transaction().execute(async (trx) => {
      await commitWith(trx, insert(ODD_VALUES));
    });
    expect(await stored()).toEqual(withParameters);
    expect(withParameters.map((row) => row.t)).toEqual([...ODD_VALUES].sort((a, b) => a[0] - b[0]).map((row) => row[1]));
    await sql`DELETE FROM commit_with_values`.execute(store.db);
  });

  it.runIf(usingPostgres)('has committed when it returns, and a statement after it in the transaction is refused', async () => {
    let seenOutside: number | undefined;
    let after: unknown;
    await store.db.transaction().execute(async (trx) => {
      await commitWith(trx, insert([[7, 'committed', null, null]]));
      // Another connection sees the row before Kysely's own COMMIT, which the pool answers without sending.
      seenOutside = (await stored()).filter((row) => row.n === 7).length;
      after = await sql`INSERT INTO commit_with_values (n) VALUES (8)`.execute(trx).catch((error: unknown) => error);
    });
    expect(seenOutside).toBe(1);
    expect(String(after)).toMatch(/after its transaction committed/);
    expect((await stored()).map((row) => row.n)).toEqual([7]);
    // The connection serves the next transaction as usual.
    await store.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO commit_with_values (n) VALUES (9)`.execute(trx);
    });
    expect((await stored()).map((row) => row.n)).toEqual([7, 9]);
    await sql`DELETE FROM commit_with_values`.execute(store.db);
  });

  it.runIf(usingPostgres)('that fails leaves nothing committed', async () => {
    const failed = await store.db
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO commit_with_values (n) VALUES (10)`.execute(trx);
        await commitWith(trx, sql`INSERT INTO commit_with_values (n) VALUES (${'not a number'})`);
      })
      .catch((error: unknown) => error);
    expect(String(failed)).toMatch(/invalid input syntax for type integer/);
    expect(await stored()).toEqual([]);
  });
});

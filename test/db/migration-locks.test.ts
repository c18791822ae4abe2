// How long a statement waits for a lock another transaction holds (docs/decisions.md "How long a
// statement waits for a lock"): a request 5 s, then 503 (test/http/store-unavailable.test.ts); a
// migration as long as it must, so that a deploy during a long backup migrates once the backup ends
// rather than failing to start.
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_WAIT_MS, openStore, type Store } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../support/test-database.js';
import { eventually } from '../support/waiting.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function migratedStore(): Promise<{ database: TestDatabase; store: Store }> {
  const database = await testDatabase();
  const store = openStore(database.env.DATABASE_URL!);
  cleanups.push(() => database.drop(), () => store.close());
  await migrateToLatest(store);
  return { database, store };
}

describe.runIf(usingPostgres)('migrations on PostgreSQL', () => {
  it('wait past the lock wait for a table another transaction holds, then apply; the pool waits 5 s again after them', async () => {
    const { database, store } = await migratedStore();
    // The store as the release before the last migration left it: the index that migration drops, and no record of it.
    await sql`CREATE INDEX webhook_attempts_created ON webhook_attempts (created_at)`.execute(store.db);
    await sql`DELETE FROM kysely_migration WHERE name = '0022_attempts_pruned_by_endpoint'`.execute(store.db);

    // A backup's transaction, say: it reads the table, so dropping one of its indexes must wait.
    const holder = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE webhook_attempts IN ACCESS SHARE MODE');
    let settled = false;
    const migrating = migrateToLatest(store).finally(() => (settled = true));
    await eventually('the migration waiting for the lock', async () => {
      const { rows } = await holder.query("SELECT 1 FROM pg_locks WHERE NOT granted AND relation = 'webhook_attempts'::regclass");
      return rows.length > 0;
    });
    // Past the wait a request is given, the migration still waits (with it, it would have failed by now).
    await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS + 1000));
    expect(settled).toBe(false);
    await holder.query('COMMIT');
    await migrating;

    const { rows: indexes } = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_indexes WHERE indexname = 'webhook_attempts_created'`.execute(store.db);
    expect(indexes[0]!.n).toBe(0);
    const { rows: applied } = await sql<{ name: string }>`SELECT name FROM kysely_migration WHERE name = '0022_attempts_pruned_by_endpoint'`.execute(store.db);
    expect(applied).toHaveLength(1);
    const { rows: setting } = await sql<{ lock_timeout: string }>`SHOW lock_timeout`.execute(store.db);
    expect(setting[0]!.lock_timeout).toBe(`${LOCK_WAIT_MS / 1000}s`);
  });
});

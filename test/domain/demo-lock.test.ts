// Processes starting together on one PostgreSQL load the demo once (decisions §1): each takes the demo's
// lock before it looks for an empty store. A process that finds another loading it waits as long as that
// takes, past the 5 s a request waits for a lock (docs/decisions.md, "How long a statement waits for a
// lock"), rather than failing to start; then it finds the store loaded.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_WAIT_MS } from '../../src/db/database.js';
import { DEMO_LOCK, loadDemoOnce } from '../../src/domain/demo.js';
import { startTestService } from '../support/service.js';
import { testDatabase, usingPostgres } from '../support/test-database.js';
import { eventually } from '../support/waiting.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(usingPostgres)('the demo on PostgreSQL', () => {
  it('a process that finds another loading the demo waits past the lock wait, then loads nothing more', async () => {
    const database = await testDatabase();
    cleanups.push(() => database.drop());
    const t = await startTestService({ DATABASE_URL: database.env.DATABASE_URL! });
    cleanups.push(() => t.close());

    // Another process loading the demo, as far as the lock says.
    const other = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await other.connect();
    cleanups.push(() => other.end());
    await other.query('SELECT pg_advisory_lock($1)', [DEMO_LOCK]);

    let settled = false;
    const loading = loadDemoOnce(t.service.ctx, t.service.store).finally(() => (settled = true));
    await eventually('the second process waiting for the demo lock', async () => {
      const { rows } = await other.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1", [DEMO_LOCK]);
      return rows.length > 0;
    });
    // Past the wait a request is given it still waits (with the pool's lock wait it would have failed by now).
    await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS + 1000));
    expect(settled).toBe(false);

    // The other process loaded it meanwhile: this one finds the store no longer empty.
    await t.admin('POST', '/organizations', { name: 'Loaded by the other process' });
    await other.query('SELECT pg_advisory_unlock($1)', [DEMO_LOCK]);
    expect(await loading).toBeNull();
    const organizations = await t.service.ctx.db.selectFrom('organizations').select('name').execute();
    expect(organizations).toEqual([{ name: 'Loaded by the other process' }]);
  }, 30_000);
});

import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BACKSTOP_PAGES } from '../../src/db/wal-checkpointer.js';
import { scratchStores } from '../support/scratch-store.js';
import { eventually } from '../support/waiting.js';

const PAGE = 4096;
const scratch = scratchStores();

describe('the write-ahead log of the embedded store (src/db/wal-checkpointer.ts)', () => {
  it('is copied into the database file by a thread of its own, long before the commit that would do it on the service thread', async () => {
    const store = scratch.open();
    const written = 400 * PAGE; // far below what the writer's own checkpoint waits for
    expect(written).toBeLessThan(BACKSTOP_PAGES * PAGE);
    await sql`CREATE TABLE filler (body TEXT)`.execute(store.db);
    for (let i = 0; i < 40; i++) await sql`INSERT INTO filler (body) VALUES (${'x'.repeat(written / 40)})`.execute(store.db);
    // Only a checkpoint grows the database file: commits go to the log.
    await eventually('the log copied into the database file', () => statSync(scratch.path()).size > written);
  });

  it('stops with the store: closing waits for the thread, and the file is whole afterwards', async () => {
    const first = scratch.open();
    await sql`CREATE TABLE kept (n INTEGER)`.execute(first.db);
    await sql`INSERT INTO kept (n) VALUES (42)`.execute(first.db);
    await first.close();
    const again = scratch.open();
    const { rows } = await sql<{ n: number }>`SELECT n FROM kept`.execute(again.db);
    expect(rows).toEqual([{ n: 42 }]);
  });
});

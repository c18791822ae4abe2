import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/database.js';
import { BACKSTOP_PAGES } from '../../src/db/wal-checkpointer.js';
import { eventually } from '../support/waiting.js';

const PAGE = 4096;
let dir: string | null = null;
let store: Store | null = null;

afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = null;
  dir = null;
});

describe('the write-ahead log of the embedded store (src/db/wal-checkpointer.ts)', () => {
  it('is copied into the database file by a thread of its own, long before the commit that would do it on the service thread', async () => {
    dir = mkdtempSync(join(tmpdir(), 'guide-service-wal-'));
    const path = join(dir, 'service.db');
    store = openStore(`file:${path}`);
    const written = 400 * PAGE; // far below what the writer's own checkpoint waits for
    expect(written).toBeLessThan(BACKSTOP_PAGES * PAGE);
    await sql`CREATE TABLE filler (body TEXT)`.execute(store.db);
    for (let i = 0; i < 40; i++) await sql`INSERT INTO filler (body) VALUES (${'x'.repeat(written / 40)})`.execute(store.db);
    // Only a checkpoint grows the database file: commits go to the log.
    await eventually('the log copied into the database file', () => statSync(path).size > written);
  });

  it('stops with the store: closing waits for the thread, and the file is whole afterwards', async () => {
    dir = mkdtempSync(join(tmpdir(), 'guide-service-wal-'));
    const url = `file:${join(dir, 'service.db')}`;
    store = openStore(url);
    await sql`CREATE TABLE kept (n INTEGER)`.execute(store.db);
    await sql`INSERT INTO kept (n) VALUES (42)`.execute(store.db);
    await store.close();
    store = openStore(url);
    const { rows } = await sql<{ n: number }>`SELECT n FROM kept`.execute(store.db);
    expect(rows).toEqual([{ n: 42 }]);
  });
});

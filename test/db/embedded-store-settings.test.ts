import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { scratchStores } from '../support/scratch-store.js';

const scratch = scratchStores();

describe('the settings of the embedded store (src/db/database.ts, docs/decisions.md "Storage")', () => {
  it('keeps temporary data in memory, so a multi-row write in a transaction opens no statement-journal file', async () => {
    const store = scratch.open();
    const { rows } = await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(store.db);
    // 2 is MEMORY; the default, 0, puts statement journals past 64 KiB in files.
    expect(rows).toEqual([{ temp_store: 2 }]);
  });

  it('writes through a log with a large page cache, as docs/decisions.md says', async () => {
    const store = scratch.open();
    const read = async (name: string) => Object.values((await sql.raw<Record<string, unknown>>(`PRAGMA ${name}`).execute(store.db)).rows[0]!)[0];
    expect(await read('journal_mode')).toBe('wal');
    expect(await read('synchronous')).toBe(1); // NORMAL
    expect(await read('cache_size')).toBe(-49152); // 48 MiB
  });
});

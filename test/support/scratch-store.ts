// An embedded store in a directory of its own for tests of the store itself, closed and removed after
// each test: `const scratch = scratchStores();` at the top of a file, then `scratch.open()` in a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openStore, type Store } from '../../src/db/database.js';

export interface ScratchStores {
  /** Opens (again) the store at this test's path; the store opened last is closed after the test. */
  open(): Store;
  /** The database file of this test's store. */
  path(): string;
}

export function scratchStores(): ScratchStores {
  let dir: string | null = null;
  let store: Store | null = null;
  afterEach(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    store = null;
    dir = null;
  });
  const path = () => {
    dir ??= mkdtempSync(join(tmpdir(), 'guide-service-store-'));
    return join(dir, 'service.db');
  };
  return {
    path,
    open() {
      store = openStore(`file:${path()}`);
      return store;
    },
  };
}

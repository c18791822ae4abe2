// The store the suite runs on (in-memory SQLite, or a database of its own on TEST_DATABASE_URL's server),
// opened once for a describe block, brought up to date, and closed and dropped after it:
// `const store = suiteStore();` in the block, then `store()` in its tests.
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { type TestDatabase, testDatabase } from './test-database.js';

export function suiteStore(): () => Store {
  let database: TestDatabase;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await testDatabase();
    store = openStore(database.env.DATABASE_URL!);
    await migrateToLatest(store);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return () => {
    if (!store) throw new Error('suiteStore() is read inside a test of the block that made it');
    return store;
  };
}

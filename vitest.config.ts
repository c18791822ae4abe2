import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // On the embedded store, two files at a time even on two cores (vitest's default would be one): most
    // of a test's time is spent waiting (a browser, a receiver, a timer), so the suite takes a third less,
    // and every test must pass on a loaded machine anyway. On PostgreSQL one: every file has a database of
    // its own, but transaction ids and snapshots are the server's, so one file's long transaction (the
    // backup test's pg_dump) holds back the events feed of every other database (the feed shows an event
    // once every transaction that began before it has ended).
    maxWorkers: process.env.TEST_DATABASE_URL ? 1 : Math.max(2, availableParallelism() - 1),
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default would be one): most of a test's time is
    // spent waiting (a browser, a receiver, PostgreSQL, a timer), so the suite takes about half as long,
    // and every test must pass on a loaded machine anyway.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});

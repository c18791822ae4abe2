// The stores a management write's cost is measured on (the audit and idempotency benchmarks): the
// embedded store as deployed (a file of its own, removed after), then, with the bench's PostgreSQL, a
// database of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type StoreName = 'sqlite' | 'postgres';

export async function onEachStore<R>(postgresUrl: string | undefined, measure: (databaseUrl: string, store: StoreName) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'write-cost-store-'));
  try {
    results.push(await measure(`file:${join(dir, 'service.db')}`, 'sqlite'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (postgresUrl) results.push(await measure(postgresUrl, 'postgres'));
  return results;
}

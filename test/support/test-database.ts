// Where a test service keeps its data. By default an in-memory SQLite store. With TEST_DATABASE_URL
// (a PostgreSQL server the suite may create databases on, as scripts/start-test-servers.sh starts), every
// service gets a database of its own, dropped when it closes; with TEST_REDIS_URL the rate limits count
// in that Redis. In CI (REQUIRE_TEST_SERVERS=1) a server that cannot be reached fails the test rather
// than letting it fall back.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function testDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    if (process.env.REQUIRE_TEST_SERVERS) throw new Error('REQUIRE_TEST_SERVERS is set but TEST_DATABASE_URL is not');
    return { env: { DATABASE_URL: 'file::memory:' }, drop: async () => undefined };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env: Record<string, string> = { DATABASE_URL: url.toString() };
  if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;
  return {
    env,
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

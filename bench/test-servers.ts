// PostgreSQL and Redis for the benchmark's runs on the scale-out store: started on loopback by the
// same script the test suite uses (scripts/start-test-servers.sh), with PostgreSQL's durable defaults
// (fsync and synchronous commit on, as a deployment runs it), and stopped with everything in them.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { repoRoot } from './paths.js';

export interface BenchServers {
  /** A PostgreSQL server the bench may create databases on. */
  postgresUrl: string;
  redisUrl: string;
  /** A fresh, empty database on that server. */
  newDatabase(): Promise<string>;
  stop(): void;
}

export function startBenchServers(): BenchServers {
  const output = execFileSync('bash', [join(repoRoot, 'scripts', 'start-test-servers.sh')], { encoding: 'utf8', env: { ...process.env, TEST_PG_DURABLE: '1' } });
  const vars = Object.fromEntries([...output.matchAll(/^export (\w+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]));
  const postgresUrl = vars.TEST_DATABASE_URL!;
  let databases = 0;
  return {
    postgresUrl,
    redisUrl: vars.TEST_REDIS_URL!,
    async newDatabase() {
      const name = `bench_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      const url = new URL(postgresUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    stop() {
      execFileSync('bash', [join(repoRoot, 'scripts', 'stop-test-servers.sh')], { env: { ...process.env, TEST_SERVERS_DIR: vars.TEST_SERVERS_DIR! } });
    },
  };
}

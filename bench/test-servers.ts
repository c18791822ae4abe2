// PostgreSQL and Redis for the benchmark's runs on the scale-out store: started on loopback by the
// same script the test suite uses (scripts/start-test-servers.sh), with PostgreSQL's durable defaults
// (fsync and synchronous commit on, as a deployment runs it), and stopped with everything in them when
// the benchmark ends, however it ends (processes.ts).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { repoRoot } from './paths.js';
import { stopAtExit } from './processes.js';

export interface BenchServers {
  /** A PostgreSQL server the bench may create databases on. */
  postgresUrl: string;
  redisUrl: string;
  /** A fresh, empty database on that server, which the databases made before it no longer share. */
  newDatabase(): Promise<string>;
  stop(): void;
}

// After the databases before are dropped, how long the server may take to settle: a checkpoint of
// what they wrote, and any autovacuum still running on the others.
const SETTLE_AT_MOST_MS = 60_000;

/** With `statements`, the server counts every statement (pg_stat_statements, planning included). */
export const STATEMENT_COUNTING = '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on -c pg_stat_statements.max=5000';

export function startBenchServers(options: { statements: boolean }): BenchServers {
  const env = { ...process.env, TEST_PG_DURABLE: '1', ...(options.statements ? { TEST_PG_OPTIONS: STATEMENT_COUNTING } : {}) };
  const output = execFileSync('bash', [join(repoRoot, 'scripts', 'start-test-servers.sh')], { encoding: 'utf8', env });
  const vars = Object.fromEntries([...output.matchAll(/^export (\w+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]));
  const stop = stopAtExit(() =>
    execFileSync('bash', [join(repoRoot, 'scripts', 'stop-test-servers.sh')], { env: { ...process.env, TEST_SERVERS_DIR: vars.TEST_SERVERS_DIR! } }),
  );
  const postgresUrl = vars.TEST_DATABASE_URL!;
  let databases = 0;
  const made: string[] = [];
  return {
    postgresUrl,
    redisUrl: vars.TEST_REDIS_URL!,
    async newDatabase() {
      const name = `bench_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        // A measurement gets the server to itself: the databases of the runs before (a bulk-loaded store,
        // 100,000 delivered attempts) would otherwise have autovacuum and checkpoints take the cores from it.
        for (const old of made.splice(0)) await client.query(`DROP DATABASE IF EXISTS ${old} WITH (FORCE)`);
        await client.query('CHECKPOINT');
        const settleBy = Date.now() + SETTLE_AT_MOST_MS;
        while (Date.now() < settleBy) {
          const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`);
          if (Number(rows[0]!.n) === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        await client.query(`CREATE DATABASE ${name}`);
        made.push(name);
      } finally {
        await client.end();
      }
      const url = new URL(postgresUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    stop,
  };
}

// Backing up PostgreSQL with its own tools (shared decisions §10 "Backup", docs/deploy.md "Backups and
// restores"): `pg_dump -Fc` of a database the service is writing to, restored with `pg_restore` into a fresh
// database, serves every write answered before the dump began, through v1 (the read cache included) and the
// events feed. Nothing in the service is special for this: every change is one transaction and pg_dump reads
// one snapshot. Runs only with TEST_DATABASE_URL (CI's second pass); the built service runs as real processes.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Build, buildService } from '../support/build.js';
import { freePort, PROCESS_WAIT, type ServiceProcess, spawnService } from '../support/processes.js';
import { ADMIN_TOKEN } from '../support/service.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../support/test-database.js';
import { eventually } from '../support/waiting.js';
import { missingFrom, readerTeam, readSome, WriteLoad } from '../cli/restore-check.js';

const run = promisify(execFile);

/** A PostgreSQL client program of the newest installed version (Debian: /usr/lib/postgresql/<version>/bin), else from PATH. */
function postgresProgram(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((entry) => existsSync(join(root, entry, 'bin', name))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, 'bin', name) : name;
}

describe.skipIf(!usingPostgres)('PostgreSQL: pg_dump -Fc and pg_restore', () => {
  let build: Build;
  const databases: TestDatabase[] = [];
  const running: ServiceProcess[] = [];
  let work: string;

  beforeAll(async () => {
    build = await buildService();
    work = mkdtempSync(join(tmpdir(), 'guide-service-pg-backup-'));
  }, 120_000);

  afterAll(async () => {
    for (const service of running) service.child.kill('SIGKILL');
    await Promise.all(running.map((service) => service.exited));
    for (const database of databases) await database.drop();
    if (work) rmSync(work, { recursive: true, force: true });
    await build?.remove();
  });

  async function startService(env: Record<string, string>): Promise<{ service: ServiceProcess; url: string }> {
    const port = await freePort();
    const service = spawnService(
      build.main,
      { ...env, PORT: String(port), ROLE: 'all', ADMIN_TOKEN, DEMO: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', WEBHOOK_COALESCE_MS: '0' },
      mkdtempSync(join(work, 'node-')),
    );
    running.push(service);
    const url = `http://127.0.0.1:${port}`;
    await eventually('the service ready', async () => (await fetch(`${url}/readyz`)).ok, PROCESS_WAIT);
    return { service, url };
  }

  it('a database restored from pg_dump -Fc, taken while the service wrote, serves every write answered before the dump began: through v1, its read cache, and the events feed', async () => {
    const source = await testDatabase();
    databases.push(source);
    const original = await startService(source.env);
    const { teamId, key } = await readerTeam(original.url);
    const load = new WriteLoad(original.url, teamId);
    await load.further(60);
    await readSome(original.url, key, teamId, load.guides.slice(0, 10).map((guide) => guide.id));
    await load.further(60);

    const dump = join(work, 'guides.dump');
    const began = performance.now();
    const answeredBefore = load.answered;
    await run(postgresProgram('pg_dump'), ['--format=custom', `--file=${dump}`, source.env.DATABASE_URL!]);
    const answeredDuring = load.answered - answeredBefore;
    await load.further(20);
    await load.stop();
    expect(load.failures).toEqual([]);
    // pg_dump takes no lock that holds a write back.
    expect(load.unavailable).toEqual([]);
    expect(answeredDuring).toBeGreaterThan(0);
    original.service.child.kill('SIGTERM');
    await original.service.exited;

    // Restore: a fresh, empty database; the service started on it migrates nothing (the dump has the schema).
    const restoredDatabase = await testDatabase();
    databases.push(restoredDatabase);
    await run(postgresProgram('pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${restoredDatabase.env.DATABASE_URL!}`, dump]);
    const restored = await startService(restoredDatabase.env);

    const acknowledged = load.answeredBefore(began);
    expect(acknowledged.guides.length).toBeGreaterThan(50);
    expect(acknowledged.members.length).toBeGreaterThan(5);
    expect(await missingFrom(restored.url, key, teamId, acknowledged)).toEqual([]);
  }, 120_000);
});

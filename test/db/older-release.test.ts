// An older release on a store a newer one migrated (docs/decisions.md "Migrations: expand, then
// contract"): in a rolling deploy that is rolled back, or a process of the previous release restarted
// halfway through, the older release starts and serves, since the newer release's migrations only add;
// a store that lacks a migration of the starting release as well is refused with a message saying so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createService } from '../../src/service.js';
import { ADMIN_TOKEN, organizationWithTeams, startTestService } from '../support/service.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../support/test-database.js';

let database: TestDatabase;
let databaseUrl: string;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'older-release-'));
  database = usingPostgres ? await testDatabase() : { env: { DATABASE_URL: `file:${join(dir, 'service.db')}` }, drop: async () => undefined };
  databaseUrl = database.env.DATABASE_URL!;
});
afterAll(async () => {
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a release started on a store a newer release migrated', () => {
  it('starts, is ready and serves when every migration it knows is applied', async () => {
    const first = await startTestService({ DATABASE_URL: databaseUrl });
    const { key } = await organizationWithTeams(first);
    // What the next release's first process leaves behind: a migration this build does not know.
    await sql`insert into kysely_migration (name, timestamp) values ('9000_next_release', ${new Date().toISOString()})`.execute(first.service.store.db);
    await first.close();

    const logLines: string[] = [];
    const older = await startTestService({ DATABASE_URL: databaseUrl }, { logLines });
    try {
      expect((await older.service.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect((await older.get('/v1/teams', key)).statusCode).toBe(200);
      expect(logLines.some((line) => line.includes('migrations of a newer release') && line.includes('9000_next_release'))).toBe(true);
    } finally {
      await older.close();
    }
  });

  it('refuses to start, saying why, when the store also lacks a migration it knows', async () => {
    const service = await startTestService({ DATABASE_URL: databaseUrl });
    await sql`delete from kysely_migration where name = '0015_sign_in_link_addresses'`.execute(service.service.store.db);
    await service.close();
    const config = loadConfig({ DATABASE_URL: databaseUrl, ADMIN_TOKEN, DEMO: 'false', DATA_DIR: dir, LOG_LEVEL: 'silent' });
    await expect(createService(config)).rejects.toThrow(/migrations of another release \(9000_next_release\) but lacks 0015_sign_in_link_addresses/);
  });
});

// Expand, then contract (docs/decisions.md "Migrations: expand, then contract"): while a rolling deploy
// runs, processes of the older release go on serving against the schema the newer one migrated. A column
// added to every table must break none of the statements they have prepared: on PostgreSQL every query
// is a named prepared statement, and one that read `*` answered "cached plan must not change result type".
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePost } from '../console/sessions.js';
import { createGuide, organizationWithTeams, startTestService, type TestService } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';

let t: TestService;
beforeAll(async () => {
  if (usingPostgres) t = await startTestService({ WEBHOOK_COALESCE_MS: '0' });
});
afterAll(() => t?.close());

/** What a process does in a day's work, through every interface; every answer must be a success. */
async function aDaysWork(s: TestService, round: number): Promise<number[]> {
  const statuses: number[] = [];
  // Each answer must be a success: a fault or a refusal both say a statement broke.
  const seen = (response: { statusCode: number; body: string }) => {
    if (response.statusCode >= 300) throw new Error(`round ${round}: ${response.statusCode} ${response.body}`);
    statuses.push(response.statusCode);
  };
  const { organization, teams, key, keyId } = await organizationWithTeams(s);
  const user = await s.admin('POST', '/users', { email: `worker-${round}-${Math.random()}@example.com`, name: 'A person' });
  seen(await s.adminRaw('PUT', `/teams/${teams[0].id}/members/${user.id}`, { role: 'EDITOR' }));
  seen(await s.adminRaw('GET', `/teams/${teams[0].id}/members`));
  seen(await s.adminRaw('PATCH', `/organizations/${organization.id}`, { api_enabled: true }));
  seen(await s.adminRaw('PATCH', `/teams/${teams[0].id}`, { name: `Renamed ${round}` }));
  seen(await s.adminRaw('GET', `/users/${user.id}`));
  const endpoint = await s.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: teams[0].id }, url: 'https://example.com/hook', events: ['guide.created'] });
  seen(await s.adminRaw('GET', `/webhook-endpoints/${endpoint.id}`));
  seen(await s.adminRaw('GET', `/webhook-endpoints?home_type=team&home_id=${teams[0].id}`));
  const guide = await createGuide(s, teams[0].id, { title: `Guide ${round}`, owner_id: user.id, steps: [{ text: 'One' }] });
  seen(await s.adminRaw('PATCH', `/guides/${guide.id}`, { title: `Guide ${round}, edited` }));
  seen(await s.adminRaw('GET', `/guides/${guide.id}`));
  seen(await s.adminRaw('GET', `/api-keys?home_type=organization&home_id=${organization.id}`));
  for (const path of ['/v1/guides', `/v1/guides/${guide.id}`, `/v1/guides/${guide.permalink}`, '/v1/teams', `/v1/members?team_id=${teams[0].id}`, '/v1/events', '/v1/auth/verify']) {
    seen(await s.get(path, key));
  }
  seen(await consolePost(s, '/sign-in-links', { email: user.email }));
  seen(await s.adminRaw('GET', '/mail'));
  seen(await s.adminRaw('DELETE', `/guides/${guide.id}`));
  seen(await s.adminRaw('DELETE', `/api-keys/${keyId}`));
  return statuses;
}

describe.runIf(usingPostgres)('a newer release adds a column to every table while this one runs', () => {
  it("none of this release's prepared statements fails: every query names its columns", async () => {
    await aDaysWork(t, 1);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${t.service.store.name}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      const tables = await admin.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'");
      expect(tables.rows.length).toBeGreaterThan(10);
      for (const { table_name } of tables.rows) await admin.query(`ALTER TABLE "${table_name}" ADD COLUMN next_release_note text`);
    } finally {
      await admin.end();
    }
    expect((await aDaysWork(t, 2)).length).toBeGreaterThan(20);
  });
});

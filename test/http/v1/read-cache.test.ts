// Answers are never stale. The read-only API keeps answers in memory (READ_CACHE unset: on, on both
// stores): every test reads first, so that the answer is kept, then writes through the management API
// (or the store), and reads again expecting the new state on the very next request. Writes by another
// connection to the same SQLite file are SQLite-only; read-invalidation.test.ts compares every answer
// with an uncached service's and covers other processes on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { foldCase } from '../../../src/domain/text-fold.js';
import { createGuide, createKey, organizationWithTeams, soloTeam, startTestService, type TestService, useTestService } from '../../support/service.js';
import { usingPostgres } from '../../support/test-database.js';
import { eventually } from '../../support/waiting.js';

const t = useTestService();

const DAY_MS = 86_400_000;
const unique = () => Math.random().toString(36).slice(2, 10);
const ids = (items: { id: string }[]) => items.map((item) => item.id);

function ok(response: LightMyRequestResponse, where = ''): any {
  expect(response.statusCode, `${where} ${response.body}`).toBe(200);
  return response.json();
}

function expectProblem(response: LightMyRequestResponse, status: number, code: string, where = ''): void {
  expect(response.statusCode, `${where} ${response.body}`).toBe(status);
  expect(response.json().code, where).toBe(code);
}

async function listIds(s: TestService, key: string, query = ''): Promise<string[]> {
  return ids(ok(await s.get(`/v1/guides${query}`, key), `list${query}`).data);
}

async function detail(s: TestService, key: string, guideId: string): Promise<any> {
  return ok(await s.get(`/v1/guides/${guideId}`, key), `detail ${guideId}`).data;
}

async function newUser(s: TestService, name: string | null) {
  return s.admin('POST', '/users', { email: `u-${unique()}@example.com`, name });
}

const STEPS = [{ text: 'First step' }, { text: 'Second step' }, { text: 'Third step' }, { text: 'Fourth step' }, { text: 'Fifth step' }];

describe('guides', () => {
  it('a title edit shows in the list and in the detail, by id and by permalink', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: 'Old title', steps: STEPS });
    const other = await createGuide(t, team.id, { title: 'Untouched' });
    expect(ok(await t.get('/v1/guides', key)).data.map((g: { title: string }) => g.title)).toEqual(['Untouched', 'Old title']);
    expect((await detail(t, key, guide.id)).title).toBe('Old title');
    expect((await detail(t, key, guide.permalink)).markdown_body).toContain('# Old title');
    expect(ok(await t.get('/v1/guides?q=old', key)).data.map((g: { id: string }) => g.id)).toEqual([guide.id]);

    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'New title' });

    expect(ok(await t.get('/v1/guides', key)).data.map((g: { title: string }) => g.title)).toEqual(['Untouched', 'New title']);
    const byId = await detail(t, key, guide.id);
    expect(byId.title).toBe('New title');
    expect(byId.markdown_body).toContain('# New title');
    expect(byId.markdown_body).not.toContain('Old title');
    expect((await detail(t, key, guide.permalink)).title).toBe('New title');
    expect(ok(await t.get('/v1/guides?q=old', key)).data).toEqual([]);
    expect(ids(ok(await t.get('/v1/guides?q=new', key)).data)).toEqual([guide.id]);
    expect((await detail(t, key, other.id)).title).toBe('Untouched');
  });

  it('publish and unpublish show on the next read', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { publish_status: 'DRAFT' });
    expect((await detail(t, key, guide.id)).publish_status).toBe('DRAFT');
    expect(ok(await t.get('/v1/guides', key)).data[0].publish_status).toBe('DRAFT');

    await t.admin('PATCH', `/guides/${guide.id}`, { publish_status: 'PUBLISHED' });
    expect((await detail(t, key, guide.id)).publish_status).toBe('PUBLISHED');
    expect(ok(await t.get('/v1/guides', key)).data[0].publish_status).toBe('PUBLISHED');

    await t.admin('PATCH', `/guides/${guide.id}`, { publish_status: 'DRAFT', is_public: true });
    const again = await detail(t, key, guide.id);
    expect(again.publish_status).toBe('DRAFT');
    expect(again.is_public).toBe(true);
    expect(ok(await t.get('/v1/guides', key)).data[0].publish_status).toBe('DRAFT');
  });

  it('a deleted guide is 404 and gone from the list, including a page reached by cursor', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createGuide(t, team.id, { title: `Guide ${i}` }));
    const newestFirst = ids([...made].reverse());
    const first = ok(await t.get('/v1/guides?limit=2', key));
    expect(ids(first.data)).toEqual(newestFirst.slice(0, 2));
    const cursor = encodeURIComponent(first.next_cursor);
    expect(await listIds(t, key, `?limit=2&cursor=${cursor}`)).toEqual(newestFirst.slice(2));
    expect((await detail(t, key, made[1].id)).id).toBe(made[1].id);
    expect((await detail(t, key, made[3].id)).id).toBe(made[3].id);

    expect((await t.adminRaw('DELETE', `/guides/${made[1].id}`)).statusCode).toBe(204);
    expect((await t.adminRaw('DELETE', `/guides/${made[3].id}`)).statusCode).toBe(204);

    expectProblem(await t.get(`/v1/guides/${made[1].id}`, key), 404, 'not_found');
    expectProblem(await t.get(`/v1/guides/${made[1].permalink}`, key), 404, 'not_found');
    expectProblem(await t.get(`/v1/guides/${made[3].id}`, key), 404, 'not_found');
    expect(await listIds(t, key, `?limit=2&cursor=${cursor}`)).toEqual([made[0].id]);
    expect(await listIds(t, key, '?limit=2')).toEqual([made[2].id, made[0].id]);
    expect(await listIds(t, key)).toEqual([made[2].id, made[0].id]);
  });

  it('a created guide appears on page 1 at once', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const older = [];
    for (let i = 0; i < 3; i++) older.push(await createGuide(t, team.id, { title: `Older ${i}` }));
    expect(await listIds(t, key, '?limit=2')).toEqual([older[2].id, older[1].id]);
    expect(await listIds(t, key)).toEqual(ids([...older].reverse()));
    expect(await listIds(t, key, `?team_id=${team.id}`)).toEqual(ids([...older].reverse()));

    t.clock.advance(1000);
    const fresh = await createGuide(t, team.id, { title: 'Fresh' });
    expect(await listIds(t, key, '?limit=2')).toEqual([fresh.id, older[2].id]);
    expect(await listIds(t, key)).toEqual([fresh.id, ...ids([...older].reverse())]);
    expect(await listIds(t, key, `?team_id=${team.id}`)).toEqual([fresh.id, ...ids([...older].reverse())]);
    expect(ids(ok(await t.get('/v1/guides?q=fresh', key)).data)).toEqual([fresh.id]);
  });

  it('a guide moved to another team leaves the old team and appears in the new one', async () => {
    const { teams, key: orgKey } = await organizationWithTeams(t, 'growth', 2);
    const [from, to] = teams;
    const keyFrom = (await createKey(t, { type: 'team', id: from.id })).secret;
    const keyTo = (await createKey(t, { type: 'team', id: to.id })).secret;
    const guide = await createGuide(t, from.id, { title: 'Moving' });

    expect(await listIds(t, keyFrom)).toEqual([guide.id]);
    expect(await listIds(t, keyTo)).toEqual([]);
    expect(await listIds(t, orgKey, `?team_id=${from.id}`)).toEqual([guide.id]);
    expect(await listIds(t, orgKey, `?team_id=${to.id}`)).toEqual([]);
    expect((await detail(t, keyFrom, guide.id)).team_id).toBe(from.id);
    expect((await detail(t, orgKey, guide.id)).team_id).toBe(from.id);
    expectProblem(await t.get(`/v1/guides/${guide.id}`, keyTo), 404, 'not_found');

    await t.admin('POST', `/guides/${guide.id}/move`, { team_id: to.id });

    expect(await listIds(t, keyFrom)).toEqual([]);
    expect(await listIds(t, keyTo)).toEqual([guide.id]);
    expect(await listIds(t, orgKey, `?team_id=${from.id}`)).toEqual([]);
    expect(await listIds(t, orgKey, `?team_id=${to.id}`)).toEqual([guide.id]);
    expectProblem(await t.get(`/v1/guides/${guide.id}`, keyFrom), 404, 'not_found');
    expect((await detail(t, keyTo, guide.id)).team_id).toBe(to.id);
    expect((await detail(t, orgKey, guide.id)).team_id).toBe(to.id);
  });

  it('a processing guide is invisible until processing finishes, then visible in list and detail', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const visible = await createGuide(t, team.id, { title: 'Visible' });
    const processing = await createGuide(t, team.id, { title: 'Recording', processing: true, steps: STEPS });
    expect(await listIds(t, key)).toEqual([visible.id]);
    expect(ok(await t.get('/v1/guides?q=recording', key)).data).toEqual([]);
    expectProblem(await t.get(`/v1/guides/${processing.id}`, key), 404, 'not_found');
    expectProblem(await t.get(`/v1/guides/${processing.permalink}`, key), 404, 'not_found');

    await t.admin('POST', `/guides/${processing.id}/processing`, { outcome: 'finished' });

    expect(await listIds(t, key)).toEqual([processing.id, visible.id]);
    expect(ids(ok(await t.get('/v1/guides?q=recording', key)).data)).toEqual([processing.id]);
    expect((await detail(t, key, processing.id)).markdown_body).toContain('Fifth step');
    expect((await detail(t, key, processing.permalink)).id).toBe(processing.id);
  });

  it('a read that runs while a write lands never leaves the old answer behind', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: 'Round 0' });
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    for (let round = 1; round <= 12; round++) {
      // The write starts first and the reads a few turns of the event loop later, so that over the rounds
      // the reads land before, during and after the write; whichever answer they get, the next is new.
      const write = t.admin('PATCH', `/guides/${guide.id}`, { title: `Round ${round}` });
      for (let i = 0; i < round % 6; i++) await tick();
      const reads = [t.get(`/v1/guides/${guide.id}`, key), t.get('/v1/guides', key), t.get(`/v1/guides?team_id=${team.id}`, key)];
      await Promise.all([write, ...reads]);
      expect((await detail(t, key, guide.id)).title, `round ${round}`).toBe(`Round ${round}`);
      expect(ok(await t.get('/v1/guides', key)).data[0].title, `round ${round}`).toBe(`Round ${round}`);
      expect(ok(await t.get(`/v1/guides?team_id=${team.id}`, key)).data[0].title, `round ${round}`).toBe(`Round ${round}`);
    }
  });
});

describe('keys', () => {
  it('a revoked key is refused with 401 on the very next request, on every endpoint', async () => {
    const { team, key, keyId } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id);
    const paths = ['/v1/auth/verify', '/v1/guides', `/v1/guides/${guide.id}`, '/v1/teams', `/v1/members?team_id=${team.id}`];
    for (const path of paths) ok(await t.get(path, key), path);

    expect((await t.adminRaw('DELETE', `/api-keys/${keyId}`)).statusCode).toBe(204);

    for (const path of paths) expectProblem(await t.get(path, key), 401, 'invalid_key', path);
  });

  it('a key that expires is refused with key_expired once the clock passes it, without any write', async () => {
    const { team } = await soloTeam(t, 'growth');
    const { secret } = await createKey(t, { type: 'team', id: team.id }, { expires_in_days: 1 });
    const paths = ['/v1/auth/verify', '/v1/guides', '/v1/teams', `/v1/members?team_id=${team.id}`];
    for (const path of paths) ok(await t.get(path, secret), path);
    t.clock.advance(DAY_MS - 60_000);
    for (const path of paths) ok(await t.get(path, secret), `${path} a minute before expiry`);

    t.clock.advance(60_000 + 1);

    for (const path of paths) expectProblem(await t.get(path, secret), 401, 'key_expired', path);
  });

  it('last_used_at updates change no answer, and writes after them still show', async () => {
    const { team, key, keyId } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: 'Steady' });
    const lastUsed = async () => (await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`)).find((k: { id: string }) => k.id === keyId).last_used_at;
    expect(await lastUsed()).toBeNull();

    const first = await t.get('/v1/guides', key);
    const firstDetail = await t.get(`/v1/guides/${guide.id}`, key);
    const used = await eventually('last_used_at recorded', lastUsed);

    t.clock.advance(61_000);
    const second = await t.get('/v1/guides', key);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    const later = await eventually('last_used_at moved on', async () => {
      const value = await lastUsed();
      return value !== used && value;
    });
    expect(Date.parse(later)).toBeGreaterThan(Date.parse(used));

    const secondDetail = await t.get(`/v1/guides/${guide.id}`, key);
    expect(secondDetail.body).toBe(firstDetail.body);
    expect(secondDetail.headers.etag).toBe(firstDetail.headers.etag);
    expect(ok(await t.get('/v1/auth/verify', key)).data.id).toBe(keyId);

    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Moved on' });
    expect((await detail(t, key, guide.id)).title).toBe('Moved on');
    expect(ok(await t.get('/v1/guides', key)).data[0].title).toBe('Moved on');
  });
});

describe('organization policy', () => {
  it('api_enabled false refuses organization and team keys with api_disabled on the next request, and true lets them back', async () => {
    const { organization, teams, key: orgKey } = await organizationWithTeams(t, 'growth', 1);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    const paths = ['/v1/auth/verify', '/v1/guides', '/v1/teams', `/v1/members?team_id=${teams[0].id}`];
    for (const key of [orgKey, teamKey]) for (const path of paths) ok(await t.get(path, key), path);

    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
    for (const key of [orgKey, teamKey]) for (const path of paths) expectProblem(await t.get(path, key), 403, 'api_disabled', path);

    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: true });
    for (const key of [orgKey, teamKey]) for (const path of paths) ok(await t.get(path, key), path);
  });

  it('org_keys_only refuses team keys with team_keys_disabled at once, keeps organization keys, and lifting it lets them back', async () => {
    const { organization, teams, key: orgKey } = await organizationWithTeams(t, 'growth', 1);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    const paths = ['/v1/auth/verify', '/v1/guides', '/v1/teams'];
    for (const path of paths) ok(await t.get(path, teamKey), path);

    await t.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: true });
    for (const path of paths) {
      expectProblem(await t.get(path, teamKey), 403, 'team_keys_disabled', path);
      ok(await t.get(path, orgKey), path);
    }

    await t.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: false });
    for (const path of paths) ok(await t.get(path, teamKey), path);
  });

  it('a plan change free ↔ growth changes locked and the preview in list and detail', async () => {
    const { organization, teams, key } = await organizationWithTeams(t, 'free', 1);
    const teamId = teams[0].id;
    // 26 guides on free (limit 25): the newest one is locked. A millisecond apart, so that two made in
    // the same millisecond (ordered then by id) cannot swap which one is newest.
    const made = [];
    for (let i = 0; i < 26; i++) {
      t.clock.advance(1);
      made.push(await createGuide(t, teamId, { title: `Plan guide ${i}`, steps: STEPS }));
    }
    const newest = made[25];
    const oldest = made[0];

    const lockedIn = async () => {
      const list = ok(await t.get(`/v1/guides?team_id=${teamId}&limit=100`, key)).data;
      expect(list).toHaveLength(26);
      return list.filter((g: { locked: boolean }) => g.locked).map((g: { id: string }) => g.id);
    };

    expect(await lockedIn()).toEqual([newest.id]);
    const lockedDetail = await detail(t, key, newest.id);
    expect(lockedDetail.locked).toBe(true);
    expect(lockedDetail.notice).toEqual(expect.any(String));
    const preview = await detail(t, key, oldest.id);
    expect(preview.locked).toBe(false);
    expect(preview.notice).toEqual(expect.any(String));
    expect(preview.markdown_body).not.toContain('Fifth step');

    await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'growth' });

    expect(await lockedIn()).toEqual([]);
    for (const guide of [newest, oldest]) {
      const full = await detail(t, key, guide.id);
      expect(full.locked).toBe(false);
      expect(full.notice).toBeNull();
      expect(full.markdown_body).toContain('Fifth step');
    }

    await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'free' });

    expect(await lockedIn()).toEqual([newest.id]);
    expect((await detail(t, key, newest.id)).locked).toBe(true);
    const previewAgain = await detail(t, key, oldest.id);
    expect(previewAgain.notice).toEqual(expect.any(String));
    expect(previewAgain.markdown_body).toBe(preview.markdown_body);
  });

  it("a team's own plan change (team without organization) changes the preview", async () => {
    const { team, key } = await soloTeam(t, 'free');
    const guide = await createGuide(t, team.id, { steps: STEPS });
    expect((await detail(t, key, guide.id)).notice).toEqual(expect.any(String));
    await t.admin('PATCH', `/teams/${team.id}`, { plan: 'enterprise' });
    expect((await detail(t, key, guide.id)).notice).toBeNull();
    await t.admin('PATCH', `/teams/${team.id}`, { plan: 'starter' });
    expect((await detail(t, key, guide.id)).notice).toEqual(expect.any(String));
  });

  it('a guide created past the limit locks at once, and deleting one unlocks it', async () => {
    const { team, key } = await soloTeam(t, 'free');
    const made = [];
    for (let i = 0; i < 25; i++) made.push(await createGuide(t, team.id, { title: `Limit ${i}` }));
    const list = ok(await t.get('/v1/guides?limit=100', key)).data;
    expect(list.every((g: { locked: boolean }) => !g.locked)).toBe(true);

    const extra = await createGuide(t, team.id, { title: 'One too many' });
    expect((await detail(t, key, extra.id)).locked).toBe(true);
    expect(ok(await t.get('/v1/guides?limit=1', key)).data[0]).toMatchObject({ id: extra.id, locked: true });

    await t.adminRaw('DELETE', `/guides/${made[3].id}`);
    expect((await detail(t, key, extra.id)).locked).toBe(false);
    expect(ok(await t.get('/v1/guides?limit=1', key)).data[0]).toMatchObject({ id: extra.id, locked: false });
  });
});

describe('teams and reach', () => {
  it('a team that joins an organization is reached by its key at once; when it leaves it is not', async () => {
    const { organization, teams, key: orgKey } = await organizationWithTeams(t, 'growth', 1);
    const solo = await soloTeam(t, 'free');
    const orgGuide = await createGuide(t, teams[0].id, { title: 'Org guide' });
    t.clock.advance(1000);
    const soloGuide = await createGuide(t, solo.team.id, { title: 'Solo guide', steps: STEPS });

    const teamIds = async () => ids(ok(await t.get('/v1/teams', orgKey)).data);
    expect(await teamIds()).toEqual([teams[0].id]);
    expect(await listIds(t, orgKey)).toEqual([orgGuide.id]);
    expectProblem(await t.get(`/v1/guides/${soloGuide.id}`, orgKey), 404, 'not_found');
    expectProblem(await t.get(`/v1/guides?team_id=${solo.team.id}`, orgKey), 404, 'not_found');
    expectProblem(await t.get(`/v1/members?team_id=${solo.team.id}`, orgKey), 404, 'not_found');
    expect((await detail(t, solo.key, soloGuide.id)).notice).toEqual(expect.any(String));

    await t.admin('PATCH', `/teams/${solo.team.id}`, { organization_id: organization.id });

    expect((await teamIds()).sort()).toEqual([teams[0].id, solo.team.id].sort());
    expect(await listIds(t, orgKey)).toEqual([soloGuide.id, orgGuide.id]);
    expect(await listIds(t, orgKey, `?team_id=${solo.team.id}`)).toEqual([soloGuide.id]);
    expect((await detail(t, orgKey, soloGuide.id)).id).toBe(soloGuide.id);
    expect(ok(await t.get(`/v1/members?team_id=${solo.team.id}`, orgKey)).data).toEqual([]);
    // The team now has the organization's plan: its own key reads the whole guide.
    expect((await detail(t, solo.key, soloGuide.id)).notice).toBeNull();

    await t.admin('PATCH', `/teams/${solo.team.id}`, { organization_id: null });

    expect(await teamIds()).toEqual([teams[0].id]);
    expect(await listIds(t, orgKey)).toEqual([orgGuide.id]);
    expectProblem(await t.get(`/v1/guides/${soloGuide.id}`, orgKey), 404, 'not_found');
    expectProblem(await t.get(`/v1/guides?team_id=${solo.team.id}`, orgKey), 404, 'not_found');
    expectProblem(await t.get(`/v1/members?team_id=${solo.team.id}`, orgKey), 404, 'not_found');
    expect((await detail(t, solo.key, soloGuide.id)).id).toBe(soloGuide.id);
  });

  it("a team key follows its team's organization policy after it joins", async () => {
    const organization = await t.admin('POST', '/organizations', { name: `Closed ${unique()}`, plan: 'growth', api_enabled: false });
    const solo = await soloTeam(t, 'growth');
    ok(await t.get('/v1/teams', solo.key));
    await t.admin('PATCH', `/teams/${solo.team.id}`, { organization_id: organization.id });
    expectProblem(await t.get('/v1/teams', solo.key), 403, 'api_disabled');
    await t.admin('PATCH', `/teams/${solo.team.id}`, { organization_id: null });
    ok(await t.get('/v1/teams', solo.key));
  });

  it('a team rename and a new team show in /v1/teams', async () => {
    const { organization, teams, key } = await organizationWithTeams(t, 'growth', 1);
    expect(ok(await t.get('/v1/teams', key)).data).toEqual([{ id: teams[0].id, name: 'Team 0', role: null }]);
    await t.admin('PATCH', `/teams/${teams[0].id}`, { name: 'Renamed' });
    expect(ok(await t.get('/v1/teams', key)).data).toEqual([{ id: teams[0].id, name: 'Renamed', role: null }]);
    const added = await t.admin('POST', '/teams', { name: 'Added', organization_id: organization.id });
    expect(ok(await t.get('/v1/teams', key)).data.map((team: { name: string }) => team.name)).toEqual(['Added', 'Renamed']);
    expect(ids(ok(await t.get('/v1/teams', key)).data)).toEqual([added.id, teams[0].id]);
  });
});

describe('members and users', () => {
  it('a member added, a role changed and a member removed show in /v1/members at once', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const ada = await newUser(t, 'Ada');
    const bob = await newUser(t, 'Bob');
    const path = `/v1/members?team_id=${team.id}`;
    expect(ok(await t.get(path, key)).data).toEqual([]);

    await t.admin('PUT', `/teams/${team.id}/members/${ada.id}`, { role: 'EDITOR' });
    expect(ok(await t.get(path, key)).data.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([[ada.id, 'EDITOR']]);

    t.clock.advance(1000);
    await t.admin('PUT', `/teams/${team.id}/members/${bob.id}`, { role: 'VIEWER' });
    expect(ok(await t.get(path, key)).data.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [ada.id, 'EDITOR'],
      [bob.id, 'VIEWER'],
    ]);

    await t.admin('PUT', `/teams/${team.id}/members/${ada.id}`, { role: 'ADMIN' });
    expect(ok(await t.get(path, key)).data.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [ada.id, 'ADMIN'],
      [bob.id, 'VIEWER'],
    ]);

    expect((await t.adminRaw('DELETE', `/teams/${team.id}/members/${bob.id}`)).statusCode).toBe(204);
    expect(ok(await t.get(path, key)).data.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([[ada.id, 'ADMIN']]);
  });

  it("a user's name change shows in /v1/members and as owner_name in list and detail", async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 2);
    const user = await newUser(t, 'Grace Hopper');
    await t.admin('PUT', `/teams/${teams[0].id}/members/${user.id}`, { role: 'ADMIN' });
    await t.admin('PUT', `/teams/${teams[1].id}/members/${user.id}`, { role: 'VIEWER' });
    const guide = await createGuide(t, teams[1].id, { title: 'Owned', owner_id: user.id });

    const names = async () => [
      ok(await t.get(`/v1/members?team_id=${teams[0].id}`, key)).data[0].name,
      ok(await t.get(`/v1/members?team_id=${teams[1].id}`, key)).data[0].name,
      ok(await t.get('/v1/guides', key)).data.find((g: { id: string }) => g.id === guide.id).owner_name,
      (await detail(t, key, guide.id)).owner_name,
    ];
    expect(await names()).toEqual(Array(4).fill('Grace Hopper'));

    // The management API has no call that renames a user (the application does it in the shared
    // store), so the rename goes through the service's own store handle, as the application's would.
    await t.service.ctx.db.updateTable('users').set({ name: 'Grace Brewster Hopper' }).where('id', '=', user.id).execute();
    expect(await names()).toEqual(Array(4).fill('Grace Brewster Hopper'));

    await t.service.ctx.db.updateTable('users').set({ name: null }).where('id', '=', user.id).execute();
    expect(await names()).toEqual(Array(4).fill(null));
  });

  it("a guide's owner change shows as owner_name", async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const first = await newUser(t, 'First owner');
    const second = await newUser(t, 'Second owner');
    for (const user of [first, second]) await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    const guide = await createGuide(t, team.id, { owner_id: first.id });
    expect((await detail(t, key, guide.id)).owner_name).toBe('First owner');
    expect(ok(await t.get('/v1/guides', key)).data[0].owner_name).toBe('First owner');
    await t.admin('PATCH', `/guides/${guide.id}`, { owner_id: second.id });
    expect((await detail(t, key, guide.id)).owner_name).toBe('Second owner');
    expect(ok(await t.get('/v1/guides', key)).data[0].owner_name).toBe('Second owner');
  });
});

describe('READ_CACHE=false', () => {
  it('answers the same, and writes show the same way', async () => {
    const s = await startTestService({ READ_CACHE: 'false' });
    try {
      expect(s.service.ctx.readCache).toBeUndefined();
      const { organization, teams, key } = await organizationWithTeams(s, 'free', 1);
      const user = await newUser(s, 'Uncached');
      await s.admin('PUT', `/teams/${teams[0].id}/members/${user.id}`, { role: 'EDITOR' });
      const guide = await createGuide(s, teams[0].id, { title: 'Uncached guide', steps: STEPS, owner_id: user.id });
      const paths = ['/v1/auth/verify', '/v1/guides', `/v1/guides/${guide.id}`, '/v1/teams', `/v1/members?team_id=${teams[0].id}`];
      const first = new Map<string, LightMyRequestResponse>();
      for (const path of paths) first.set(path, await s.get(path, key));
      for (const path of paths) {
        const again = await s.get(path, key);
        expect(again.statusCode, path).toBe(200);
        expect(again.body, path).toBe(first.get(path)!.body);
        expect(again.headers.etag, path).toBe(first.get(path)!.headers.etag);
      }
      expect((await detail(s, key, guide.id)).notice).toEqual(expect.any(String));
      await s.admin('PATCH', `/organizations/${organization.id}`, { plan: 'growth' });
      await s.admin('PATCH', `/guides/${guide.id}`, { title: 'Renamed uncached' });
      const after = await detail(s, key, guide.id);
      expect(after).toMatchObject({ title: 'Renamed uncached', notice: null, owner_name: 'Uncached' });
      expect(ok(await s.get('/v1/guides', key)).data[0].title).toBe('Renamed uncached');
      await s.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
      expectProblem(await s.get('/v1/teams', key), 403, 'api_disabled');
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(usingPostgres)('writes by another connection to the same SQLite file (PRAGMA data_version)', () => {
  it('are seen on the next request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-cache-file-'));
    const file = join(dir, 'store.db');
    const s = await startTestService({ DATABASE_URL: `file:${file}` });
    const other = new SQLite(file);
    other.pragma('busy_timeout = 5000');
    try {
      const { organization, teams, key, keyId } = await organizationWithTeams(s, 'growth', 1);
      const teamId = teams[0].id;
      const user = await newUser(s, 'Katherine');
      await s.admin('PUT', `/teams/${teamId}/members/${user.id}`, { role: 'EDITOR' });
      const guide = await createGuide(s, teamId, { title: 'On disk', owner_id: user.id, steps: STEPS });
      const members = `/v1/members?team_id=${teamId}`;

      const read = async () => ({
        detail: await detail(s, key, guide.id),
        list: ok(await s.get('/v1/guides', key)).data,
        members: ok(await s.get(members, key)).data,
        teams: ok(await s.get('/v1/teams', key)).data,
      });
      const before = await read();
      expect(before.detail).toMatchObject({ title: 'On disk', owner_name: 'Katherine', notice: null });
      expect(before.list.map((g: { title: string }) => g.title)).toEqual(['On disk']);
      expect(before.members.map((m: { name: string }) => m.name)).toEqual(['Katherine']);
      // Read twice, so a kept answer would be served.
      expect(await read()).toEqual(before);

      other.prepare('UPDATE guides SET title = ?, title_folded = ? WHERE id = ?').run('Edited elsewhere', foldCase('Edited elsewhere'), guide.id);
      const afterTitle = await read();
      expect(afterTitle.detail.title).toBe('Edited elsewhere');
      expect(afterTitle.detail.markdown_body).toContain('# Edited elsewhere');
      expect(afterTitle.list.map((g: { title: string }) => g.title)).toEqual(['Edited elsewhere']);
      expect(ids(ok(await s.get('/v1/guides?q=elsewhere', key)).data)).toEqual([guide.id]);

      other.prepare('UPDATE users SET name = ? WHERE id = ?').run('Katherine Johnson', user.id);
      const afterName = await read();
      expect(afterName.members.map((m: { name: string }) => m.name)).toEqual(['Katherine Johnson']);
      expect(afterName.detail.owner_name).toBe('Katherine Johnson');
      expect(afterName.list[0].owner_name).toBe('Katherine Johnson');

      other.prepare('UPDATE teams SET name = ? WHERE id = ?').run('Renamed elsewhere', teamId);
      expect((await read()).teams.map((team: { name: string }) => team.name)).toEqual(['Renamed elsewhere']);

      other.prepare('DELETE FROM memberships WHERE team_id = ? AND user_id = ?').run(teamId, user.id);
      expect((await read()).members).toEqual([]);

      other.prepare("UPDATE organizations SET plan = 'free' WHERE id = ?").run(organization.id);
      const preview = await detail(s, key, guide.id);
      expect(preview.notice).toEqual(expect.any(String));
      expect(preview.markdown_body).not.toContain('Fifth step');

      other.prepare('UPDATE organizations SET api_enabled = 0 WHERE id = ?').run(organization.id);
      expectProblem(await s.get('/v1/teams', key), 403, 'api_disabled');
      other.prepare('UPDATE organizations SET api_enabled = 1 WHERE id = ?').run(organization.id);
      ok(await s.get('/v1/teams', key));

      other.prepare('DELETE FROM guides WHERE id = ?').run(guide.id);
      expectProblem(await s.get(`/v1/guides/${guide.id}`, key), 404, 'not_found');
      expect(ok(await s.get('/v1/guides', key)).data).toEqual([]);

      other.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), keyId);
      expectProblem(await s.get('/v1/auth/verify', key), 401, 'invalid_key');
    } finally {
      other.close();
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

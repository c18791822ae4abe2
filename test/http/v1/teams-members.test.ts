// GET /teams (spec §2.4, §4.4) and GET /members (spec §2.5, §4.5), with the orderings of decisions §4.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PUBLIC_URL, createKey, organizationWithTeams, soloTeam, startTestService, type TestService } from '../../support/service.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectProblem(response: LightMyRequestResponse, code: string, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json();
  expect(body).toMatchObject({ code, status, type: `${PUBLIC_URL}/docs#error-${code}` });
  expect(body.detail.length).toBeGreaterThan(0);
  return body as { detail: string };
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

let t: TestService;
let emailCounter = 0;

async function newUser(fields: { name?: string | null; avatar_url?: string | null } = {}) {
  emailCounter += 1;
  return t.admin('POST', '/users', { email: `person${emailCounter}.${Math.random().toString(36).slice(2)}@example.com`, ...fields });
}

beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

describe('GET /teams (spec §4.4)', () => {
  it('a team key gets its own team and nothing else, with role null and exactly {id, name, role}', async () => {
    const { teams } = await organizationWithTeams(t, 'growth', 3);
    const teamKey = await createKey(t, { type: 'team', id: teams[1].id });
    const response = await t.get('/v1/teams', teamKey.secret);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [{ id: teams[1].id, name: 'Team 1', role: null }] });
    expect(Object.keys(response.json().data[0])).toEqual(['id', 'name', 'role']);

    const { team, key } = await soloTeam(t);
    expect((await t.get('/v1/teams', key)).json()).toEqual({ data: [{ id: team.id, name: team.name, role: null }] });
  });

  it('an organization key gets every team of its organization, including teams that join later', async () => {
    const { organization, teams, key } = await organizationWithTeams(t, 'growth', 2);
    const other = await organizationWithTeams(t, 'growth', 1);
    const first = (await t.get('/v1/teams', key)).json().data;
    expect(first.map((team: { id: string }) => team.id).sort()).toEqual(teams.map((team: { id: string }) => team.id).sort());

    const createdLater = await t.admin('POST', '/teams', { name: 'Created later', organization_id: organization.id });
    const solo = await soloTeam(t);
    await t.admin('PATCH', `/teams/${solo.team.id}`, { organization_id: organization.id });

    const later = (await t.get('/v1/teams', key)).json().data;
    const ids = later.map((team: { id: string }) => team.id);
    expect(ids).toHaveLength(4);
    expect(ids).toEqual(expect.arrayContaining([...teams.map((team: { id: string }) => team.id), createdLater.id, solo.team.id]));
    expect(ids).not.toContain(other.teams[0].id);
    for (const team of later) {
      expect(Object.keys(team)).toEqual(['id', 'name', 'role']);
      expect(team.role).toBeNull();
    }
  });

  it('teams are ordered by name ignoring case, null names last, then by id (decisions §4)', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Ordering', plan: 'growth' });
    const made: { id: string; name: string | null }[] = [];
    for (const name of ['beta', null, 'Alpha', 'Zeta', 'alpha', null, 'ALPHA', 'b']) {
      made.push(await t.admin('POST', '/teams', { name, organization_id: organization.id }));
    }
    const key = await createKey(t, { type: 'organization', id: organization.id });
    const response = await t.get('/v1/teams', key.secret);
    expect(response.statusCode).toBe(200);

    const named = (lower: string) => made.filter((team) => team.name !== null && team.name.toLowerCase() === lower).sort(byId);
    const nulls = made.filter((team) => team.name === null).sort(byId);
    const expected = [...named('alpha'), ...named('b'), ...named('beta'), ...named('zeta'), ...nulls];
    expect(response.json().data).toEqual(expected.map((team) => ({ id: team.id, name: team.name, role: null })));
  });

  it('a team that leaves the organization is no longer reached by the organization key', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 2);
    await t.admin('PATCH', `/teams/${teams[0].id}`, { organization_id: null });
    const ids = (await t.get('/v1/teams', key)).json().data.map((team: { id: string }) => team.id);
    expect(ids).toEqual([teams[1].id]);
  });

  it('an organization without teams answers an empty list', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Empty', plan: 'growth' });
    const key = await createKey(t, { type: 'organization', id: organization.id });
    expect((await t.get('/v1/teams', key.secret)).json()).toEqual({ data: [] });
  });
});

describe('GET /members (spec §4.5)', () => {
  it('a missing team_id is 400 invalid_request naming team_id', async () => {
    const { key } = await soloTeam(t);
    for (const path of ['/v1/members', '/v1/members?', '/v1/members?team_id=']) {
      const body = expectProblem(await t.get(path, key), 'invalid_request', 400);
      expect(body.detail, path).toContain('team_id');
    }
  });

  it('a malformed team_id is 400 invalid_request naming team_id', async () => {
    const { team, key } = await soloTeam(t);
    for (const value of ['abc', '123', team.id.slice(0, -1), `${team.id}0`, team.id.replaceAll('-', ''), `{${team.id}}`, 'null', '%20']) {
      const body = expectProblem(await t.get(`/v1/members?team_id=${value}`, key), 'invalid_request', 400);
      expect(body.detail, value).toContain('team_id');
    }
  });

  it('a repeated team_id is 400 invalid_request naming team_id, even when both are the same', async () => {
    const { team, key } = await soloTeam(t);
    const other = await soloTeam(t);
    for (const path of [`/v1/members?team_id=${team.id}&team_id=${team.id}`, `/v1/members?team_id=${team.id}&team_id=${other.team.id}`]) {
      const body = expectProblem(await t.get(path, key), 'invalid_request', 400);
      expect(body.detail).toContain('team_id');
    }
  });

  it('a team the key does not reach is 404 not_found (decisions §4)', async () => {
    const { teams, key: orgKey } = await organizationWithTeams(t, 'growth', 2);
    const teamKey = await createKey(t, { type: 'team', id: teams[0].id });
    const elsewhere = await soloTeam(t);
    for (const [key, teamId] of [
      [orgKey, elsewhere.team.id],
      [orgKey, crypto.randomUUID()],
      [teamKey.secret, teams[1].id],
      [teamKey.secret, elsewhere.team.id],
    ]) {
      expectProblem(await t.get(`/v1/members?team_id=${teamId}`, key), 'not_found', 404);
    }
    expect((await t.get(`/v1/members?team_id=${teams[1].id}`, orgKey)).statusCode).toBe(200);
    expect((await t.get(`/v1/members?team_id=${teams[0].id}`, teamKey.secret)).statusCode).toBe(200);
  });

  it('a team without members answers an empty list', async () => {
    const { team, key } = await soloTeam(t);
    expect((await t.get(`/v1/members?team_id=${team.id}`, key)).json()).toEqual({ data: [] });
  });

  it('members carry exactly the fields of spec §2.5 and are ordered by joined_at, then id (decisions §4)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 1);
    const teamId = teams[0].id;
    const users = [
      await newUser({ name: 'Ada', avatar_url: 'https://example.com/ada.png' }),
      await newUser({ name: null, avatar_url: null }),
      await newUser({ name: 'Émile' }),
    ];
    // Join in descending id order, a second apart, so that joined_at and id disagree.
    const joinOrder = [...users].sort(byId).reverse();
    const roles = ['ADMIN', 'EDITOR', 'VIEWER'] as const;
    const joined: Record<string, string> = {};
    for (const [i, user] of joinOrder.entries()) {
      const member = await t.admin('PUT', `/teams/${teamId}/members/${user.id}`, { role: roles[i] });
      joined[user.id] = member.joined_at;
      t.clock.advance(1000);
    }

    const response = await t.get(`/v1/members?team_id=${teamId}`, key);
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.map((member: { id: string }) => member.id)).toEqual(joinOrder.map((user) => user.id));
    for (const [i, member] of data.entries()) {
      expect(Object.keys(member).sort()).toEqual(['avatar_url', 'email', 'id', 'joined_at', 'name', 'role']);
      const user = joinOrder[i]!;
      expect(member).toEqual({
        id: user.id,
        name: user.name,
        email: user.email,
        avatar_url: user.avatar_url,
        role: roles[i],
        joined_at: joined[user.id],
      });
      expect(member.joined_at).toMatch(TIMESTAMP);
    }
    const times = data.map((member: { joined_at: string }) => Date.parse(member.joined_at));
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(1000);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(1000);
  });

  it('members who joined at the same instant are ordered by id (decisions §4)', async () => {
    const { team, key } = await soloTeam(t);
    const users = [await newUser({ name: 'One' }), await newUser({ name: 'Two' }), await newUser({ name: 'Three' }), await newUser({ name: 'Four' })];
    // Freeze Date so that the test clock stands still while they join.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date());
    const joinedAt = new Set<string>();
    for (const user of users) joinedAt.add((await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' })).joined_at);
    vi.useRealTimers();
    expect(joinedAt.size).toBe(1);

    const data = (await t.get(`/v1/members?team_id=${team.id}`, key)).json().data;
    expect(data.map((member: { id: string }) => member.id)).toEqual([...users].sort(byId).map((user) => user.id));
  });

  it('a role change is reflected without moving the member, and a removed member is gone', async () => {
    const { team, key } = await soloTeam(t);
    const first = await newUser({ name: 'First' });
    const second = await newUser({ name: 'Second' });
    const third = await newUser({ name: 'Third' });
    for (const user of [first, second, third]) {
      await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
      t.clock.advance(1000);
    }
    const before = (await t.get(`/v1/members?team_id=${team.id}`, key)).json().data;

    await t.admin('PUT', `/teams/${team.id}/members/${first.id}`, { role: 'ADMIN' });
    await t.admin('PUT', `/teams/${team.id}/members/${third.id}`, { role: 'VIEWER' });
    const changed = (await t.get(`/v1/members?team_id=${team.id}`, key)).json().data;
    expect(changed.map((member: { id: string }) => member.id)).toEqual([first.id, second.id, third.id]);
    expect(changed.map((member: { role: string }) => member.role)).toEqual(['ADMIN', 'EDITOR', 'VIEWER']);
    expect(changed.map((member: { joined_at: string }) => member.joined_at)).toEqual(before.map((member: { joined_at: string }) => member.joined_at));

    expect((await t.adminRaw('DELETE', `/teams/${team.id}/members/${second.id}`)).statusCode).toBe(204);
    const after = (await t.get(`/v1/members?team_id=${team.id}`, key)).json().data;
    expect(after.map((member: { id: string }) => member.id)).toEqual([first.id, third.id]);
  });

  it('members of one team do not appear in another, and an organization key reads every team of its organization', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 2);
    const shared = await newUser({ name: 'Shared' });
    const onlyFirst = await newUser({ name: 'Only first' });
    await t.admin('PUT', `/teams/${teams[0].id}/members/${shared.id}`, { role: 'EDITOR' });
    await t.admin('PUT', `/teams/${teams[0].id}/members/${onlyFirst.id}`, { role: 'VIEWER' });
    await t.admin('PUT', `/teams/${teams[1].id}/members/${shared.id}`, { role: 'ADMIN' });

    const firstTeam = (await t.get(`/v1/members?team_id=${teams[0].id}`, key)).json().data;
    const secondTeam = (await t.get(`/v1/members?team_id=${teams[1].id}`, key)).json().data;
    expect(firstTeam.map((member: { id: string }) => member.id).sort()).toEqual([shared.id, onlyFirst.id].sort());
    expect(secondTeam).toEqual([expect.objectContaining({ id: shared.id, role: 'ADMIN' })]);
  });

  it('an upper-case team_id reads the same team (ids are UUIDs in any letter case)', async () => {
    const { team, key } = await soloTeam(t);
    const user = await newUser();
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    const response = await t.get(`/v1/members?team_id=${team.id.toUpperCase()}`, key);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((member: { id: string }) => member.id)).toEqual([user.id]);
  });
});

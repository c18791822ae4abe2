// Teams, users and team memberships through the management API (decisions §7, §3; spec §2.5).
import { describe, expect, it } from 'vitest';
import {
  createKey,
  soloTeam,
  useTestService,
} from '../../support/service.js';
import {
  createUser,
  expectConflict,
  expectInvalid,
  expectNotFound,
  LOWER_UUID,
  RFC3339_MS,
  UNKNOWN_ID,
  uniqueEmail,
} from './helpers.js';

const t = useTestService();

const TEAM_KEYS = ['brand_color', 'created_at', 'id', 'name', 'organization_id', 'plan', 'updated_at'];
const USER_KEYS = ['avatar_url', 'created_at', 'email', 'id', 'name'];
const MEMBER_KEYS = ['avatar_url', 'email', 'id', 'joined_at', 'name', 'role'];

const newOrganization = (plan = 'growth') => t.admin('POST', '/organizations', { name: `Org ${plan}`, plan });

describe('POST /teams', () => {
  it('creates a team without organization: organization_id null, its own plan (default free), brand_color null (201)', async () => {
    const response = await t.adminRaw('POST', '/teams', { name: 'Solo' });
    expect(response.statusCode).toBe(201);
    const team = response.json().data;
    expect(Object.keys(team).sort()).toEqual(TEAM_KEYS);
    expect(team).toMatchObject({ name: 'Solo', organization_id: null, plan: 'free', brand_color: null });
    expect(team.id).toMatch(LOWER_UUID);
    expect(team.created_at).toMatch(RFC3339_MS);
    expect(team.updated_at).toBe(team.created_at);
  });

  it('takes a plan and a brand_color for a team without organization', async () => {
    for (const plan of ['free', 'starter', 'growth', 'enterprise']) {
      const team = await t.admin('POST', '/teams', { name: 'Solo', plan, brand_color: '#1A2b3C' });
      expect(team).toMatchObject({ plan, brand_color: '#1A2b3C', organization_id: null });
    }
  });

  it("creates a team in an organization; its answer shows the organization's plan (decisions §3)", async () => {
    const organization = await newOrganization('enterprise');
    const team = await t.admin('POST', '/teams', { name: 'In org', organization_id: organization.id });
    expect(team).toMatchObject({ name: 'In org', organization_id: organization.id, plan: 'enterprise' });
  });

  it('takes an organization_id in any letter case and answers it lowercase (decisions §2)', async () => {
    const organization = await newOrganization('starter');
    const team = await t.admin('POST', '/teams', { name: 'Upper', organization_id: organization.id.toUpperCase() });
    expect(team.organization_id).toBe(organization.id);
    expect(team.plan).toBe('starter');
  });

  it('refuses plan together with organization_id: 400 naming plan (the plan belongs to the organization)', async () => {
    const organization = await newOrganization();
    for (const plan of ['free', 'growth']) {
      expectInvalid(await t.adminRaw('POST', '/teams', { name: 'x', organization_id: organization.id, plan }), 'plan');
    }
  });

  it('answers 404 not_found for an organization that does not exist', async () => {
    expectNotFound(await t.adminRaw('POST', '/teams', { name: 'x', organization_id: UNKNOWN_ID }));
  });

  it('requires a name (decisions §7: name is not optional on POST /teams)', async () => {
    expectInvalid(await t.adminRaw('POST', '/teams', {}), 'name');
    expectInvalid(await t.adminRaw('POST', '/teams', { plan: 'growth' }), 'name');
  });

  it('refuses an empty name, a name over 200 characters, a bad plan, an unknown field, naming each', async () => {
    expectInvalid(await t.adminRaw('POST', '/teams', { name: '' }), 'name');
    expectInvalid(await t.adminRaw('POST', '/teams', { name: 'x'.repeat(201) }), 'name');
    expect((await t.admin('POST', '/teams', { name: 'x'.repeat(200) })).name).toBe('x'.repeat(200));
    for (const plan of ['gold', 'Free', '', null]) expectInvalid(await t.adminRaw('POST', '/teams', { name: 'x', plan }), 'plan');
    expectInvalid(await t.adminRaw('POST', '/teams', { name: 'x', color: '#000000' }), 'color');
    expectInvalid(await t.adminRaw('POST', '/teams', { name: 'x', organization_id: 'acme' }), 'organization_id');
    expectInvalid(await t.adminRaw('POST', '/teams', { name: ['x'] }), 'name');
  });

  it('refuses a brand_color that is not #RRGGBB, naming brand_color', async () => {
    for (const brand_color of ['red', '#12345', '#1234567', '123456', '#GGGGGG', '#12 456', 'rgb(1,2,3)', '', '#fff']) {
      expectInvalid(await t.adminRaw('POST', '/teams', { name: 'x', brand_color }), 'brand_color');
    }
    expect((await t.admin('POST', '/teams', { name: 'x', brand_color: null })).brand_color).toBeNull();
    expect((await t.admin('POST', '/teams', { name: 'x', brand_color: '#abcdef' })).brand_color).toBe('#abcdef');
  });
});

describe('GET /teams/{id}', () => {
  it('answers the team as it was created', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Readable', plan: 'starter', brand_color: '#00FF00' });
    expect(await t.admin('GET', `/teams/${team.id}`)).toEqual(team);
  });

  it('answers 404 not_found for an unknown team', async () => {
    expectNotFound(await t.adminRaw('GET', `/teams/${UNKNOWN_ID}`));
  });

  it("shows the effective plan: its organization's, following a change of the organization's plan (decisions §3)", async () => {
    const organization = await newOrganization('free');
    const team = await t.admin('POST', '/teams', { name: 'Follows', organization_id: organization.id });
    expect(team.plan).toBe('free');
    await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'growth' });
    expect((await t.admin('GET', `/teams/${team.id}`)).plan).toBe('growth');
  });
});

describe('PATCH /teams/{id}', () => {
  it('takes an organization_id in any letter case: the team joins and answers it lowercase (decisions §2)', async () => {
    const organization = await newOrganization('growth');
    const team = await t.admin('POST', '/teams', { name: 'Upper join' });
    const response = await t.adminRaw('PATCH', `/teams/${team.id}`, { organization_id: organization.id.toUpperCase() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ organization_id: organization.id, plan: 'growth' });
  });

  it('changes name, brand_color and plan of a team without organization, each alone', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Before', plan: 'free', brand_color: '#000000' });
    t.clock.advance(1000);
    const renamed = await t.admin('PATCH', `/teams/${team.id}`, { name: 'After' });
    expect(renamed).toMatchObject({ name: 'After', plan: 'free', brand_color: '#000000', organization_id: null, created_at: team.created_at });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThan(Date.parse(team.updated_at));
    expect(await t.admin('PATCH', `/teams/${team.id}`, { brand_color: '#ABCDEF' })).toMatchObject({ name: 'After', brand_color: '#ABCDEF' });
    expect(await t.admin('PATCH', `/teams/${team.id}`, { brand_color: null })).toMatchObject({ name: 'After', brand_color: null });
    expect(await t.admin('PATCH', `/teams/${team.id}`, { plan: 'starter' })).toMatchObject({ name: 'After', plan: 'starter' });
    expect(await t.admin('GET', `/teams/${team.id}`)).toMatchObject({ name: 'After', plan: 'starter', brand_color: null });
  });

  it('a team brand_color shows on its guides (spec §2.3)', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Brand' });
    const guide = await t.admin('POST', '/guides', { team_id: team.id, title: 'Brand' });
    expect(guide.brand_color).toBeNull();
    await t.admin('PATCH', `/teams/${team.id}`, { brand_color: '#123456' });
    expect((await t.admin('GET', `/guides/${guide.id}`)).brand_color).toBe('#123456');
  });

  it("setting organization_id joins the team to the organization: the team's plan becomes the organization's", async () => {
    const organization = await newOrganization('enterprise');
    const team = await t.admin('POST', '/teams', { name: 'Joiner', plan: 'starter' });
    const joined = await t.admin('PATCH', `/teams/${team.id}`, { organization_id: organization.id });
    expect(joined).toMatchObject({ id: team.id, name: 'Joiner', organization_id: organization.id, plan: 'enterprise' });
    expect(await t.admin('GET', `/teams/${team.id}`)).toEqual(joined);
  });

  it('an organization key reaches a team once it joins the organization (spec §1: including teams that join later)', async () => {
    const organization = await newOrganization('growth');
    const first = await t.admin('POST', '/teams', { name: 'First', organization_id: organization.id });
    const key = await createKey(t, { type: 'organization', id: organization.id });
    const { team: joiner } = await soloTeam(t, 'free');
    const guide = await t.admin('POST', '/guides', { team_id: joiner.id, title: 'Joiner guide' });

    const before = await t.get('/v1/teams', key.secret);
    expect(before.json().data.map((team: any) => team.id)).toEqual([first.id]);
    expect((await t.get(`/v1/guides/${guide.id}`, key.secret)).statusCode).toBe(404);

    await t.admin('PATCH', `/teams/${joiner.id}`, { organization_id: organization.id });
    const after = await t.get('/v1/teams', key.secret);
    expect(after.statusCode).toBe(200);
    expect(after.json().data.map((team: any) => team.id).sort()).toEqual([first.id, joiner.id].sort());
    const read = await t.get(`/v1/guides/${guide.id}`, key.secret);
    expect(read.statusCode).toBe(200);
    // The team now rides on the organization's growth plan: the guide is whole.
    expect(read.json().data.notice).toBeNull();
  });

  it('organization_id null leaves the organization: the key no longer reaches it, the team has its own plan again', async () => {
    const organization = await newOrganization('growth');
    const team = await t.admin('POST', '/teams', { name: 'Leaver', plan: 'starter' });
    await t.admin('PATCH', `/teams/${team.id}`, { organization_id: organization.id });
    const key = await createKey(t, { type: 'organization', id: organization.id });
    expect((await t.get('/v1/teams', key.secret)).json().data.map((row: any) => row.id)).toEqual([team.id]);

    const left = await t.admin('PATCH', `/teams/${team.id}`, { organization_id: null });
    expect(left).toMatchObject({ id: team.id, organization_id: null, plan: 'starter' });
    expect((await t.get('/v1/teams', key.secret)).json().data).toEqual([]);
  });

  it('moves a team from one organization to another', async () => {
    const a = await newOrganization('free');
    const b = await newOrganization('enterprise');
    const team = await t.admin('POST', '/teams', { name: 'Mover', organization_id: a.id });
    const moved = await t.admin('PATCH', `/teams/${team.id}`, { organization_id: b.id });
    expect(moved).toMatchObject({ organization_id: b.id, plan: 'enterprise' });
  });

  it('refuses plan for a team in an organization, or with organization_id in the same request: 400 naming plan', async () => {
    const organization = await newOrganization('growth');
    const member = await t.admin('POST', '/teams', { name: 'Member', organization_id: organization.id });
    expectInvalid(await t.adminRaw('PATCH', `/teams/${member.id}`, { plan: 'enterprise' }), 'plan');
    const solo = await t.admin('POST', '/teams', { name: 'Solo', plan: 'free' });
    expectInvalid(await t.adminRaw('PATCH', `/teams/${solo.id}`, { organization_id: organization.id, plan: 'free' }), 'plan');
    expect(await t.admin('GET', `/teams/${solo.id}`)).toMatchObject({ organization_id: null, plan: 'free' });
  });

  it('leaving and setting a plan in one request is allowed', async () => {
    const organization = await newOrganization('growth');
    const team = await t.admin('POST', '/teams', { name: 'Leaves', organization_id: organization.id });
    const left = await t.admin('PATCH', `/teams/${team.id}`, { organization_id: null, plan: 'enterprise' });
    expect(left).toMatchObject({ organization_id: null, plan: 'enterprise' });
  });

  it('answers 404 not_found for an unknown team or an unknown organization_id, and changes nothing', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Stays' });
    expectNotFound(await t.adminRaw('PATCH', `/teams/${UNKNOWN_ID}`, { name: 'x' }));
    expectNotFound(await t.adminRaw('PATCH', `/teams/${team.id}`, { organization_id: UNKNOWN_ID }));
    expect(await t.admin('GET', `/teams/${team.id}`)).toEqual(team);
  });

  it('refuses bad values naming the field', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Guarded' });
    expectInvalid(await t.adminRaw('PATCH', `/teams/${team.id}`, { name: '' }), 'name');
    expectInvalid(await t.adminRaw('PATCH', `/teams/${team.id}`, { name: 'x'.repeat(201) }), 'name');
    expectInvalid(await t.adminRaw('PATCH', `/teams/${team.id}`, { brand_color: 'blue' }), 'brand_color');
    expectInvalid(await t.adminRaw('PATCH', `/teams/${team.id}`, { plan: 'gold' }), 'plan');
    expectInvalid(await t.adminRaw('PATCH', `/teams/${team.id}`, { organization_id: 'nope' }), 'organization_id');
    expectInvalid(await t.adminRaw('PATCH', `/teams/${team.id}`, { id: UNKNOWN_ID }), 'id');
    expect(await t.admin('GET', `/teams/${team.id}`)).toEqual(team);
  });
});

describe('POST /users and GET /users/{id}', () => {
  it('creates a user with name and avatar_url null by default (201)', async () => {
    const email = uniqueEmail();
    const response = await t.adminRaw('POST', '/users', { email });
    expect(response.statusCode).toBe(201);
    const user = response.json().data;
    expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    expect(user).toMatchObject({ email, name: null, avatar_url: null });
    expect(user.id).toMatch(LOWER_UUID);
    expect(user.created_at).toMatch(RFC3339_MS);
  });

  it('takes name and avatar_url', async () => {
    const user = await t.admin('POST', '/users', { email: uniqueEmail(), name: 'Ada Lovelace', avatar_url: 'https://example.com/ada.png' });
    expect(user).toMatchObject({ name: 'Ada Lovelace', avatar_url: 'https://example.com/ada.png' });
    expect(await t.admin('GET', `/users/${user.id}`)).toEqual(user);
  });

  it('refuses an e-mail that is taken, ignoring letter case: 409 conflict', async () => {
    const email = uniqueEmail('Mixed.Case');
    await t.admin('POST', '/users', { email });
    expectConflict(await t.adminRaw('POST', '/users', { email }));
    expectConflict(await t.adminRaw('POST', '/users', { email: email.toUpperCase() }));
    expectConflict(await t.adminRaw('POST', '/users', { email: email.toLowerCase() }));
  });

  it('answers 404 not_found for an unknown user', async () => {
    expectNotFound(await t.adminRaw('GET', `/users/${UNKNOWN_ID}`));
  });

  it('refuses a missing or malformed e-mail, naming email', async () => {
    expectInvalid(await t.adminRaw('POST', '/users', { name: 'No mail' }), 'email');
    for (const email of ['nope', 'a@', '@example.com', 'a b@example.com', '', `${'x'.repeat(320)}@example.com`]) {
      expectInvalid(await t.adminRaw('POST', '/users', { email }), 'email');
    }
  });

  it('refuses an avatar_url that is not an absolute http(s) URL, naming avatar_url', async () => {
    for (const avatar_url of ['ftp://example.com/a.png', 'javascript:alert(1)', 'example.com/a.png', '/a.png', 'data:image/png;base64,AAAA', '']) {
      expectInvalid(await t.adminRaw('POST', '/users', { email: uniqueEmail(), avatar_url }), 'avatar_url');
    }
    expect((await t.admin('POST', '/users', { email: uniqueEmail(), avatar_url: 'http://example.com/a.png' })).avatar_url).toBe(
      'http://example.com/a.png',
    );
  });

  it('refuses an empty name, a name over 200 characters and an unknown field, naming each', async () => {
    expectInvalid(await t.adminRaw('POST', '/users', { email: uniqueEmail(), name: '' }), 'name');
    expectInvalid(await t.adminRaw('POST', '/users', { email: uniqueEmail(), name: 'x'.repeat(201) }), 'name');
    expectInvalid(await t.adminRaw('POST', '/users', { email: uniqueEmail(), role: 'ADMIN' }), 'role');
  });
});

describe('PUT and DELETE /teams/{team_id}/members/{user_id}', () => {
  it('PUT adds the user to the team and answers the member (spec §2.5)', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Crew' });
    const user = await createUser(t, { name: 'Grace', avatar_url: 'https://example.com/g.png' });
    const response = await t.adminRaw('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    expect(response.statusCode).toBe(200);
    const member = response.json().data;
    expect(Object.keys(member).sort()).toEqual(MEMBER_KEYS);
    expect(member).toMatchObject({ id: user.id, name: 'Grace', email: user.email, avatar_url: 'https://example.com/g.png', role: 'EDITOR' });
    expect(member.joined_at).toMatch(RFC3339_MS);
    const listed = await t.admin('GET', `/teams/${team.id}/members`);
    expect(listed).toEqual([member]);
  });

  it('the member shows through GET /v1/members with the same shape (spec §4.5)', async () => {
    const { team, key } = await soloTeam(t);
    const user = await createUser(t, { name: 'Linus' });
    const member = await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    const response = await t.get(`/v1/members?team_id=${team.id}`, key);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([member]);
  });

  it('PUT with the same role again changes nothing: same role, same joined_at', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Crew' });
    const user = await createUser(t);
    const first = await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    t.clock.advance(60_000);
    const again = await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    expect(again).toEqual(first);
  });

  it('PUT with another role changes the role and keeps joined_at', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Crew' });
    const user = await createUser(t);
    const first = await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    t.clock.advance(60_000);
    const changed = await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' });
    expect(changed).toEqual({ ...first, role: 'ADMIN' });
    expect(await t.admin('GET', `/teams/${team.id}/members`)).toEqual([changed]);
  });

  it('a user can be a member of several teams with a different role in each', async () => {
    const a = await t.admin('POST', '/teams', { name: 'A' });
    const b = await t.admin('POST', '/teams', { name: 'B' });
    const user = await createUser(t);
    await t.admin('PUT', `/teams/${a.id}/members/${user.id}`, { role: 'ADMIN' });
    await t.admin('PUT', `/teams/${b.id}/members/${user.id}`, { role: 'VIEWER' });
    expect((await t.admin('GET', `/teams/${a.id}/members`))[0].role).toBe('ADMIN');
    expect((await t.admin('GET', `/teams/${b.id}/members`))[0].role).toBe('VIEWER');
  });

  it('DELETE removes the member (204 without a body); a second DELETE is 404 not_found', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Crew' });
    const stays = await createUser(t);
    const leaves = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${stays.id}`, { role: 'EDITOR' });
    await t.admin('PUT', `/teams/${team.id}/members/${leaves.id}`, { role: 'EDITOR' });
    const removed = await t.adminRaw('DELETE', `/teams/${team.id}/members/${leaves.id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await t.admin('GET', `/teams/${team.id}/members`)).map((member: any) => member.id)).toEqual([stays.id]);
    expectNotFound(await t.adminRaw('DELETE', `/teams/${team.id}/members/${leaves.id}`));
  });

  it('DELETE of a user who is not a member of that team is 404 not_found', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Crew' });
    const other = await t.admin('POST', '/teams', { name: 'Other crew' });
    const user = await createUser(t);
    await t.admin('PUT', `/teams/${other.id}/members/${user.id}`, { role: 'EDITOR' });
    expectNotFound(await t.adminRaw('DELETE', `/teams/${team.id}/members/${user.id}`));
    expect(await t.admin('GET', `/teams/${other.id}/members`)).toHaveLength(1);
  });

  it('an unknown team or user is 404 not_found', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Crew' });
    const user = await createUser(t);
    expectNotFound(await t.adminRaw('PUT', `/teams/${UNKNOWN_ID}/members/${user.id}`, { role: 'EDITOR' }));
    expectNotFound(await t.adminRaw('PUT', `/teams/${team.id}/members/${UNKNOWN_ID}`, { role: 'EDITOR' }));
    expectNotFound(await t.adminRaw('DELETE', `/teams/${UNKNOWN_ID}/members/${user.id}`));
    expectNotFound(await t.adminRaw('DELETE', `/teams/${team.id}/members/${UNKNOWN_ID}`));
  });

  it('refuses a role that is not EDITOR, VIEWER or ADMIN, or a missing one, naming role', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Crew' });
    const user = await createUser(t);
    expectInvalid(await t.adminRaw('PUT', `/teams/${team.id}/members/${user.id}`, {}), 'role');
    for (const role of ['OWNER', 'admin', 'Editor', '', null, 1]) {
      expectInvalid(await t.adminRaw('PUT', `/teams/${team.id}/members/${user.id}`, { role }), 'role');
    }
    expectInvalid(await t.adminRaw('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR', since: 'now' }), 'since');
    expect(await t.admin('GET', `/teams/${team.id}/members`)).toEqual([]);
  });
});

// Who may do what through the management API with a console session (issue 6): a team's ADMIN members
// manage that team's keys and endpoints; organization admins manage the organization's and every one of
// its teams'; EDITOR and VIEWER members cannot open API settings; some calls stay the operator's.
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, expectNotFound, expectProblem } from '../http/admin/helpers.js';
import { createGuide, useTestService } from '../support/service.js';
import { asSession, type ConsoleSession, signIn } from './sessions.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

interface World {
  organization: any;
  teamA: any;
  teamB: any;
  solo: any;
  orgAdmin: ConsoleSession;
  adminA: ConsoleSession;
  editorA: ConsoleSession;
  viewerA: ConsoleSession;
  endpointB: any;
}
let w: World;

async function person(role?: { team: string; role: string }, organizationAdminOf?: string) {
  const user = await createUser(t);
  if (role) await t.admin('PUT', `/teams/${role.team}/members/${user.id}`, { role: role.role });
  if (organizationAdminOf) await t.admin('PUT', `/organizations/${organizationAdminOf}/admins/${user.id}`);
  return signIn(t, user.email);
}

const key = (home: { type: string; id: string }) => ({ home, name: 'console key', scopes: ['guides:read'], expires_in_days: 30 });
const endpoint = (home: { type: string; id: string }) => ({ home, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
const teamHome = (team: any) => ({ type: 'team', id: team.id });
const keysOf = (home: { type: string; id: string }) => `/api-keys?home_type=${home.type}&home_id=${home.id}`;
const endpointsOf = (home: { type: string; id: string }) => `/webhook-endpoints?home_type=${home.type}&home_id=${home.id}`;

beforeAll(async () => {
  const organization = await t.admin('POST', '/organizations', { name: 'Roles Org', plan: 'growth' });
  const teamA = await t.admin('POST', '/teams', { name: 'A', organization_id: organization.id });
  const teamB = await t.admin('POST', '/teams', { name: 'B', organization_id: organization.id });
  const solo = await t.admin('POST', '/teams', { name: 'Solo', plan: 'free' });
  w = {
    organization,
    teamA,
    teamB,
    solo,
    orgAdmin: await person(undefined, organization.id),
    adminA: await person({ team: teamA.id, role: 'ADMIN' }),
    editorA: await person({ team: teamA.id, role: 'EDITOR' }),
    viewerA: await person({ team: teamA.id, role: 'VIEWER' }),
    endpointB: await t.admin('POST', '/webhook-endpoints', endpoint(teamHome(teamB))),
  };
});

describe("a team's ADMIN member", () => {
  it("lists, creates and revokes the team's keys", async () => {
    const created = await asSession(t, w.adminA, 'POST', '/api-keys', key(teamHome(w.teamA)));
    expect(created.statusCode).toBe(201);
    const listed = await asSession(t, w.adminA, 'GET', keysOf(teamHome(w.teamA)));
    expect(listed.json().data.map((k: any) => k.id)).toContain(created.json().data.id);
    expect((await asSession(t, w.adminA, 'DELETE', `/api-keys/${created.json().data.id}`)).statusCode).toBe(204);
  });

  it("manages the team's endpoints: add, read, change, reveal and rotate the key, ping, resume, recover, deliveries, delete", async () => {
    const created = await asSession(t, w.adminA, 'POST', '/webhook-endpoints', endpoint(teamHome(w.teamA)));
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    for (const [method, path, body] of [
      ['GET', `/webhook-endpoints/${id}`],
      ['PATCH', `/webhook-endpoints/${id}`, { description: 'mine' }],
      ['GET', `/webhook-endpoints/${id}/signing-key`],
      ['POST', `/webhook-endpoints/${id}/signing-key/rotate`],
      ['POST', `/webhook-endpoints/${id}/ping`],
      ['POST', `/webhook-endpoints/${id}/resume`, { redeliver_missed: true }],
      ['POST', `/webhook-endpoints/${id}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString() }],
      ['GET', `/webhook-endpoints/${id}/deliveries`],
      ['GET', endpointsOf(teamHome(w.teamA))],
    ] as const) {
      expect((await asSession(t, w.adminA, method, path, body)).statusCode, `${method} ${path}`).toBeLessThan(300);
    }
    const attempts = (await asSession(t, w.adminA, 'GET', `/webhook-endpoints/${id}/deliveries`)).json().data;
    expect((await asSession(t, w.adminA, 'POST', `/deliveries/${attempts[0].id}/resend`)).statusCode).toBe(202);
    expect((await asSession(t, w.adminA, 'DELETE', `/webhook-endpoints/${id}`)).statusCode).toBe(204);
  });

  it("cannot touch another team's keys or endpoints: 403 forbidden", async () => {
    expectProblem(await asSession(t, w.adminA, 'GET', keysOf(teamHome(w.teamB))), 403, 'forbidden');
    expectProblem(await asSession(t, w.adminA, 'POST', '/api-keys', key(teamHome(w.teamB))), 403, 'forbidden');
    expectProblem(await asSession(t, w.adminA, 'GET', endpointsOf(teamHome(w.teamB))), 403, 'forbidden');
    expectProblem(await asSession(t, w.adminA, 'POST', '/webhook-endpoints', endpoint(teamHome(w.solo))), 403, 'forbidden');
    const keyB = await t.admin('POST', '/api-keys', key(teamHome(w.teamB)));
    expectProblem(await asSession(t, w.adminA, 'DELETE', `/api-keys/${keyB.id}`), 403, 'forbidden');
    for (const [method, path, body] of [
      ['GET', `/webhook-endpoints/${w.endpointB.id}`],
      ['PATCH', `/webhook-endpoints/${w.endpointB.id}`, { description: 'not mine' }],
      ['DELETE', `/webhook-endpoints/${w.endpointB.id}`],
      ['GET', `/webhook-endpoints/${w.endpointB.id}/signing-key`],
      ['POST', `/webhook-endpoints/${w.endpointB.id}/signing-key/rotate`],
      ['POST', `/webhook-endpoints/${w.endpointB.id}/ping`],
      ['POST', `/webhook-endpoints/${w.endpointB.id}/resume`, { redeliver_missed: false }],
      ['POST', `/webhook-endpoints/${w.endpointB.id}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString() }],
      ['GET', `/webhook-endpoints/${w.endpointB.id}/deliveries`],
    ] as const) {
      expectProblem(await asSession(t, w.adminA, method, path, body), 403, 'forbidden');
    }
    const attemptB = (await t.admin('GET', `/webhook-endpoints/${w.endpointB.id}/deliveries`))[0];
    expectProblem(await asSession(t, w.adminA, 'POST', `/deliveries/${attemptB.id}/resend`), 403, 'forbidden');
  });

  it("cannot open the organization's API settings", async () => {
    const home = { type: 'organization', id: w.organization.id };
    expectProblem(await asSession(t, w.adminA, 'GET', keysOf(home)), 403, 'forbidden');
    expectProblem(await asSession(t, w.adminA, 'POST', '/webhook-endpoints', endpoint(home)), 403, 'forbidden');
    expectProblem(await asSession(t, w.adminA, 'GET', `/organizations/${w.organization.id}`), 403, 'forbidden');
    expectProblem(await asSession(t, w.adminA, 'PATCH', `/organizations/${w.organization.id}`, { api_enabled: false }), 403, 'forbidden');
  });
});

describe('an organization admin', () => {
  it("manages the organization's keys, endpoints and settings", async () => {
    const home = { type: 'organization', id: w.organization.id };
    expect((await asSession(t, w.orgAdmin, 'POST', '/api-keys', key(home))).statusCode).toBe(201);
    expect((await asSession(t, w.orgAdmin, 'GET', keysOf(home))).statusCode).toBe(200);
    expect((await asSession(t, w.orgAdmin, 'POST', '/webhook-endpoints', endpoint(home))).statusCode).toBe(201);
    const patched = await asSession(t, w.orgAdmin, 'PATCH', `/organizations/${w.organization.id}`, { org_keys_only: true });
    expect(patched.json().data.org_keys_only).toBe(true);
    await asSession(t, w.orgAdmin, 'PATCH', `/organizations/${w.organization.id}`, { org_keys_only: false });
  });

  it('manages every team of the organization, without being a member', async () => {
    for (const team of [w.teamA, w.teamB]) {
      expect((await asSession(t, w.orgAdmin, 'POST', '/api-keys', key(teamHome(team)))).statusCode).toBe(201);
    }
    expect((await asSession(t, w.orgAdmin, 'GET', `/webhook-endpoints/${w.endpointB.id}/signing-key`)).statusCode).toBe(200);
    const guide = await createGuide(t, w.teamB.id);
    expect((await asSession(t, w.orgAdmin, 'PATCH', `/guides/${guide.id}`, { title: 'By the org admin' })).statusCode).toBe(200);
  });

  it('cannot touch a team outside the organization', async () => {
    expectProblem(await asSession(t, w.orgAdmin, 'GET', keysOf(teamHome(w.solo))), 403, 'forbidden');
  });

  it("cannot change the organization's plan or name: those are the operator's", async () => {
    expectProblem(await asSession(t, w.orgAdmin, 'PATCH', `/organizations/${w.organization.id}`, { plan: 'enterprise' }), 403, 'forbidden');
    expectProblem(await asSession(t, w.orgAdmin, 'PATCH', `/organizations/${w.organization.id}`, { name: 'Renamed', api_enabled: true }), 403, 'forbidden');
    const organization = await t.admin('GET', `/organizations/${w.organization.id}`);
    expect([organization.plan, organization.name]).toEqual(['growth', 'Roles Org']);
  });

  it("cannot reach another organization, its teams or its keys", async () => {
    const other = await t.admin('POST', '/organizations', { name: 'Other Org' });
    const otherTeam = await t.admin('POST', '/teams', { name: 'Elsewhere', organization_id: other.id });
    const home = { type: 'organization', id: other.id };
    expectProblem(await asSession(t, w.orgAdmin, 'GET', `/organizations/${other.id}`), 403, 'forbidden');
    expectProblem(await asSession(t, w.orgAdmin, 'PATCH', `/organizations/${other.id}`, { api_enabled: false }), 403, 'forbidden');
    expectProblem(await asSession(t, w.orgAdmin, 'GET', keysOf(home)), 403, 'forbidden');
    expectProblem(await asSession(t, w.orgAdmin, 'POST', '/api-keys', key(teamHome(otherTeam))), 403, 'forbidden');
    expectProblem(await asSession(t, w.orgAdmin, 'GET', `/teams/${otherTeam.id}`), 403, 'forbidden');
    expect((await t.admin('GET', `/organizations/${other.id}`)).api_enabled).toBe(true);
  });

  it('sees the organization and all its teams in who-am-I, with API access on each', async () => {
    expect(w.orgAdmin.whoami.organizations.map((o: any) => o.id)).toEqual([w.organization.id]);
    expect(w.orgAdmin.whoami.teams.map((team: any) => [team.name, team.access, team.plan])).toEqual([
      ['A', 'api', 'growth'],
      ['B', 'api', 'growth'],
    ]);
  });
});

describe('EDITOR and VIEWER members', () => {
  it('cannot open API settings: keys, endpoints and organization settings are 403 forbidden', async () => {
    for (const session of [w.editorA, w.viewerA]) {
      expectProblem(await asSession(t, session, 'GET', keysOf(teamHome(w.teamA))), 403, 'forbidden');
      expectProblem(await asSession(t, session, 'POST', '/api-keys', key(teamHome(w.teamA))), 403, 'forbidden');
      expectProblem(await asSession(t, session, 'GET', endpointsOf(teamHome(w.teamA))), 403, 'forbidden');
      expectProblem(await asSession(t, session, 'POST', '/webhook-endpoints', endpoint(teamHome(w.teamA))), 403, 'forbidden');
      expectProblem(await asSession(t, session, 'GET', `/organizations/${w.organization.id}`), 403, 'forbidden');
    }
  });

  it('the refusal says in words who may', async () => {
    const body = expectProblem(await asSession(t, w.viewerA, 'GET', keysOf(teamHome(w.teamA))), 403, 'forbidden');
    expect(body.detail).toBe("Only the team's ADMIN members and its organization's admins may open the team's API settings");
  });

  it('who-am-I gives them the team with read or edit access', async () => {
    expect(w.editorA.whoami.teams.map((team: any) => [team.id, team.role, team.access])).toEqual([[w.teamA.id, 'EDITOR', 'edit']]);
    expect(w.viewerA.whoami.teams.map((team: any) => [team.id, team.role, team.access])).toEqual([[w.teamA.id, 'VIEWER', 'read']]);
    expect(w.viewerA.whoami.organizations).toEqual([]);
  });
});

describe('guides', () => {
  it("any member lists and opens the team's guides; other teams' are 403", async () => {
    const guide = await createGuide(t, w.teamA.id, { title: 'Listed' });
    const list = await asSession(t, w.viewerA, 'GET', `/guides?team_id=${w.teamA.id}`);
    expect(list.json().data.map((g: any) => g.id)).toContain(guide.id);
    expect((await asSession(t, w.viewerA, 'GET', `/guides/${guide.id}`)).statusCode).toBe(200);
    expectProblem(await asSession(t, w.viewerA, 'GET', `/guides?team_id=${w.teamB.id}`), 403, 'forbidden');
  });

  it('EDITOR and ADMIN members edit, publish, share and delete; a VIEWER may not', async () => {
    const guide = await createGuide(t, w.teamA.id);
    expect((await asSession(t, w.editorA, 'PATCH', `/guides/${guide.id}`, { publish_status: 'PUBLISHED', is_public: true })).statusCode).toBe(200);
    expect((await asSession(t, w.adminA, 'PATCH', `/guides/${guide.id}`, { title: 'Renamed' })).statusCode).toBe(200);
    expectProblem(await asSession(t, w.viewerA, 'PATCH', `/guides/${guide.id}`, { title: 'No' }), 403, 'forbidden');
    expectProblem(await asSession(t, w.viewerA, 'DELETE', `/guides/${guide.id}`), 403, 'forbidden');
    expect((await asSession(t, w.editorA, 'DELETE', `/guides/${guide.id}`)).statusCode).toBe(204);
  });

  it('a guide is created only in a team the person edits', async () => {
    expectProblem(await asSession(t, w.viewerA, 'POST', '/guides', { team_id: w.teamA.id, title: 'No' }), 403, 'forbidden');
    expectProblem(await asSession(t, w.editorA, 'POST', '/guides', { team_id: w.teamB.id, title: 'No' }), 403, 'forbidden');
    expect((await asSession(t, w.editorA, 'POST', '/guides', { team_id: w.teamA.id, title: 'Yes' })).statusCode).toBe(201);
    expect((await t.admin('GET', `/guides?team_id=${w.teamB.id}`)).map((g: any) => g.title)).not.toContain('No');
  });

  it("settling a guide's processing stays the operator's", async () => {
    const guide = await createGuide(t, w.teamA.id, { processing: true });
    expectProblem(await asSession(t, w.orgAdmin, 'POST', `/guides/${guide.id}/processing`, { outcome: 'failed' }), 403, 'forbidden');
  });

  it('moving needs edit rights on both teams', async () => {
    const guide = await createGuide(t, w.teamA.id);
    expectProblem(await asSession(t, w.editorA, 'POST', `/guides/${guide.id}/move`, { team_id: w.teamB.id }), 403, 'forbidden');
    expect((await asSession(t, w.orgAdmin, 'POST', `/guides/${guide.id}/move`, { team_id: w.teamB.id })).statusCode).toBe(200);
  });

  it('an unknown guide is still 404', async () => {
    expectNotFound(await asSession(t, w.editorA, 'GET', '/guides/00000000-0000-4000-8000-000000000000'));
  });
});

describe("the operator's calls", () => {
  it('refuse every signed-in person, organization admins included', async () => {
    const user = await createUser(t);
    for (const [method, path, body] of [
      ['POST', '/organizations', { name: 'Nope' }],
      ['POST', '/teams', { name: 'Nope', organization_id: w.organization.id }],
      ['PATCH', `/teams/${w.teamA.id}`, { name: 'Nope' }],
      ['POST', '/users', { email: 'nope@example.com' }],
      ['GET', '/tenants'],
      ['GET', '/mail'],
      ['GET', `/users/${user.id}`],
      ['POST', `/users/${user.id}/erase`],
    ] as const) {
      const body403 = expectProblem(await asSession(t, w.orgAdmin, method, path, body), 403, 'forbidden');
      expect(body403.detail, `${method} ${path}`).toMatch(/operator|own user/);
    }
  });

  it('a person reads their own user', async () => {
    const id = w.viewerA.whoami.user.id;
    expect((await asSession(t, w.viewerA, 'GET', `/users/${id}`)).json().data.id).toBe(id);
  });
});

describe('the audit log (issue 33)', () => {
  const audit = (session: ConsoleSession, home?: { type: string; id: string }) =>
    asSession(t, session, 'GET', `/audit-events${home ? `?home_type=${home.type}&home_id=${home.id}` : ''}`);
  const orgHome = () => ({ type: 'organization', id: w.organization.id });

  it("an organization admin reads the organization's and each of its teams'", async () => {
    for (const home of [undefined, orgHome(), teamHome(w.teamA), teamHome(w.teamB)]) expect((await audit(w.orgAdmin, home)).statusCode).toBe(200);
    expectProblem(await audit(w.orgAdmin, teamHome(w.solo)), 403, 'forbidden');
  });

  it("a team's ADMIN member reads the team's, not another team's nor the organization's", async () => {
    expect((await audit(w.adminA)).statusCode).toBe(200);
    expect((await audit(w.adminA, teamHome(w.teamA))).statusCode).toBe(200);
    expectProblem(await audit(w.adminA, teamHome(w.teamB)), 403, 'forbidden');
    expectProblem(await audit(w.adminA, orgHome()), 403, 'forbidden');
  });

  it('EDITOR and VIEWER members read none', async () => {
    for (const session of [w.editorA, w.viewerA]) {
      expectProblem(await audit(session), 403, 'forbidden');
      expectProblem(await audit(session, teamHome(w.teamA)), 403, 'forbidden');
    }
  });
});


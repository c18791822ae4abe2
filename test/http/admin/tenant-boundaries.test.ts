// Ids and references on management writes (issue 13, items 6, 9, 13): ids in any letter case are the
// same id for every caller, checked after they are normalised at the edge; what a guide refers to lies
// inside its own organization, and a refusal reads the same whether the id exists elsewhere or nowhere;
// a person cannot start what only the operator can finish.
import { beforeAll, describe, expect, it } from 'vitest';
import { asSession, type ConsoleSession, signIn } from '../../console/sessions.js';
import { createGuide, useTestService } from '../../support/service.js';
import { createUser, expectProblem } from './helpers.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

interface World {
  organization: any;
  team: any;
  sibling: any;
  otherTeam: any;
  member: any;
  siblingMember: any;
  stranger: any;
  admin: ConsoleSession;
  editor: ConsoleSession;
}
let w: World;

async function member(teamId: string, role: string) {
  const user = await createUser(t);
  await t.admin('PUT', `/teams/${teamId}/members/${user.id}`, { role });
  return user;
}

beforeAll(async () => {
  const organization = await t.admin('POST', '/organizations', { name: 'Boundaries', plan: 'growth' });
  const other = await t.admin('POST', '/organizations', { name: 'Elsewhere', plan: 'growth' });
  const team = await t.admin('POST', '/teams', { name: 'Home', organization_id: organization.id });
  const sibling = await t.admin('POST', '/teams', { name: 'Sibling', organization_id: organization.id });
  const otherTeam = await t.admin('POST', '/teams', { name: 'Other', organization_id: other.id });
  const admin = await member(team.id, 'ADMIN');
  const editor = await member(team.id, 'EDITOR');
  w = {
    organization,
    team,
    sibling,
    otherTeam,
    member: await member(team.id, 'VIEWER'),
    siblingMember: await member(sibling.id, 'VIEWER'),
    stranger: await member(otherTeam.id, 'VIEWER'),
    admin: await signIn(t, admin.email),
    editor: await signIn(t, editor.email),
  };
});

describe('ids in any letter case are one id, for the operator and for people alike', () => {
  it('a team admin creates a guide, a key and an endpoint with an upper-case team id', async () => {
    const teamId = w.team.id.toUpperCase();
    const guide = await asSession(t, w.admin, 'POST', '/guides', { team_id: teamId, title: 'Upper' });
    expect(guide.statusCode, guide.body).toBe(201);
    expect(guide.json().data.team_id).toBe(w.team.id);
    const key = await asSession(t, w.admin, 'POST', '/api-keys', { home: { type: 'team', id: teamId }, name: 'k', scopes: ['guides:read'], expires_in_days: 30 });
    expect(key.statusCode, key.body).toBe(201);
    const endpoint = await asSession(t, w.admin, 'POST', '/webhook-endpoints', { home: { type: 'team', id: teamId }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    expect(endpoint.json().data.home.id).toBe(w.team.id);
  });

  it('in the path and the query too', async () => {
    const guide = await createGuide(t, w.team.id);
    expect((await asSession(t, w.editor, 'GET', `/guides/${guide.id.toUpperCase()}`)).statusCode).toBe(200);
    const list = await asSession(t, w.editor, 'GET', `/guides?team_id=${w.team.id.toUpperCase()}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((g: any) => g.id)).toContain(guide.id);
  });

  it('and an upper-case id in a body field is stored lowercase (owner_id)', async () => {
    const created = await t.admin('POST', '/guides', { team_id: w.team.id.toUpperCase(), owner_id: w.member.id.toUpperCase() });
    expect(created.team_id).toBe(w.team.id);
    expect(created.owner_id).toBe(w.member.id);
  });

  it('text that merely looks like an id is left as it is', async () => {
    const title = '0A0B0C0D-0000-4000-8000-00000000000F';
    expect((await t.admin('POST', '/guides', { team_id: w.team.id, title })).title).toBe(title);
  });
});

describe("a guide's owner is a person of its organization", () => {
  it('a member of any team of the organization may own it', async () => {
    expect((await t.admin('POST', '/guides', { team_id: w.team.id, owner_id: w.siblingMember.id })).owner_id).toBe(w.siblingMember.id);
  });

  it("a user of another organization is refused, with the same words as an id nobody has", async () => {
    const elsewhere = await t.adminRaw('POST', '/guides', { team_id: w.team.id, owner_id: w.stranger.id });
    const nowhere = await t.adminRaw('POST', '/guides', { team_id: w.team.id, owner_id: '00000000-0000-4000-8000-000000000000' });
    expectProblem(elsewhere, 400, 'invalid_request');
    expectProblem(nowhere, 400, 'invalid_request');
    expect(elsewhere.json().detail).toBe(nowhere.json().detail);
    expect(elsewhere.json().detail).toContain('owner_id');
  });

  it('the same on an edit', async () => {
    const guide = await createGuide(t, w.team.id);
    expectProblem(await t.adminRaw('PATCH', `/guides/${guide.id}`, { owner_id: w.stranger.id }), 400, 'invalid_request');
    expect((await t.admin('GET', `/guides/${guide.id}`)).owner_id).toBeNull();
  });

  it('a guide moved to another organization lets an owner from outside it go', async () => {
    const guide = await t.admin('POST', '/guides', { team_id: w.team.id, owner_id: w.member.id });
    const moved = await t.admin('POST', `/guides/${guide.id}/move`, { team_id: w.otherTeam.id });
    expect(moved.owner_id).toBeNull();
  });
});

describe("a guide's folder belongs to its team", () => {
  it("a folder id another team's guide uses is refused; the team's own and a new one are taken", async () => {
    const folder = '11111111-2222-4333-8444-555555555555';
    await t.admin('POST', '/guides', { team_id: w.sibling.id, folder_id: folder });
    expectProblem(await t.adminRaw('POST', '/guides', { team_id: w.team.id, folder_id: folder }), 400, 'invalid_request');
    const guide = await createGuide(t, w.team.id);
    expectProblem(await t.adminRaw('PATCH', `/guides/${guide.id}`, { folder_id: folder }), 400, 'invalid_request');
    expect((await t.admin('POST', '/guides', { team_id: w.sibling.id, folder_id: folder })).folder_id).toBe(folder);
    const fresh = '66666666-7777-4888-8999-aaaaaaaaaaaa';
    expect((await t.admin('PATCH', `/guides/${guide.id}`, { folder_id: fresh })).folder_id).toBe(fresh);
  });
});

describe('a person cannot start what only the operator can finish', () => {
  it('an EDITOR creating a guide with processing: true is 403; without it, 201', async () => {
    const refused = await asSession(t, w.editor, 'POST', '/guides', { team_id: w.team.id, title: 'Recording', processing: true });
    expectProblem(refused, 403, 'forbidden');
    expect(refused.json().detail).toContain('processing');
    expect((await asSession(t, w.editor, 'POST', '/guides', { team_id: w.team.id, title: 'Plain' })).statusCode).toBe(201);
    expect((await t.adminRaw('POST', '/guides', { team_id: w.team.id, processing: true })).statusCode).toBe(201);
  });
});

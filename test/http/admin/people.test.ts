// People managed by their own admins (shared decisions §11 "People in the console", issue 44): a team's
// ADMIN members and an organization's admins add people by e-mail (a person not known yet is made and
// invited by e-mail, naming who added them and where, with a sign-in link), change roles and remove
// members; organization admins manage organization admins; the last ADMIN of a team of no organization
// and the last admin of an organization stay (409, saying why). Each change sends its member event and
// is in the audit log. And the operator's list of tenants.
import { beforeAll, describe, expect, it } from 'vitest';
import { asSession, type ConsoleSession, consolePost, signIn } from '../../console/sessions.js';
import { organizationWithTeams, soloTeam, useTestService } from '../../support/service.js';
import { createUser, eventsSince, expectProblem, outboxMark, uniqueEmail } from './helpers.js';

const t = useTestService();

interface World {
  organization: { id: string; name: string };
  teamA: { id: string; name: string };
  teamB: { id: string };
  orgAdmin: { id: string; session: ConsoleSession };
  teamAdmin: { id: string; session: ConsoleSession };
  editor: { id: string; session: ConsoleSession };
}
let world: World;

async function person(name: string) {
  const user = await createUser(t, { name });
  return { id: user.id as string, session: await signIn(t, user.email) };
}

beforeAll(async () => {
  const { organization, teams } = await organizationWithTeams(t, 'growth', 2);
  const [orgAdmin, teamAdmin, editor] = [await person('Olga Org'), await person('Tom Team'), await person('Eddie Editor')];
  await t.admin('PUT', `/organizations/${organization.id}/admins/${orgAdmin.id}`);
  await t.admin('PUT', `/teams/${teams[0].id}/members/${teamAdmin.id}`, { role: 'ADMIN' });
  await t.admin('PUT', `/teams/${teams[0].id}/members/${editor.id}`, { role: 'EDITOR' });
  // Sessions read their grants when asked: signed in again after them.
  world = {
    organization,
    teamA: teams[0],
    teamB: teams[1],
    orgAdmin: { ...orgAdmin, session: await signIn(t, (await t.admin('GET', `/users/${orgAdmin.id}`)).email) },
    teamAdmin,
    editor,
  };
});

const mailTo = async (address: string) => ((await t.admin('GET', '/mail')) as { to: string[]; subject: string; text: string }[]).filter((mail) => mail.to.includes(address));

/** Sends a write twice with one Idempotency-Key, as a client retrying a lost answer: the second is the first's answer again. */
async function sentTwice(session: ConsoleSession, path: string, body: unknown) {
  const key = `retried-${path}-${JSON.stringify(body)}`;
  const send = () =>
    t.service.app.inject({
      method: 'POST',
      url: `/admin/v1${path}`,
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': 'application/json', 'idempotency-key': key },
      payload: JSON.stringify(body),
    });
  const first = await send();
  const again = await send();
  expect(first.statusCode, first.body).toBe(200);
  expect(again.statusCode).toBe(200);
  expect(again.headers['idempotency-replayed']).toBe('true');
  expect(again.json()).toEqual(first.json());
}

describe('adding a person to a team by e-mail', () => {
  it('a team ADMIN adds someone not known yet: made, member.joined, in the audit log as theirs, and invited by an e-mail naming who and where, whose link signs them in', async () => {
    const email = uniqueEmail('newcomer');
    const mark = await outboxMark(t);
    const answer = await asSession(t, world.teamAdmin.session, 'POST', `/teams/${world.teamA.id}/members`, { email, name: 'Nina Newcomer', role: 'EDITOR' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ invited: true, data: { email, name: 'Nina Newcomer', role: 'EDITOR' } });
    const events = await eventsSince(t, mark);
    expect(events.map((event) => event.type)).toContain('member.joined');
    const [mail] = await mailTo(email);
    expect(mail!.text).toContain(`Tom Team added you to the team ${world.teamA.name}`);
    expect(mail!.text).toContain(world.organization.name);
    expect(mail!.text).toContain('as EDITOR');
    expect(mail!.text).toContain('72 hours');
    // The outbox shows the link redacted; the mail sent carries it (the outbox's send_text).
    const row = await t.service.ctx.db.selectFrom('mail_outbox').select('send_text').where('recipients', 'like', `%${email}%`).executeTakeFirstOrThrow();
    const token = /#\/sign-in\/([A-Za-z0-9_-]{43})/.exec(row.send_text!)![1]!;
    const signedIn = await consolePost(t, '/session', { token });
    expect(signedIn.statusCode).toBe(200);
    const audit = (await t.admin('GET', `/audit-events?action=member.added&actor_id=${world.teamAdmin.id}`)) as { target: { id: string } }[];
    expect(audit.map((event) => event.target.id)).toContain(answer.json().data.id);
  });

  it('a retried add with the same Idempotency-Key gets the first answer again: one person, one membership, one invitation (decisions §11)', async () => {
    const email = uniqueEmail('retried');
    const mark = await outboxMark(t);
    await sentTwice(world.teamAdmin.session, `/teams/${world.teamA.id}/members`, { email, role: 'VIEWER' });
    expect(await mailTo(email)).toHaveLength(1);
    expect((await eventsSince(t, mark)).map((event) => event.type)).toEqual(['member.joined']);
    const { n } = await t.service.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('email_key', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    expect(Number(n)).toBe(1);
  });

  it('someone known is added without an invitation, in any letter case of their address', async () => {
    const known = await createUser(t, { name: 'Kim Known' });
    const answer = await asSession(t, world.orgAdmin.session, 'POST', `/teams/${world.teamB.id}/members`, { email: known.email.toUpperCase(), role: 'VIEWER' });
    expect(answer.json()).toMatchObject({ invited: false, data: { id: known.id, role: 'VIEWER' } });
    expect(await mailTo(known.email)).toEqual([]);
  });

  it("an EDITOR, a VIEWER or an ADMIN of another team may not (403), and nothing is made", async () => {
    const email = uniqueEmail('refused');
    expectProblem(await asSession(t, world.editor.session, 'POST', `/teams/${world.teamA.id}/members`, { email, role: 'VIEWER' }), 403, 'forbidden');
    expectProblem(await asSession(t, world.teamAdmin.session, 'POST', `/teams/${world.teamB.id}/members`, { email, role: 'VIEWER' }), 403, 'forbidden');
    expect((await t.admin('GET', `/users?email=${encodeURIComponent(email)}`)) as unknown[]).toEqual([]);
  });
});

describe('changing roles and removing members', () => {
  it("a team ADMIN changes a member's role and removes them, each with its event; an EDITOR may not", async () => {
    const member = await createUser(t, { name: 'Rita Role' });
    await t.admin('PUT', `/teams/${world.teamA.id}/members/${member.id}`, { role: 'VIEWER' });
    expectProblem(await asSession(t, world.editor.session, 'PUT', `/teams/${world.teamA.id}/members/${member.id}`, { role: 'ADMIN' }), 403, 'forbidden');
    const mark = await outboxMark(t);
    expect((await asSession(t, world.teamAdmin.session, 'PUT', `/teams/${world.teamA.id}/members/${member.id}`, { role: 'EDITOR' })).statusCode).toBe(200);
    expect((await asSession(t, world.teamAdmin.session, 'DELETE', `/teams/${world.teamA.id}/members/${member.id}`)).statusCode).toBe(204);
    expect((await eventsSince(t, mark)).map((event) => event.type)).toEqual(['member.role_changed', 'member.left']);
  });

  it('the last ADMIN of a team of no organization keeps the role and stays (409, saying why); with another ADMIN, either may go', async () => {
    const { team } = await soloTeam(t);
    const [first, second] = [await createUser(t, { name: 'Ada First' }), await createUser(t, { name: 'Ben Second' })];
    await t.admin('PUT', `/teams/${team.id}/members/${first.id}`, { role: 'ADMIN' });
    const demoted = expectProblem(await t.adminRaw('PUT', `/teams/${team.id}/members/${first.id}`, { role: 'EDITOR' }), 409, 'conflict');
    expect(demoted.detail).toContain('Ada First is the last ADMIN of this team');
    expect(demoted.detail).toContain('make another member ADMIN first');
    expectProblem(await t.adminRaw('DELETE', `/teams/${team.id}/members/${first.id}`), 409, 'conflict');
    await t.admin('PUT', `/teams/${team.id}/members/${second.id}`, { role: 'ADMIN' });
    expect((await t.adminRaw('PUT', `/teams/${team.id}/members/${first.id}`, { role: 'EDITOR' })).statusCode).toBe(200);
    expectProblem(await t.adminRaw('DELETE', `/teams/${team.id}/members/${second.id}`), 409, 'conflict');
  });

  it('a refused change of the last ADMIN sends no member event and leaves the member as they were (spec §6.5)', async () => {
    const { team } = await soloTeam(t);
    const only = await createUser(t, { name: 'Olga Only' });
    await t.admin('PUT', `/teams/${team.id}/members/${only.id}`, { role: 'ADMIN' });
    const mark = await outboxMark(t);
    expectProblem(await t.adminRaw('PUT', `/teams/${team.id}/members/${only.id}`, { role: 'VIEWER' }), 409, 'conflict');
    expectProblem(await t.adminRaw('DELETE', `/teams/${team.id}/members/${only.id}`), 409, 'conflict');
    expect(await eventsSince(t, mark)).toEqual([]);
    const members = (await t.admin('GET', `/teams/${team.id}/members`)) as { id: string; role: string }[];
    expect(members.map((member) => [member.id, member.role])).toEqual([[only.id, 'ADMIN']]);
  });

  it("a team of an organization may lose its last ADMIN: the organization's admins manage it", async () => {
    const member = await createUser(t);
    await t.admin('PUT', `/teams/${world.teamB.id}/members/${member.id}`, { role: 'ADMIN' });
    expect((await asSession(t, world.orgAdmin.session, 'DELETE', `/teams/${world.teamB.id}/members/${member.id}`)).statusCode).toBe(204);
  });
});

describe('organization admins', () => {
  it('an organization admin adds an admin by e-mail (invited when not known), lists them, and removes one; the last stays (409)', async () => {
    const email = uniqueEmail('second-admin');
    const added = await asSession(t, world.orgAdmin.session, 'POST', `/organizations/${world.organization.id}/admins`, { email, name: 'Sam Second' });
    expect(added.json()).toMatchObject({ invited: true, data: { email, name: 'Sam Second' } });
    expect((await mailTo(email))[0]!.text).toContain(`Olga Org made you an admin of the organization ${world.organization.name}`);
    const listed = (await asSession(t, world.orgAdmin.session, 'GET', `/organizations/${world.organization.id}/admins`)).json().data as { id: string }[];
    expect(listed.map((admin) => admin.id)).toEqual([world.orgAdmin.id, added.json().data.id]);
    expect((await asSession(t, world.orgAdmin.session, 'DELETE', `/organizations/${world.organization.id}/admins/${added.json().data.id}`)).statusCode).toBe(204);
    const last = expectProblem(await asSession(t, world.orgAdmin.session, 'DELETE', `/organizations/${world.organization.id}/admins/${world.orgAdmin.id}`), 409, 'conflict');
    expect(last.detail).toContain("last admin");
    const audit = (await t.admin('GET', `/audit-events?actor_id=${world.orgAdmin.id}`)) as { action: string }[];
    expect(audit.map((event) => event.action)).toEqual(expect.arrayContaining(['admin.added', 'admin.removed', 'user.created']));
  });

  it('a retried add of an admin with the same Idempotency-Key gets the first answer again: one admin, one invitation (decisions §11)', async () => {
    const email = uniqueEmail('retried-admin');
    await sentTwice(world.orgAdmin.session, `/organizations/${world.organization.id}/admins`, { email });
    expect(await mailTo(email)).toHaveLength(1);
    const admins = (await asSession(t, world.orgAdmin.session, 'GET', `/organizations/${world.organization.id}/admins`)).json().data as { email: string }[];
    expect(admins.filter((admin) => admin.email === email)).toHaveLength(1);
  });

  it("a team's ADMIN may not manage the organization's admins (403)", async () => {
    expectProblem(await asSession(t, world.teamAdmin.session, 'POST', `/organizations/${world.organization.id}/admins`, { email: uniqueEmail('nope') }), 403, 'forbidden');
    expectProblem(await asSession(t, world.teamAdmin.session, 'GET', `/organizations/${world.organization.id}/admins`), 403, 'forbidden');
  });
});

describe("the operator's list of tenants", () => {
  it('lists every organization and every team of none, newest first, with plan, API, teams, keys and failing endpoints; q narrows by name; pages', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Zephyr Tenants Ltd', plan: 'starter', api_enabled: false });
    await t.admin('POST', '/teams', { name: 'Zephyr one', organization_id: organization.id });
    const solo = await t.admin('POST', '/teams', { name: 'Zephyr solo', plan: 'free' });
    await t.admin('POST', '/api-keys', { home: { type: 'team', id: solo.id }, name: 'k', scopes: ['guides:read'], expires_in_days: null });
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'organization', id: organization.id }, url: 'https://hooks.example.com/z', events: ['guide.created'] });
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/pause`);
    const page = await t.service.app.inject({ method: 'GET', url: '/admin/v1/tenants?q=zephyr', headers: { authorization: 'Bearer test-admin-token-0123456789' } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data).toEqual([
      expect.objectContaining({ type: 'team', id: solo.id, name: 'Zephyr solo', plan: 'free', api_enabled: true, teams: null, keys: 1, failing_endpoints: 0 }),
      expect.objectContaining({ type: 'organization', id: organization.id, plan: 'starter', api_enabled: false, teams: 1, keys: 0, failing_endpoints: 1 }),
    ]);
    const first = (await t.service.app.inject({ method: 'GET', url: '/admin/v1/tenants?q=zephyr&limit=1', headers: { authorization: 'Bearer test-admin-token-0123456789' } })).json();
    expect(first.data).toHaveLength(1);
    const second = (await t.service.app.inject({ method: 'GET', url: `/admin/v1/tenants?q=zephyr&limit=1&cursor=${first.next_cursor}`, headers: { authorization: 'Bearer test-admin-token-0123456789' } })).json();
    expect(second.data.map((tenant: { id: string }) => tenant.id)).toEqual([organization.id]);
  });

  it("is the operator's alone: a person's session gets 403", async () => {
    expectProblem(await asSession(t, world.orgAdmin.session, 'GET', '/tenants'), 403, 'forbidden');
  });
});

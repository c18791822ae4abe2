// Erasure of a person (shared decisions §10, issue 33): POST /admin/v1/users/{id}/erase. A person with a
// name and an e-mail address, in two teams of an organization and an admin of it, owner of guides, named
// in member events delivered to an endpoint (whose receiver echoes them in its answer) and in events kept
// for a paused one, with mail in the outbox, a console session and an unused sign-in link, is erased;
// then every text column of every table the store has (listed from the store itself, so a table added
// later is read too) holds neither their address nor their name.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasedEmail, eraseUser } from '../../../src/domain/erasure.js';
import { asSession, type ConsoleSession, consolePost, mailedLinkToken, requestLink, signIn } from '../../console/sessions.js';
import { type Receiver, startReceiver } from '../../support/receiver.js';
import { createGuide, organizationWithTeams, soloTeam, type TestService, useTestService } from '../../support/service.js';
import { eventually } from '../../support/waiting.js';
import { closedPortUrl, createEndpoint, requestsOfType, settle } from '../../support/webhooks.js';
import { expectNotFound, expectProblem, outboxMark, readEvents, UNKNOWN_ID } from './helpers.js';

const t = useTestService({
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_COALESCE_MS: '0',
  WEBHOOK_RETRY_DELAYS: '100ms,100ms',
  WEBHOOK_TIMEOUT_MS: '2000',
  // An endpoint that fails once is paused, with its e-mail to the admins of its home.
  WEBHOOK_PAUSE_AFTER_MS: '0',
});
// Both receivers keep what they got for the whole file: one world is made, erased, and then looked at.
// `echoing` answers every body with itself, as some receivers do (the Deliveries list keeps the answer);
// `paused` is the receiver of an endpoint paused before the person's events, which wait for redelivery.
let echoing: Receiver;
let paused: Receiver;
afterAll(async () => {
  await settle(t);
  await Promise.all([echoing?.close(), paused?.close()]);
});

const MEMBER_EVENTS = ['member.joined', 'member.left', 'member.role_changed'];
const NAME = 'Zebulon Quistgård';
const EMAIL = `Zebulon.Quistgard+${Math.random().toString(36).slice(2, 8)}@Erasure.Example`;

interface Found {
  table: string;
  column: string;
  value: string;
}

/** Every text column of every table of the store, as the store lists them, read whole. */
async function storedTexts(s: TestService): Promise<{ tables: string[]; values: Found[] }> {
  const db = s.service.ctx.db;
  const columns: { table: string; column: string }[] = [];
  if (s.service.ctx.dialect === 'postgres') {
    const rows = await sql<{ table_name: string; column_name: string }>`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
        and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'xml', 'bytea')
      order by c.table_name, c.ordinal_position`.execute(db);
    columns.push(...rows.rows.map((row) => ({ table: row.table_name, column: row.column_name })));
  } else {
    // SQLite keeps any value in any column whatever its declared type: every column of every table
    // (virtual ones and their shadow tables included) is read.
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db);
    for (const { name } of tables.rows) {
      const info = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db);
      columns.push(...info.rows.map((row) => ({ table: name, column: row.name })));
    }
  }
  const values: Found[] = [];
  const tables = [...new Set(columns.map((column) => column.table))];
  for (const table of tables) {
    const names = columns.filter((column) => column.table === table).map((column) => column.column);
    const rows = await sql<Record<string, unknown>>`select ${sql.join(names.map((name) => sql.ref(name)))} from ${sql.table(table)}`.execute(db);
    for (const row of rows.rows) {
      for (const column of names) {
        const value = row[column];
        if (typeof value === 'string') values.push({ table, column, value });
        else if (Buffer.isBuffer(value)) values.push({ table, column, value: value.toString('utf8') });
        else if (value !== null && typeof value === 'object') values.push({ table, column, value: JSON.stringify(value) });
      }
    }
  }
  return { tables, values };
}

/** The places (table.column) where the address, in any letter case, or the name is stored. */
function placesNaming(values: Found[], email: string, name: string): string[] {
  const [address, person] = [email.toLowerCase(), name.toLowerCase()];
  const places = values.filter(({ value }) => value.toLowerCase().includes(address) || value.toLowerCase().includes(person));
  return [...new Set(places.map(({ table, column }) => `${table}.${column}`))].sort();
}

const names = (body: string) => body.toLowerCase().includes(EMAIL.toLowerCase()) || body.toLowerCase().includes(NAME.toLowerCase());

let person: { id: string; email: string; name: string };
let bystander: { id: string; email: string; name: string };
let organization: { id: string };
let teams: { id: string }[];
let orgKey: string;
let pausedEndpoint: { id: string };
let ownedGuides: { id: string }[];
let personSession: ConsoleSession;
let bystanderSession: ConsoleSession;
let unusedLinkToken: string;
let before: { tables: string[]; values: Found[] };
let eraseAnswer: { statusCode: number; body: string };
let deliveredBeforeErasure: number;

async function memberEventsDelivered(receiver: Receiver, count: number) {
  return eventually(`${count} member events at the receiver`, () => {
    const got = receiver.received.filter((request) => MEMBER_EVENTS.includes(String(request.headers['x-service-event'])));
    return got.length >= count ? got : null;
  });
}

/** Resumes the paused endpoint with redelivery (once) and answers the member events it then got. */
let redelivery: Promise<Receiver['received']> | undefined;
function redeliveredToPausedEndpoint() {
  redelivery ??= (async () => {
    await t.admin('POST', `/webhook-endpoints/${pausedEndpoint.id}/resume`, { redeliver_missed: true });
    const got = await memberEventsDelivered(paused, 6);
    await settle(t);
    return got;
  })();
  return redelivery;
}

beforeAll(async () => {
  echoing = await startReceiver();
  paused = await startReceiver();
  ({ organization, teams, key: orgKey } = await organizationWithTeams(t, 'growth', 2));
  const [teamA, teamB] = teams as [{ id: string }, { id: string }];
  person = await t.admin('POST', '/users', { email: EMAIL, name: NAME, avatar_url: 'https://cdn.example.test/zq.png' });
  bystander = await t.admin('POST', '/users', { email: `bystander-${Math.random().toString(36).slice(2, 8)}@example.test`, name: 'Bea Bystander' });

  echoing.answer = (request) => ({ status: 200, body: request.body });
  await createEndpoint(t, { type: 'organization', id: organization.id }, echoing.url, MEMBER_EVENTS);
  pausedEndpoint = await createEndpoint(t, { type: 'organization', id: organization.id }, paused.url, MEMBER_EVENTS);
  await paused.waitFor(1);
  await t.admin('POST', `/webhook-endpoints/${pausedEndpoint.id}/pause`);

  await t.admin('PUT', `/teams/${teamA.id}/members/${bystander.id}`, { role: 'ADMIN' });
  await t.admin('PUT', `/teams/${teamA.id}/members/${person.id}`, { role: 'ADMIN' });
  await t.admin('PUT', `/teams/${teamB.id}/members/${person.id}`, { role: 'VIEWER' });
  await t.admin('PUT', `/teams/${teamB.id}/members/${person.id}`, { role: 'EDITOR' });
  await t.admin('PUT', `/organizations/${organization.id}/admins/${person.id}`);
  ownedGuides = [await createGuide(t, teamA.id, { title: 'Owned in A', owner_id: person.id }), await createGuide(t, teamB.id, { title: 'Owned in B', owner_id: person.id })];
  await memberEventsDelivered(echoing, 4);
  deliveredBeforeErasure = echoing.received.length;

  // A team endpoint that cannot be reached is paused at its first failure: its e-mail goes to the team's
  // ADMIN members, the person and the bystander.
  await createEndpoint(t, { type: 'team', id: teamA.id }, await closedPortUrl(), ['guide.created']);
  await eventually('the pause e-mail', async () => (await t.admin('GET', '/mail')).find((mail: any) => mail.subject.startsWith('Webhook endpoint paused')));

  personSession = await signIn(t, person.email);
  bystanderSession = await signIn(t, bystander.email);
  expect((await requestLink(t, person.email)).statusCode).toBe(202);
  unusedLinkToken = await mailedLinkToken(t, person.email);
  expect((await asSession(t, personSession, 'GET', `/users/${person.id}`)).statusCode).toBe(200);

  // Read (and cached) before the erasure: the members lists and the guides with their owner's name.
  for (const team of teams) expect((await t.get(`/v1/members?team_id=${team.id}`, orgKey)).body).toContain(NAME);
  expect((await t.get('/v1/guides', orgKey)).body).toContain(NAME);

  await settle(t);
  before = await storedTexts(t);
  eraseAnswer = await t.adminRaw('POST', `/users/${person.id}/erase`);
}, 60_000);

describe('POST /admin/v1/users/{id}/erase (shared decisions §10)', () => {
  it('the store held the person in users, events, the answers of delivery attempts and the mail outbox before the erasure', () => {
    const places = placesNaming(before.values, EMAIL, NAME);
    for (const place of ['users.email', 'users.email_key', 'users.name', 'events.payload', 'webhook_attempts.response_body', 'mail_outbox.recipients']) {
      expect(places).toContain(place);
    }
  });

  it('answers 204 with no body', () => {
    expect(eraseAnswer.statusCode, eraseAnswer.body).toBe(204);
    expect(eraseAnswer.body).toBe('');
  });

  it('afterwards no text column of any table holds their e-mail address (in any letter case) or their name', async () => {
    // Redelivered to the paused endpoint, and every other delivery settled: whatever they stored is read too.
    await redeliveredToPausedEndpoint();
    const after = await storedTexts(t);
    expect(after.tables).toEqual(expect.arrayContaining(['users', 'memberships', 'guides', 'events', 'webhook_attempts', 'mail_outbox', 'console_sessions', 'sign_in_links']));
    expect(after.values.length).toBeGreaterThan(100);
    expect(placesNaming(after.values, EMAIL, NAME)).toEqual([]);
  });

  it('the person leaves every team: member.left is sent for each, with the role they had, naming no one', async () => {
    const left = await eventually('member.left for both teams', () => {
      const got = requestsOfType(echoing, 'member.left').map((request) => JSON.parse(request.body));
      return got.length >= 2 ? got : null;
    });
    const members = left.map((event) => event.data.member).sort((a, b) => a.team_id.localeCompare(b.team_id));
    const roles = new Map([
      [teams[0]!.id, 'ADMIN'],
      [teams[1]!.id, 'EDITOR'],
    ]);
    expect(members).toEqual(
      [...roles.keys()].sort().map((teamId) => ({ user_id: person.id, email: erasedEmail(person.id), name: null, role: roles.get(teamId), team_id: teamId })),
    );
    for (const request of echoing.received.slice(deliveredBeforeErasure)) expect(names(request.body), request.body).toBe(false);
  });

  it('events kept for a paused endpoint are redelivered naming no one, and the events feed names no one', async () => {
    const redelivered = await redeliveredToPausedEndpoint();
    expect(redelivered.map((request) => request.headers['x-service-event']).sort()).toEqual([
      'member.joined',
      'member.joined',
      'member.joined',
      'member.left',
      'member.left',
      'member.role_changed',
    ]);
    for (const request of redelivered) expect(names(request.body), request.body).toBe(false);
    const feed = await t.get(`/v1/events?types=${MEMBER_EVENTS.join(',')}&limit=100`, orgKey);
    expect(feed.statusCode).toBe(200);
    const events = feed.json().data;
    expect(events.filter((event: any) => event.data.member.user_id === person.id)).toHaveLength(5);
    expect(names(feed.body)).toBe(false);
  });

  it('the person is no longer in any members list of v1, even one answered from the cache before', async () => {
    for (const team of teams) {
      const response = await t.get(`/v1/members?team_id=${team.id}`, orgKey);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.map((member: any) => member.id)).not.toContain(person.id);
      expect(names(response.body)).toBe(false);
    }
    const admins = await t.admin('GET', `/teams/${teams[0]!.id}/members`);
    expect(admins.map((member: any) => member.id)).toEqual([bystander.id]);
  });

  it('the person is no longer an organization admin', async () => {
    expectNotFound(await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${person.id}`));
  });

  it('a guide they owned is still there, still theirs by id, with no owner name', async () => {
    for (const guide of ownedGuides) {
      const kept = await t.admin('GET', `/guides/${guide.id}`);
      expect(kept).toMatchObject({ id: guide.id, owner_id: person.id, owner_name: null });
      const shown = await t.get(`/v1/guides/${guide.id}`, orgKey);
      expect(shown.statusCode).toBe(200);
      expect(shown.json().data.owner_name).toBeNull();
    }
    expect(names((await t.get('/v1/guides', orgKey)).body)).toBe(false);
  });

  it('the user keeps its id, with the erased address and no name or avatar', async () => {
    const user = await t.admin('GET', `/users/${person.id}`);
    expect(user).toEqual({ id: person.id, email: erasedEmail(person.id), name: null, avatar_url: null, created_at: expect.any(String) });
  });

  it('their console session no longer works', async () => {
    const response = await asSession(t, personSession, 'GET', `/users/${person.id}`);
    expectProblem(response, 401, 'invalid_key');
  });

  it('their unused sign-in link no longer works', async () => {
    expectProblem(await consolePost(t, '/session', { token: unusedLinkToken }), 400, 'invalid_request');
  });

  it('mail to them alone is gone, and mail to them and others goes to the others only', async () => {
    const mail: any[] = await t.admin('GET', '/mail');
    const pauseMail = mail.find((item) => item.subject.startsWith('Webhook endpoint paused'));
    expect(pauseMail.to).toEqual([bystander.email]);
    expect(mail.filter((item) => item.subject === 'Your sign-in link').flatMap((item) => item.to)).toEqual([bystander.email]);
  });

  it('erasing again answers 204, and so does erasing an erased user once more', async () => {
    for (let i = 0; i < 2; i++) {
      const again = await t.adminRaw('POST', `/users/${person.id}/erase`);
      expect(again.statusCode, again.body).toBe(204);
    }
  });

  it('an erasure that stopped before the events were rewritten is finished by the next call', async () => {
    // The state a call leaves when the process stops after the erasure's own transaction: an old event
    // still naming the person.
    const [row] = await t.service.ctx.db.selectFrom('events').select(['id', 'payload']).where('type', '=', 'member.joined').where('payload', 'like', `%${person.id}%`).execute();
    const event = JSON.parse(row!.payload);
    event.data.member = { ...event.data.member, email: EMAIL, name: NAME };
    await t.service.ctx.db.updateTable('events').set({ payload: JSON.stringify(event) }).where('id', '=', row!.id).execute();
    expect((await t.adminRaw('POST', `/users/${person.id}/erase`)).statusCode).toBe(204);
    const [rewritten] = await t.service.ctx.db.selectFrom('events').select('payload').where('id', '=', row!.id).execute();
    expect(JSON.parse(rewritten!.payload).data.member).toMatchObject({ user_id: person.id, email: erasedEmail(person.id), name: null });
  });

  it('an id that never existed is 404', async () => {
    expectNotFound(await t.adminRaw('POST', `/users/${UNKNOWN_ID}/erase`));
  });

  it('the operator finds the person a request names by e-mail address, in any letter case; the erased address finds no one', async () => {
    expect(await t.admin('GET', `/users?email=${encodeURIComponent(bystander.email.toUpperCase())}`)).toEqual([
      { id: bystander.id, email: bystander.email, name: 'Bea Bystander', avatar_url: null, created_at: expect.any(String) },
    ]);
    expect(await t.admin('GET', `/users?email=${encodeURIComponent(EMAIL)}`)).toEqual([]);
    expectProblem(await t.adminRaw('GET', '/users'), 400, 'invalid_request');
    expectProblem(await asSession(t, bystanderSession, 'GET', `/users?email=${encodeURIComponent(bystander.email)}`), 403, 'forbidden');
  });

  it("is the operator's only: a person's session gets 403 forbidden, even for themselves", async () => {
    const refused = await asSession(t, bystanderSession, 'POST', `/users/${bystander.id}/erase`);
    expectProblem(refused, 403, 'forbidden');
    expect((await t.admin('GET', `/users/${bystander.id}`)).name).toBe('Bea Bystander');
  });

  it('the bystander in the same teams and mail keeps their name and address', async () => {
    const members = (await t.get(`/v1/members?team_id=${teams[0]!.id}`, orgKey)).json().data;
    expect(members).toEqual([expect.objectContaining({ id: bystander.id, name: 'Bea Bystander', email: bystander.email })]);
  });
});

describe('the rewrite of events, in batches of their own', () => {
  // The domain function, with batches small enough that this file's events make many of them.
  it.each([1, 2, 5])('with batches of %i events, every event naming the person is rewritten and no other event changes', async (eventBatch) => {
    const { team } = await soloTeam(t);
    const unique = Math.random().toString(36).slice(2, 8);
    const someone = await t.admin('POST', '/users', { email: `batch-${unique}@example.test`, name: `Batch Person ${unique}` });
    const other = await t.admin('POST', '/users', { email: `other-${unique}@example.test`, name: `Other Person ${unique}` });
    const mark = await outboxMark(t);
    for (let i = 0; i < 4; i++) {
      await t.admin('PUT', `/teams/${team.id}/members/${someone.id}`, { role: 'VIEWER' });
      await t.admin('PUT', `/teams/${team.id}/members/${other.id}`, { role: i % 2 ? 'EDITOR' : 'VIEWER' });
      await t.admin('DELETE', `/teams/${team.id}/members/${someone.id}`);
    }
    const othersBefore = (await readEvents(t)).filter((event) => event.seq > mark && event.envelope.data.member?.user_id === other.id);
    await eraseUser(t.service.ctx, someone.id, { eventBatch });
    const after = (await readEvents(t)).filter((event) => event.seq > mark);
    const theirs = after.filter((event) => event.envelope.data.member?.user_id === someone.id).map((event) => event.envelope.data.member);
    expect(theirs).toHaveLength(8);
    for (const member of theirs) expect(member).toMatchObject({ email: erasedEmail(someone.id), name: null });
    expect(after.filter((event) => event.envelope.data.member?.user_id === other.id)).toEqual(othersBefore);
  });
});

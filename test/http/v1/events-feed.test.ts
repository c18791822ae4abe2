// GET /v1/events (issue 17, docs/decisions.md "Events feed"): the events a key reaches, oldest first, each
// the very bytes a webhook delivery carries; filters, scopes, reach, cursors bound to the key and the
// filters, and the problems bad input gets. On SQLite by default, on PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../admin/helpers.js';
import { feedPage } from './events-feed-support.js';
import { ScriptedTransport } from '../../support/scripted-transport.js';
import { decodeCursor, encodeCursor } from '../../../src/domain/keyset-cursor.js';
import { createGuide, createKey, organizationWithTeams, soloTeam, startTestService, type TestService } from '../../support/service.js';
import { eventually } from '../../support/waiting.js';

const transport = new ScriptedTransport();
let t: TestService;

beforeAll(async () => {
  t = await startTestService(
    { WEBHOOK_COALESCE_MS: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_MINUTE: '100000' },
    { transport },
  );
});
afterAll(() => t?.close());

const feed = (key: string, query = '') => feedPage(t, key, query);

/** Every event the key can read from the start, page after page. */
async function everything(key: string, query = '', limit = 2) {
  const events: any[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await feed(key, `?limit=${limit}${query}${after ? `&after=${after}` : ''}`);
    events.push(...page.data);
    if (page.data.length === 0) return { events, cursor: page.next_cursor ?? after };
    expect(page.next_cursor).not.toBeNull();
    after = page.next_cursor;
  }
}

describe('the feed, oldest first, is what webhooks deliver', () => {
  it('lists every kind of event in the order it happened, never a ping, each byte for byte the delivered body', async () => {
    const { organization, teams, key } = await organizationWithTeams(t);
    // The endpoint gets a ping at once: the feed never shows it.
    await t.admin('POST', '/webhook-endpoints', {
      home: { type: 'organization', id: organization.id },
      url: 'http://127.0.0.1:9/feed-bytes',
      events: ['guide.created', 'guide.updated', 'guide.deleted', 'member.joined', 'member.role_changed', 'member.left'],
    });
    const guide = await createGuide(t, teams[0].id, { title: 'First' });
    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'First, again' });
    const user = await t.admin('POST', '/users', { email: `feed-${Math.random()}@example.com`, name: 'Ana' });
    await t.admin('PUT', `/teams/${teams[1].id}/members/${user.id}`, { role: 'EDITOR' });
    await t.admin('PUT', `/teams/${teams[1].id}/members/${user.id}`, { role: 'ADMIN' });
    await t.admin('DELETE', `/teams/${teams[1].id}/members/${user.id}`);
    await t.admin('DELETE', `/guides/${guide.id}`);

    const response = await t.get('/v1/events', key);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.data.map((event: any) => event.type)).toEqual([
      'guide.created',
      'guide.updated',
      'member.joined',
      'member.role_changed',
      'member.left',
      'guide.deleted',
    ]);
    expect(page.data[0].data.guide.title).toBe('First');
    expect(page.data[1].data.changed).toEqual(['title']);
    expect(page.data.every((event: any) => event.organization_id === organization.id)).toBe(true);
    expect(Object.keys(page.data[0])).toEqual(['id', 'created_at', 'team_id', 'organization_id', 'type', 'data']);

    const delivered = await eventually('the six deliveries', () => {
      const bodies = transport.started.filter((started) => started.path === '/feed-bytes' && started.event !== 'ping').map((started) => started.body);
      return bodies.length === 6 && bodies;
    });
    // One parser serves both: the answer is the delivered bodies, as they were sent, in a page.
    expect(response.body).toBe(`{"data":[${delivered.join(',')}],"next_cursor":${JSON.stringify(page.next_cursor)}}`);
  });

  it('pages with after and limit, carries next_cursor on the last page too, and continues from it when events come', async () => {
    const { team, key } = await soloTeam(t);
    const guides = [];
    for (let i = 0; i < 5; i++) guides.push(await createGuide(t, team.id, { title: `Guide ${i}` }));
    const { events, cursor } = await everything(key);
    expect(events.map((event) => event.data.guide.id)).toEqual(guides.map((guide) => guide.id));
    expect(cursor).toEqual(expect.any(String));

    // The last page: empty, with the same cursor to poll with.
    const last = await feed(key, `?after=${cursor}`);
    expect(last).toEqual({ data: [], next_cursor: cursor });

    const later = await createGuide(t, team.id, { title: 'Later' });
    const next = await feed(key, `?after=${cursor}`);
    expect(next.data.map((event) => event.data.guide.id)).toEqual([later.id]);
    expect(next.next_cursor).not.toBe(cursor);
    expect(await feed(key, `?after=${next.next_cursor}`)).toEqual({ data: [], next_cursor: next.next_cursor });
  });

  it('answers a key with no event yet with an empty page and a null next_cursor: ask again without after', async () => {
    const { key } = await soloTeam(t);
    expect(await feed(key)).toEqual({ data: [], next_cursor: null });
  });
});

describe('filters and scopes', () => {
  it('keeps the types asked for, in any order; the cursor is bound to the key, so a client may change its types and go on from where it was', async () => {
    const { team, key } = await soloTeam(t);
    const guide = await createGuide(t, team.id);
    const user = await t.admin('POST', '/users', { email: `types-${Math.random()}@example.com` });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    await t.admin('DELETE', `/guides/${guide.id}`);

    const page = await feed(key, '?types=guide.deleted,member.joined');
    expect(page.data.map((event) => event.type)).toEqual(['member.joined', 'guide.deleted']);
    const first = await feed(key, '?types=member.joined,guide.deleted&limit=1');
    expect((await feed(key, `?types=guide.deleted,member.joined&after=${first.next_cursor}`)).data.map((event) => event.type)).toEqual(['guide.deleted']);
    // From "member.joined and guide.deleted" to everything, or to guide events only: on from the same place.
    expect((await feed(key, `?after=${first.next_cursor}`)).data.map((event) => event.type)).toEqual(['guide.deleted']);
    expect((await feed(key, `?types=guide.created,guide.deleted&after=${first.next_cursor}`)).data.map((event) => event.type)).toEqual(['guide.deleted']);
    const guidesOnly = await feed(key, '?types=guide.created&limit=1');
    expect(guidesOnly.data.map((event) => event.type)).toEqual(['guide.created']);
    expect((await feed(key, `?after=${guidesOnly.next_cursor}`)).data.map((event) => event.type)).toEqual(['member.joined', 'guide.deleted']);
    // A cursor made when the binding named the types too (before issue 34) is still taken with those types,
    // and the next cursor is bound to the key alone.
    const secret = t.service.ctx.cursorSecret;
    const keyId = (await t.get('/v1/auth/verify', key)).json().data.id;
    const position = decodeCursor(secret, { holder: keyId, filters: ['events', null] }, first.next_cursor!)!;
    const before = encodeCursor(secret, { holder: keyId, filters: ['events', 'guide.deleted,member.joined'] }, position);
    const taken = await feed(key, `?types=member.joined,guide.deleted&after=${before}`);
    expect(taken.data.map((event) => event.type)).toEqual(['guide.deleted']);
    expect(decodeCursor(secret, { holder: keyId, filters: ['events', null] }, taken.next_cursor!)).not.toBeNull();
    expectProblem(await t.get(`/v1/events?types=member.joined&after=${before}`, key), 400, 'invalid_request');
    // Another key, even of the same team, is refused the cursor.
    const other = (await createKey(t, { type: 'team', id: team.id })).secret;
    const body = expectProblem(await t.get(`/v1/events?after=${first.next_cursor}`, other), 400, 'invalid_request');
    expect(body.detail).toContain("'after'");
  });

  it('shows a key only the kinds its scopes allow, and refuses types that ask for more, naming the scope', async () => {
    const { team } = await soloTeam(t);
    const guidesOnly = (await createKey(t, { type: 'team', id: team.id }, { scopes: ['guides:read'] })).secret;
    const membersOnly = (await createKey(t, { type: 'team', id: team.id }, { scopes: ['members:read'] })).secret;
    const teamsOnly = (await createKey(t, { type: 'team', id: team.id }, { scopes: ['teams:read'] })).secret;
    await createGuide(t, team.id);
    const user = await t.admin('POST', '/users', { email: `scopes-${Math.random()}@example.com` });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });

    expect((await feed(guidesOnly)).data.map((event) => event.type)).toEqual(['guide.created']);
    expect((await feed(membersOnly)).data.map((event) => event.type)).toEqual(['member.joined']);
    expect(expectProblem(await t.get('/v1/events?types=member.joined', guidesOnly), 403, 'scope_missing').detail).toContain('members:read');
    expect(expectProblem(await t.get('/v1/events?types=member.left,guide.created', membersOnly), 403, 'scope_missing').detail).toContain('guides:read');
    const none = expectProblem(await t.get('/v1/events', teamsOnly), 403, 'scope_missing');
    expect(none.detail).toContain('guides:read');
    expect(none.detail).toContain('members:read');
  });

  it('refuses bad input with a problem naming what is wrong', async () => {
    const { key, keyId } = await soloTeam(t);
    const other = await soloTeam(t);
    await createGuide(t, other.team.id);
    const foreign = (await feed(other.key)).next_cursor!;
    const cases: [string, string][] = [
      ['?types=', "'types'"],
      ['?types=guide.created,', "'types'"],
      ['?types=guide.created,,guide.updated', "'types'"],
      ['?types=guide.created,guide.created', "'guide.created' more than once"],
      ['?types=guide.exploded', "'guide.exploded'"],
      ['?types=ping', "'ping'"],
      ['?wait=31', "'wait'"],
      ['?wait=-1', "'wait'"],
      ['?wait=1.5', "'wait'"],
      ['?limit=0', "'limit'"],
      ['?limit=101', "'limit'"],
      ['?after=garbage', "'after'"],
      [`?after=${foreign}`, "'after'"],
      [`?after=${foreign.slice(0, -2)}AA`, "'after'"],
      ['?cursor=x', "'cursor'"],
      ['?limit=1&limit=2', "'limit'"],
    ];
    for (const [query, named] of cases) {
      const body = expectProblem(await t.get(`/v1/events${query}`, key), 400, 'invalid_request');
      expect(body.detail, query).toContain(named);
    }
    expect(keyId).toBeTruthy();
  });

  it('is read-only like every v1 path: another method is 405 with Allow', async () => {
    const { key } = await soloTeam(t);
    const response = await t.request('POST', '/v1/events', key);
    expectProblem(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('applies organization policies like every v1 call', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    await t.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: true });
    expectProblem(await t.get('/v1/events', teamKey), 403, 'team_keys_disabled');
    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
    expectProblem(await t.get('/v1/events', teamKey), 403, 'api_disabled');
  });
});

describe('reach', () => {
  it("never shows another organization's events; a team key sees its own team's only", async () => {
    const mine = await organizationWithTeams(t);
    const theirs = await organizationWithTeams(t);
    const teamKey = (await createKey(t, { type: 'team', id: mine.teams[1].id })).secret;
    const a = await createGuide(t, mine.teams[0].id);
    await createGuide(t, theirs.teams[0].id);
    const b = await createGuide(t, mine.teams[1].id);
    expect((await everything(mine.key)).events.map((event) => event.data.guide.id)).toEqual([a.id, b.id]);
    expect((await everything(teamKey)).events.map((event) => event.data.guide.id)).toEqual([b.id]);
  });

  it('shows a team that joins the organization later from then on; what a team did while in it stays when it leaves', async () => {
    const { organization, key } = await organizationWithTeams(t, 'growth', 1);
    const { team, key: teamKey } = await soloTeam(t);
    const before = await createGuide(t, team.id, { title: 'Before joining' });
    await t.admin('PATCH', `/teams/${team.id}`, { organization_id: organization.id });
    const inside = await createGuide(t, team.id, { title: 'While in it' });
    await t.admin('PATCH', `/teams/${team.id}`, { organization_id: null });
    const after = await createGuide(t, team.id, { title: 'After leaving' });

    expect((await everything(key)).events.map((event) => event.data.guide.id)).toEqual([inside.id]);
    // The team's own key follows the team wherever it is.
    expect((await everything(teamKey)).events.map((event) => event.data.guide.id)).toEqual([before.id, inside.id, after.id]);
  });
});

describe('documentation', () => {
  it('is in the OpenAPI document with its parameters, and its items are the webhook envelopes, without ping', async () => {
    const document = (await t.service.app.inject({ url: '/v1/openapi.json' })).json();
    const operation = document.paths['/events'].get;
    expect(operation.operationId).toBe('listEvents');
    expect(operation.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name).sort()).toEqual(['after', 'limit', 'types', 'wait']);
    const wait = operation.parameters.find((p: any) => p.name === 'wait');
    expect([wait.schema.minimum, wait.schema.maximum]).toEqual([0, 30]);
    expect(operation.responses['400'].description).toContain('cursor_expired');
    const event = document.components.schemas.Event;
    const types = event.anyOf.map((item: any) => item.properties.type.enum[0]);
    expect(types).toEqual(['guide.created', 'guide.updated', 'guide.ready', 'guide.failed', 'guide.deleted', 'member.joined', 'member.left', 'member.role_changed']);
    for (const type of types) {
      const webhook = document.webhooks[type].post.requestBody.content['application/json'].schema;
      const item = event.anyOf[types.indexOf(type)];
      expect(item.required).toEqual(webhook.required);
      expect(item.properties.data).toEqual(webhook.properties.data);
    }
  });

  it('has a section in the reference with a polling example, and the cursor_expired entry its problems link to', async () => {
    const page = await t.service.app.inject({ url: '/docs' });
    expect(page.body).toContain('id="events-feed"');
    expect(page.body).toContain('/events?wait=30');
    expect(page.body).toContain('id="error-cursor_expired"');
  });
});

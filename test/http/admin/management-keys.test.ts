// Management keys (shared decisions §11, issue 42): an API key with `webhooks:manage` may call the
// webhook-endpoint and delivery operations of /admin/v1 for its home alone (an organization key: its
// teams' too; another home's endpoint is 404), and nothing else (403 scope_missing, as every operation is
// for a key without the scope). Its writes are audit-logged with the key as actor, it is rate-limited with
// the key's other requests, and /v1 stays read-only. The admin OpenAPI document says which operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGEMENT_KEY_OPERATIONS } from '../../../src/http/admin/management-key-operations.js';
import { type Receiver, startReceiver } from '../../support/receiver.js';
import { createKey, startTestService, type TestService, useTestService } from '../../support/service.js';
import { expectProblem, UNKNOWN_ID } from './helpers.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
let receiver: Receiver;

interface World {
  organization: { id: string };
  teamA: { id: string };
  teamB: { id: string };
  otherTeam: { id: string };
  keys: Record<'orgManage' | 'teamManage' | 'readOnly' | 'otherManage', string>;
  keyIds: Record<'orgManage' | 'teamManage', string>;
  endpoints: Record<'org' | 'teamA' | 'teamB' | 'other', { id: string }>;
}
let world: World;

const asKey = (key: string, method: string, path: string, body?: unknown) =>
  t.service.app.inject({
    method: method as 'GET',
    url: `/admin/v1${path}`,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

beforeAll(async () => {
  receiver = await startReceiver();
  const organization = await t.admin('POST', '/organizations', { name: 'Managed', plan: 'growth' });
  const teamA = await t.admin('POST', '/teams', { name: 'Managed A', organization_id: organization.id });
  const teamB = await t.admin('POST', '/teams', { name: 'Managed B', organization_id: organization.id });
  const otherOrganization = await t.admin('POST', '/organizations', { name: 'Elsewhere', plan: 'growth' });
  const otherTeam = await t.admin('POST', '/teams', { name: 'Elsewhere team', organization_id: otherOrganization.id });
  const orgManage = await createKey(t, { type: 'organization', id: organization.id }, { scopes: ['webhooks:manage'] });
  const teamManage = await createKey(t, { type: 'team', id: teamA.id }, { scopes: ['webhooks:manage'] });
  const readOnly = await createKey(t, { type: 'organization', id: organization.id }, { scopes: ['guides:read', 'teams:read', 'members:read'] });
  const otherManage = await createKey(t, { type: 'organization', id: otherOrganization.id }, { scopes: ['webhooks:manage'] });
  const endpoint = (home: { type: string; id: string }, path: string) => t.admin('POST', '/webhook-endpoints', { home, url: `${receiver.url}/${path}`, events: ['guide.created'] });
  world = {
    organization,
    teamA,
    teamB,
    otherTeam,
    keys: { orgManage: orgManage.secret, teamManage: teamManage.secret, readOnly: readOnly.secret, otherManage: otherManage.secret },
    keyIds: { orgManage: orgManage.id, teamManage: teamManage.id },
    endpoints: {
      org: await endpoint({ type: 'organization', id: organization.id }, 'org'),
      teamA: await endpoint({ type: 'team', id: teamA.id }, 'a'),
      teamB: await endpoint({ type: 'team', id: teamB.id }, 'b'),
      other: await endpoint({ type: 'organization', id: otherOrganization.id }, 'other'),
    },
  };
});

afterAll(() => receiver?.close());

/** Every operation of the management API, from its served OpenAPI document, with its path's parameters filled (`id`, by default an endpoint of team A). */
async function everyOperation(id = world.endpoints.teamA.id): Promise<{ operationId: string; method: string; path: string; security: unknown; description: string }[]> {
  const document = (await t.service.app.inject({ method: 'GET', url: '/admin/v1/openapi.json', headers: { authorization: 'Bearer test-admin-token-0123456789' } })).json();
  return Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, operation]) => ({
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path: path.replace(/^\/admin\/v1/, '').replace(/\{[^}]+\}/g, id),
      security: operation.security,
      description: operation.description ?? '',
    })),
  );
}

describe('which operations a key may call', () => {
  it('every operation of /admin/v1 × the kinds of key: a key without webhooks:manage gets 403 scope_missing everywhere; a management key everywhere but the webhook-endpoint and delivery operations', async () => {
    // Each operation is really called: on an endpoint of its own, which the calls may change or delete.
    const throwaway = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.teamA.id }, url: `${receiver.url}/throwaway`, events: ['guide.created'] });
    const operations = await everyOperation(throwaway.id);
    expect(operations.length).toBeGreaterThan(30);
    const table: string[] = [];
    for (const operation of operations) {
      const open = MANAGEMENT_KEY_OPERATIONS.has(operation.operationId);
      for (const kind of ['readOnly', 'teamManage', 'orgManage'] as const) {
        const answer = await asKey(world.keys[kind], operation.method, operation.path, operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {});
        const refused = answer.statusCode === 403 && answer.json().code === 'scope_missing';
        const expectRefused = kind === 'readOnly' || !open;
        table.push(`${operation.method} ${operation.path} (${operation.operationId}) as ${kind}: ${answer.statusCode}${refused === expectRefused ? '' : ` ← expected ${expectRefused ? '403 scope_missing' : 'not scope_missing'}`}`);
      }
    }
    expect(table.filter((line) => line.includes('← expected'))).toEqual([]);
    // Every operation of the list exists (a renamed one would silently leave keys out).
    for (const operationId of MANAGEMENT_KEY_OPERATIONS) expect(operations.map((operation) => operation.operationId)).toContain(operationId);
  });

  it("says which in the admin OpenAPI document: those operations list the management key's scheme and say so, no other does", async () => {
    for (const operation of await everyOperation()) {
      const open = MANAGEMENT_KEY_OPERATIONS.has(operation.operationId);
      expect(JSON.stringify(operation.security ?? null).includes('managementKey'), operation.operationId).toBe(open);
      expect(operation.description.includes('A management key'), operation.operationId).toBe(open);
    }
  });

  it('the refusal names the scope and what it allows, in words', async () => {
    const refused = expectProblem(await asKey(world.keys.orgManage, 'GET', `/organizations/${world.organization.id}`), 403, 'scope_missing');
    expect(refused.detail).toContain('webhooks:manage');
    expect(refused.detail).toContain('admin token');
    const noScope = expectProblem(await asKey(world.keys.readOnly, 'GET', `/webhook-endpoints/${world.endpoints.teamA.id}`), 403, 'scope_missing');
    expect(noScope.detail).toContain('webhooks:manage');
  });
});

describe('what a management key reaches', () => {
  it('an organization key: its own endpoints and its teams\', not another organization\'s (404, as if it did not exist)', async () => {
    for (const endpoint of [world.endpoints.org, world.endpoints.teamA, world.endpoints.teamB]) {
      expect((await asKey(world.keys.orgManage, 'GET', `/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(200);
    }
    const other = world.endpoints.other.id;
    for (const [method, path, body] of [
      ['GET', `/webhook-endpoints/${other}`],
      ['PATCH', `/webhook-endpoints/${other}`, { description: 'not mine' }],
      ['DELETE', `/webhook-endpoints/${other}`],
      ['GET', `/webhook-endpoints/${other}/deliveries`],
      ['GET', `/webhook-endpoints/${other}/signing-key`],
      ['POST', `/webhook-endpoints/${other}/ping`],
      ['GET', `/webhook-endpoints?home_type=organization&home_id=${(await t.admin('GET', `/webhook-endpoints/${other}`)).home.id}`],
    ] as const) {
      const answer = await asKey(world.keys.orgManage, method, path, body);
      expect(answer.statusCode, `${method} ${path}: ${answer.body}`).toBe(404);
    }
    expect((await t.admin('GET', `/webhook-endpoints/${other}`)).description).not.toBe('not mine');
    // And a delivery of another home's endpoint cannot be sent again.
    const [attempt] = (await t.admin('GET', `/webhook-endpoints/${other}/deliveries`)) as { id: string }[];
    expect((await asKey(world.keys.orgManage, 'POST', `/deliveries/${attempt!.id}/resend`)).statusCode).toBe(404);
  });

  it('a team key: its team\'s endpoints alone, not its organization\'s or a sibling team\'s', async () => {
    expect((await asKey(world.keys.teamManage, 'GET', `/webhook-endpoints/${world.endpoints.teamA.id}`)).statusCode).toBe(200);
    for (const endpoint of [world.endpoints.org, world.endpoints.teamB]) {
      expect((await asKey(world.keys.teamManage, 'GET', `/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404);
    }
    const listed = await asKey(world.keys.teamManage, 'GET', `/webhook-endpoints?home_type=team&home_id=${world.teamA.id}`);
    expect(listed.json().data.map((endpoint: { id: string }) => endpoint.id)).toEqual([world.endpoints.teamA.id]);
    expect((await asKey(world.keys.teamManage, 'GET', `/webhook-endpoints?home_type=team&home_id=${world.teamB.id}`)).statusCode).toBe(404);
    const elsewhere = await asKey(world.keys.teamManage, 'POST', '/webhook-endpoints', { home: { type: 'team', id: world.teamB.id }, url: `${receiver.url}/nope`, events: ['guide.created'] });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('manages its own endpoints through their whole life, each write in the audit log as the key', async () => {
    const key = world.keys.teamManage;
    const created = await asKey(key, 'POST', '/webhook-endpoints', { home: { type: 'team', id: world.teamA.id }, url: `${receiver.url}/by-key`, events: ['guide.created'] });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    for (const [method, path, body, status] of [
      ['PATCH', `/webhook-endpoints/${id}`, { description: 'Registered from CI' }, 200],
      ['GET', `/webhook-endpoints/${id}/health`, undefined, 200],
      ['GET', `/webhook-endpoints/${id}/signing-key`, undefined, 200],
      ['POST', `/webhook-endpoints/${id}/signing-key/rotate`, undefined, 200],
      ['POST', `/webhook-endpoints/${id}/ping`, undefined, 202],
      ['POST', `/webhook-endpoints/${id}/pause`, undefined, 200],
      ['POST', `/webhook-endpoints/${id}/resume`, undefined, 200],
      ['GET', `/webhook-endpoints/${id}/deliveries`, undefined, 200],
    ] as const) {
      const answer = await asKey(key, method, path, body);
      expect(answer.statusCode, `${method} ${path}: ${answer.body}`).toBe(status);
    }
    const [delivery] = (await asKey(key, 'GET', `/webhook-endpoints/${id}/deliveries`)).json().data as { id: string }[];
    expect((await asKey(key, 'POST', `/deliveries/${delivery!.id}/resend`)).statusCode).toBe(202);
    expect((await asKey(key, 'DELETE', `/webhook-endpoints/${id}`)).statusCode).toBe(204);

    const audit = (await t.admin('GET', `/audit-events?actor_id=${world.keyIds.teamManage}&limit=100`)) as { actor: { type: string; id: string; name: string }; action: string }[];
    expect(audit.map((event) => event.action)).toEqual(
      expect.arrayContaining([
        'webhook_endpoint.created',
        'webhook_endpoint.updated',
        'webhook_endpoint.signing_key_revealed',
        'webhook_endpoint.signing_key_rotated',
        'webhook_endpoint.pinged',
        'webhook_endpoint.paused',
        'webhook_endpoint.resumed',
        'delivery.resent',
        'webhook_endpoint.deleted',
      ]),
    );
    for (const event of audit) expect(event.actor).toEqual({ type: 'api_key', id: world.keyIds.teamManage, name: 'test key' });
  });

  it('keys its Idempotency-Keys to itself: a repeat replays, another key with the same header does its own write', async () => {
    const body = { home: { type: 'organization', id: world.organization.id }, url: `${receiver.url}/keyed`, events: ['guide.created'] };
    const send = (key: string) =>
      t.service.app.inject({
        method: 'POST',
        url: '/admin/v1/webhook-endpoints',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'register-from-ci' },
        payload: JSON.stringify(body),
      });
    const first = await send(world.keys.orgManage);
    expect(first.statusCode).toBe(201);
    const again = await send(world.keys.orgManage);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
    const operator = await t.service.app.inject({
      method: 'POST',
      url: '/admin/v1/webhook-endpoints',
      headers: { authorization: 'Bearer test-admin-token-0123456789', 'content-type': 'application/json', 'idempotency-key': 'register-from-ci' },
      payload: JSON.stringify(body),
    });
    expect(operator.statusCode).toBe(201);
    expect(operator.json().data.id).not.toBe(first.json().data.id);
  });

  it('an unknown endpoint is 404; a revoked key is 401; a key of an organization whose API is off is 403 api_disabled', async () => {
    expect((await asKey(world.keys.orgManage, 'GET', `/webhook-endpoints/${UNKNOWN_ID}`)).statusCode).toBe(404);
    const revoked = await createKey(t, { type: 'team', id: world.teamA.id }, { scopes: ['webhooks:manage'] });
    await t.admin('DELETE', `/api-keys/${revoked.id}`);
    expectProblem(await asKey(revoked.secret, 'GET', `/webhook-endpoints/${world.endpoints.teamA.id}`), 401, 'invalid_key');
    const organization = await t.admin('POST', '/organizations', { name: 'Switched off', plan: 'growth', api_enabled: false });
    const off = await createKey(t, { type: 'organization', id: organization.id }, { scopes: ['webhooks:manage'] });
    expectProblem(await asKey(off.secret, 'GET', `/webhook-endpoints?home_type=organization&home_id=${organization.id}`), 403, 'api_disabled');
  });
});

describe('/v1 with a management key', () => {
  it('stays read-only: its reads need their own scopes, and it takes no writes', async () => {
    expectProblem(await t.get('/v1/guides', world.keys.orgManage), 403, 'scope_missing');
    expect((await t.request('POST', '/v1/guides', world.keys.orgManage)).statusCode).toBe(405);
    const verified = await t.get('/v1/auth/verify', world.keys.orgManage);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data.scopes).toEqual(['webhooks:manage']);
  });
});

describe('the rate limit of a management key', () => {
  let limited: TestService;
  afterAll(() => limited?.close());

  it('counts its management calls with its v1 calls, in one window', async () => {
    limited = await startTestService({ RATE_LIMIT_PER_MINUTE: '4' });
    const organization = await limited.admin('POST', '/organizations', { name: 'Limited', plan: 'growth' });
    const key = await createKey(limited, { type: 'organization', id: organization.id }, { scopes: ['guides:read', 'webhooks:manage'] });
    const list = () =>
      limited.service.app.inject({ method: 'GET', url: `/admin/v1/webhook-endpoints?home_type=organization&home_id=${organization.id}`, headers: { authorization: `Bearer ${key.secret}` } });
    expect((await list()).statusCode).toBe(200);
    expect((await limited.get('/v1/guides', key.secret)).statusCode).toBe(200);
    expect((await list()).headers['ratelimit-remaining']).toBe('1');
    expect((await limited.get('/v1/guides', key.secret)).statusCode).toBe(200);
    const refused = expectProblem(await list(), 429, 'rate_limited');
    expect(refused.detail.length).toBeGreaterThan(0);
  });
});

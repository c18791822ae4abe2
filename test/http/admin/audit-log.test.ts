// The audit log (shared decisions §10, issue 33): every management write records one event, in the
// transaction of the change, naming who (a person's id, or the operator), what, to which resource, in
// which home, from which address and request, and for a change the names of the fields it set, never
// their values; console sign-ins too. GET /admin/v1/audit-events reads them newest first, filtered, for
// the operator all of them, an organization's admins their organization's and its teams', a team's ADMIN
// members their team's, nobody else.
import { beforeAll, describe, expect, it } from 'vitest';
import { actingAs, actorFor, recordAudit } from '../../../src/domain/audit.js';
import { transact } from '../../../src/domain/context.js';
import { asSession, type ConsoleSession, consolePost, signIn } from '../../console/sessions.js';
import { ADMIN_TOKEN, createGuide, useTestService } from '../../support/service.js';
import { eventually } from '../../support/waiting.js';
import { createUser, expectProblem } from './helpers.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

interface AuditEvent {
  id: string;
  at: string;
  actor: { type: string; id: string | null; name?: string | null };
  action: string;
  target: { type: string; id: string | null; name?: string | null };
  home: { type: string; id: string } | null;
  address: string | null;
  request_id: string | null;
  changed: string[] | null;
  count?: number | null;
}

const OPERATOR_HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** A management call as the operator from `address`, with a request id of its own; answers the request id. */
async function operatorCall(method: string, path: string, body?: unknown, address = '198.51.100.7'): Promise<{ requestId: string; data: any; status: number }> {
  const requestId = `audit-${Math.random().toString(36).slice(2)}`;
  // A millisecond after what came before: events of one millisecond are ordered by their random ids.
  t.clock.advance(1);
  const response = await t.service.app.inject({
    method: method as 'GET',
    url: `/admin/v1${path}`,
    remoteAddress: address,
    headers: { ...OPERATOR_HEADERS, 'x-request-id': requestId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
  return { requestId, data: response.body === '' ? null : response.json().data, status: response.statusCode };
}

async function newest(count = 1, query = ''): Promise<AuditEvent[]> {
  return (await t.admin('GET', `/audit-events?limit=${count}${query}`)) as AuditEvent[];
}

let organization: any;
let team: any;
let otherTeam: any;
let user: any;
let guide: any;
let endpoint: any;

beforeAll(async () => {
  organization = await t.admin('POST', '/organizations', { name: 'Audited', plan: 'growth' });
  team = await t.admin('POST', '/teams', { name: 'Audited team', organization_id: organization.id });
  otherTeam = await t.admin('POST', '/teams', { name: 'Other audited team', organization_id: organization.id });
  user = await createUser(t);
  guide = await createGuide(t, team.id, { title: 'Audited guide' });
  endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
});

/**
 * One write of every kind the management API takes (its write operations, and the signing key's reveal),
 * by operationId: what it records. Each runs after the ones before it.
 */
const WRITES: Record<string, () => Promise<{ requestId: string; expected: Partial<AuditEvent> }>> = {
  createOrganization: async () => {
    const { requestId, data } = await operatorCall('POST', '/organizations', { name: 'Made', plan: 'free' });
    return { requestId, expected: { action: 'organization.created', target: { type: 'organization', id: data.id }, home: { type: 'organization', id: data.id } } };
  },
  updateOrganization: async () => {
    const { requestId } = await operatorCall('PATCH', `/organizations/${organization.id}`, { api_enabled: true, name: 'Audited, renamed' });
    const home = { type: 'organization', id: organization.id };
    return { requestId, expected: { action: 'organization.updated', target: home, home, changed: ['api_enabled', 'name'] } };
  },
  addOrganizationAdmin: async () => {
    const { requestId } = await operatorCall('PUT', `/organizations/${organization.id}/admins/${user.id}`);
    return { requestId, expected: { action: 'admin.added', target: { type: 'user', id: user.id }, home: { type: 'organization', id: organization.id } } };
  },
  addOrganizationAdminByEmail: async () => {
    const known = await createUser(t);
    const { requestId } = await operatorCall('POST', `/organizations/${organization.id}/admins`, { email: known.email });
    return { requestId, expected: { action: 'admin.added', target: { type: 'user', id: known.id }, home: { type: 'organization', id: organization.id } } };
  },
  removeOrganizationAdmin: async () => {
    const { requestId } = await operatorCall('DELETE', `/organizations/${organization.id}/admins/${user.id}`);
    return { requestId, expected: { action: 'admin.removed', target: { type: 'user', id: user.id }, home: { type: 'organization', id: organization.id } } };
  },
  createTeam: async () => {
    const { requestId, data } = await operatorCall('POST', '/teams', { name: 'Made team', organization_id: organization.id });
    return { requestId, expected: { action: 'team.created', target: { type: 'team', id: data.id }, home: { type: 'team', id: data.id } } };
  },
  updateTeam: async () => {
    const { requestId } = await operatorCall('PATCH', `/teams/${team.id}`, { brand_color: '#112233' });
    return { requestId, expected: { action: 'team.updated', target: { type: 'team', id: team.id }, home: { type: 'team', id: team.id }, changed: ['brand_color'] } };
  },
  createUser: async () => {
    const { requestId, data } = await operatorCall('POST', '/users', { email: `made-${Math.random()}@example.com`, name: 'Made Person' });
    return { requestId, expected: { action: 'user.created', target: { type: 'user', id: data.id }, home: null } };
  },
  addTeamMemberByEmail: async () => {
    const known = await createUser(t);
    const { requestId } = await operatorCall('POST', `/teams/${otherTeam.id}/members`, { email: known.email, role: 'VIEWER' });
    return { requestId, expected: { action: 'member.added', target: { type: 'user', id: known.id }, home: { type: 'team', id: otherTeam.id } } };
  },
  putTeamMember: async () => {
    const { requestId } = await operatorCall('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    return { requestId, expected: { action: 'member.added', target: { type: 'user', id: user.id }, home: { type: 'team', id: team.id } } };
  },
  removeTeamMember: async () => {
    await operatorCall('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' });
    const [changedRole] = await newest();
    expect(changedRole).toMatchObject({ action: 'member.role_changed', target: { type: 'user', id: user.id }, changed: ['role'] });
    const { requestId } = await operatorCall('DELETE', `/teams/${team.id}/members/${user.id}`);
    return { requestId, expected: { action: 'member.removed', target: { type: 'user', id: user.id }, home: { type: 'team', id: team.id } } };
  },
  createGuide: async () => {
    const { requestId, data } = await operatorCall('POST', '/guides', { team_id: team.id, title: 'Made guide' });
    return { requestId, expected: { action: 'guide.created', target: { type: 'guide', id: data.id }, home: { type: 'team', id: team.id } } };
  },
  updateGuide: async () => {
    const { requestId } = await operatorCall('PATCH', `/guides/${guide.id}`, { title: 'Audited guide, retitled', publish_status: 'PUBLISHED' });
    return { requestId, expected: { action: 'guide.updated', target: { type: 'guide', id: guide.id }, home: { type: 'team', id: team.id }, changed: ['title', 'publish_status'] } };
  },
  settleGuideProcessing: async () => {
    const processing = await t.admin('POST', '/guides', { team_id: team.id, title: 'Processing', processing: true });
    const { requestId } = await operatorCall('POST', `/guides/${processing.id}/processing`, { outcome: 'failed', error: 'no video' });
    return { requestId, expected: { action: 'guide.processing_settled', target: { type: 'guide', id: processing.id }, home: { type: 'team', id: team.id }, changed: ['processing_state'] } };
  },
  moveGuide: async () => {
    const { requestId } = await operatorCall('POST', `/guides/${guide.id}/move`, { team_id: otherTeam.id });
    return { requestId, expected: { action: 'guide.moved', target: { type: 'guide', id: guide.id }, home: { type: 'team', id: otherTeam.id }, changed: ['team_id'] } };
  },
  deleteGuide: async () => {
    const doomed = await createGuide(t, team.id, { title: 'Doomed' });
    const { requestId } = await operatorCall('DELETE', `/guides/${doomed.id}`);
    return { requestId, expected: { action: 'guide.deleted', target: { type: 'guide', id: doomed.id }, home: { type: 'team', id: team.id } } };
  },
  createApiKey: async () => {
    const { requestId, data } = await operatorCall('POST', '/api-keys', { home: { type: 'team', id: team.id }, name: 'CI', scopes: ['guides:read'], expires_in_days: 30 });
    return { requestId, expected: { action: 'api_key.created', target: { type: 'api_key', id: data.id }, home: { type: 'team', id: team.id } } };
  },
  revokeApiKey: async () => {
    const key = await t.admin('POST', '/api-keys', { home: { type: 'organization', id: organization.id }, name: 'Old', scopes: ['guides:read'], expires_in_days: null });
    const { requestId } = await operatorCall('DELETE', `/api-keys/${key.id}`);
    return { requestId, expected: { action: 'api_key.revoked', target: { type: 'api_key', id: key.id }, home: { type: 'organization', id: organization.id } } };
  },
  createWebhookEndpoint: async () => {
    const { requestId, data } = await operatorCall('POST', '/webhook-endpoints', { home: { type: 'organization', id: organization.id }, url: 'http://127.0.0.1:9/made', events: ['guide.created'] });
    return { requestId, expected: { action: 'webhook_endpoint.created', target: { type: 'webhook_endpoint', id: data.id }, home: { type: 'organization', id: organization.id } } };
  },
  updateWebhookEndpoint: async () => {
    const { requestId } = await operatorCall('PATCH', `/webhook-endpoints/${endpoint.id}`, { url: 'http://127.0.0.1:9/moved', description: 'Repointed' });
    return { requestId, expected: { action: 'webhook_endpoint.updated', target: { type: 'webhook_endpoint', id: endpoint.id }, home: { type: 'team', id: team.id }, changed: ['url', 'description'] } };
  },
  pauseWebhookEndpoint: async () => {
    const { requestId } = await operatorCall('POST', `/webhook-endpoints/${endpoint.id}/pause`);
    return { requestId, expected: { action: 'webhook_endpoint.paused', target: { type: 'webhook_endpoint', id: endpoint.id }, home: { type: 'team', id: team.id } } };
  },
  resumeWebhookEndpoint: async () => {
    const { requestId } = await operatorCall('POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: false });
    return { requestId, expected: { action: 'webhook_endpoint.resumed', target: { type: 'webhook_endpoint', id: endpoint.id }, home: { type: 'team', id: team.id } } };
  },
  recoverWebhookEndpoint: async () => {
    // An endpoint whose ping failed and whose retry was missed while it was paused: recover sends it again.
    const since = t.clock.now().toISOString();
    const made = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/recovered', events: ['guide.created'] });
    await eventually('the ping to fail', async () => (await t.admin('GET', `/webhook-endpoints/${made.id}/deliveries?status=failed`)).length > 0);
    await t.admin('POST', `/webhook-endpoints/${made.id}/pause`);
    await t.admin('POST', `/webhook-endpoints/${made.id}/resume`);
    const { requestId, data } = await operatorCall('POST', `/webhook-endpoints/${made.id}/recover`, { since });
    expect(data).toEqual({ events: 1 });
    return { requestId, expected: { action: 'webhook_endpoint.recovered', target: { type: 'webhook_endpoint', id: made.id }, home: { type: 'team', id: team.id }, count: 1 } };
  },
  pingWebhookEndpoint: async () => {
    const { requestId } = await operatorCall('POST', `/webhook-endpoints/${endpoint.id}/ping`);
    return { requestId, expected: { action: 'webhook_endpoint.pinged', target: { type: 'webhook_endpoint', id: endpoint.id }, home: { type: 'team', id: team.id } } };
  },
  revealSigningKey: async () => {
    const { requestId } = await operatorCall('GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
    return { requestId, expected: { action: 'webhook_endpoint.signing_key_revealed', target: { type: 'webhook_endpoint', id: endpoint.id }, home: { type: 'team', id: team.id } } };
  },
  rotateSigningKey: async () => {
    const { requestId } = await operatorCall('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`);
    return { requestId, expected: { action: 'webhook_endpoint.signing_key_rotated', target: { type: 'webhook_endpoint', id: endpoint.id }, home: { type: 'team', id: team.id } } };
  },
  resendDelivery: async () => {
    const attempts = await t.admin('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=1`);
    const { requestId } = await operatorCall('POST', `/deliveries/${attempts[0].id}/resend`);
    return { requestId, expected: { action: 'delivery.resent', target: { type: 'delivery', id: attempts[0].id }, home: { type: 'team', id: team.id } } };
  },
  eraseUser: async () => {
    const leaver = await createUser(t);
    const { requestId } = await operatorCall('POST', `/users/${leaver.id}/erase`);
    return { requestId, expected: { action: 'user.erased', target: { type: 'user', id: leaver.id }, home: null } };
  },
  deleteWebhookEndpoint: async () => {
    const doomed = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/doomed', events: ['guide.created'] });
    const { requestId } = await operatorCall('DELETE', `/webhook-endpoints/${doomed.id}`);
    return { requestId, expected: { action: 'webhook_endpoint.deleted', target: { type: 'webhook_endpoint', id: doomed.id }, home: { type: 'team', id: team.id } } };
  },
};

describe('every management write records one audit event', () => {
  it("names the operator, what, which resource, where, from which address and request, and the changed fields' names only", async () => {
    for (const [operation, write] of Object.entries(WRITES)) {
      const { requestId, expected } = await write();
      const [event] = await newest();
      expect(event, operation).toMatchObject({ actor: { type: 'operator', id: null }, address: '198.51.100.7', request_id: requestId, changed: null, count: null, ...expected });
      expect(event!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it('covers every write operation of the management API, and the signing key reveal', async () => {
    const document = (await t.service.app.inject({ method: 'GET', url: '/admin/v1/openapi.json', headers: OPERATOR_HEADERS })).json();
    const writes = Object.values<Record<string, { operationId: string }>>(document.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map(([, operation]) => operation.operationId),
    );
    expect([...writes, 'revealSigningKey'].sort()).toEqual(Object.keys(WRITES).sort());
  });

  it('is written in the transaction of its change: a change that rolls back leaves no event', async () => {
    const { ctx } = t.service;
    const [before] = await newest();
    const scope = { actor: actorFor(null), address: '198.51.100.9', requestId: 'rolled-back' };
    const failing = actingAs(scope, () =>
      transact(ctx, async (trx) => {
        await recordAudit(ctx, trx, { action: 'team.updated', target: { type: 'team', id: team.id }, home: { type: 'team', id: team.id } });
        throw new Error('the change fails after its event');
      }),
    );
    await expect(failing).rejects.toThrow('the change fails after its event');
    expect((await newest())[0]!.id).toBe(before!.id);
  });

  it('a write that changes nothing, or is refused, records nothing', async () => {
    const [before] = await newest();
    await operatorCall('POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: false });
    expectProblem(await t.adminRaw('PATCH', `/teams/${team.id}`, { plan: 'nope' }), 400, 'invalid_request');
    expectProblem(await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${user.id}`), 404, 'not_found');
    expect((await newest())[0]!.id).toBe(before!.id);
  });

  it('keeps no secret and no value: neither a new key, nor a signing key, nor a name set', async () => {
    const created = await t.adminRaw('POST', '/api-keys', { home: { type: 'team', id: team.id }, name: 'Secret holder', scopes: ['guides:read'], expires_in_days: 1 });
    const secret = created.json().secret as string;
    const rotated = await t.admin('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`);
    await t.admin('PATCH', `/teams/${team.id}`, { name: 'A name worth hiding' });
    const stored = JSON.stringify(await t.service.store.db.selectFrom('audit_events').selectAll().execute());
    for (const value of [secret, rotated.signing_key, 'A name worth hiding', 'Secret holder']) expect(stored).not.toContain(value);
  });

  it('shows names as they are now, read from the resources: a renamed team by its new name', async () => {
    const renamed = await t.admin('POST', '/teams', { name: 'Before', organization_id: organization.id });
    t.clock.advance(1);
    await t.admin('PATCH', `/teams/${renamed.id}`, { name: 'After' });
    const events = (await t.admin('GET', `/audit-events?home_type=team&home_id=${renamed.id}`)) as AuditEvent[];
    expect(events.map((event) => [event.action, event.target])).toEqual([
      ['team.updated', { type: 'team', id: renamed.id, name: 'After' }],
      ['team.created', { type: 'team', id: renamed.id, name: 'After' }],
    ]);
    expect(events[0]!.actor).toEqual({ type: 'operator', id: null, name: null });
  });

  it("names a webhook endpoint by its URL without the query, which may hold the receiver's shared token (decisions §9)", async () => {
    const url = 'http://127.0.0.1:9/tokened?token=receiver-shared-s3cret&v=2';
    const made = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url, events: ['guide.created'] });
    const events = (await t.admin('GET', `/audit-events?home_type=team&home_id=${team.id}&action=webhook_endpoint.created`)) as AuditEvent[];
    expect(events[0]!.target).toEqual({ type: 'webhook_endpoint', id: made.id, name: 'http://127.0.0.1:9/tokened?…' });
    expect(JSON.stringify(await t.admin('GET', '/audit-events?limit=100'))).not.toContain('receiver-shared-s3cret');
    // The admins of its home still see the whole URL on the endpoint itself.
    expect((await t.admin('GET', `/webhook-endpoints/${made.id}`)).url).toBe(url);
  });
});

describe('console sign-ins and writes from the console', () => {
  it('a sign-in by link is recorded as the person, from their address; their writes as theirs', async () => {
    const person = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${person.id}`, { role: 'ADMIN' });
    const session = await signIn(t, person.email);
    const [signedIn] = await newest(1, '&action=session.signed_in');
    expect(signedIn).toMatchObject({ actor: { type: 'person', id: person.id }, target: { type: 'session', id: null }, home: null, address: '127.0.0.1' });
    t.clock.advance(1);
    const key = await asSession(t, session, 'POST', '/api-keys', { home: { type: 'team', id: team.id }, name: 'From the console', scopes: ['guides:read'], expires_in_days: 7 });
    expect(key.statusCode).toBe(201);
    const [created] = await newest();
    expect(created).toMatchObject({ actor: { type: 'person', id: person.id }, action: 'api_key.created', target: { type: 'api_key', id: key.json().data.id }, request_id: key.headers['x-request-id'] });
  });

  it('an operator sign-in with the admin token is recorded as the operator; a refused one is not', async () => {
    const [before] = await newest();
    expect((await consolePost(t, '/session/operator', { admin_token: 'not the token at all' })).statusCode).toBe(401);
    expect((await newest())[0]!.id).toBe(before!.id);
    t.clock.advance(1);
    expect((await consolePost(t, '/session/operator', { admin_token: ADMIN_TOKEN })).statusCode).toBe(200);
    expect((await newest())[0]).toMatchObject({ actor: { type: 'operator', id: null }, action: 'session.signed_in' });
  });
});

describe('who reads which events', () => {
  let orgAdmin: ConsoleSession;
  let teamAdmin: ConsoleSession;
  let otherTeamAdmin: ConsoleSession;
  let viewer: ConsoleSession;
  let elsewhere: any;

  const person = async (grant: (id: string) => Promise<unknown>) => {
    const made = await createUser(t);
    await grant(made.id);
    return signIn(t, made.email);
  };
  const read = async (session: ConsoleSession, query = '') => asSession(t, session, 'GET', `/audit-events?limit=100${query}`);
  const homesOf = (events: AuditEvent[]) => new Set(events.map((event) => (event.home ? `${event.home.type}:${event.home.id}` : 'none')));

  beforeAll(async () => {
    elsewhere = await t.admin('POST', '/organizations', { name: 'Elsewhere', plan: 'free' });
    const elsewhereTeam = await t.admin('POST', '/teams', { name: 'Elsewhere team', organization_id: elsewhere.id });
    await t.admin('PATCH', `/teams/${elsewhereTeam.id}`, { name: 'Elsewhere, renamed' });
    orgAdmin = await person((id) => t.admin('PUT', `/organizations/${organization.id}/admins/${id}`));
    teamAdmin = await person((id) => t.admin('PUT', `/teams/${team.id}/members/${id}`, { role: 'ADMIN' }));
    otherTeamAdmin = await person((id) => t.admin('PUT', `/teams/${otherTeam.id}/members/${id}`, { role: 'ADMIN' }));
    viewer = await person((id) => t.admin('PUT', `/teams/${team.id}/members/${id}`, { role: 'VIEWER' }));
    await t.admin('PATCH', `/teams/${team.id}`, { brand_color: '#445566' });
    await t.admin('PATCH', `/teams/${otherTeam.id}`, { brand_color: '#778899' });
  });

  it('the operator reads every event', async () => {
    const homes = homesOf((await t.admin('GET', '/audit-events?limit=100')) as AuditEvent[]);
    for (const home of [`organization:${elsewhere.id}`, `team:${team.id}`, `team:${otherTeam.id}`, 'none']) expect(homes).toContain(home);
  });

  it("an organization's admin reads its events and its teams', no other organization's", async () => {
    const answer = await read(orgAdmin);
    expect(answer.statusCode).toBe(200);
    const homes = homesOf(answer.json().data);
    expect(homes).toEqual(new Set([`organization:${organization.id}`, `team:${team.id}`, `team:${otherTeam.id}`, ...[...homes].filter((home) => home.startsWith('team:') && home !== `team:${team.id}` && home !== `team:${otherTeam.id}`)]));
    expect(homes).not.toContain(`organization:${elsewhere.id}`);
    expect(homes).not.toContain('none');
    // Narrowed to one of its teams.
    expect(homesOf((await read(orgAdmin, `&home_type=team&home_id=${team.id}`)).json().data)).toEqual(new Set([`team:${team.id}`]));
  });

  it("a team's ADMIN member reads the team's events only; another team's is refused", async () => {
    expect(homesOf((await read(teamAdmin)).json().data)).toEqual(new Set([`team:${team.id}`]));
    expect(homesOf((await read(otherTeamAdmin)).json().data)).toEqual(new Set([`team:${otherTeam.id}`]));
    expectProblem(await read(teamAdmin, `&home_type=team&home_id=${otherTeam.id}`), 403, 'forbidden');
    expectProblem(await read(teamAdmin, `&home_type=organization&home_id=${organization.id}`), 403, 'forbidden');
  });

  it('a VIEWER, or anyone without an admin right, is refused', async () => {
    expectProblem(await read(viewer), 403, 'forbidden');
  });

  it('filters: action, actor, time range; keyset pages newest first', async () => {
    const all = (await t.admin('GET', '/audit-events?limit=100')) as AuditEvent[];
    const sorted = [...all].sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1));
    expect(all.map((event) => event.id)).toEqual(sorted.map((event) => event.id));
    const updates = (await t.admin('GET', '/audit-events?action=team.updated&limit=100')) as AuditEvent[];
    expect(updates.length).toBeGreaterThan(1);
    expect(new Set(updates.map((event) => event.action))).toEqual(new Set(['team.updated']));
    const middle = all[Math.floor(all.length / 2)]!.at;
    const since = (await t.admin('GET', `/audit-events?since=${encodeURIComponent(middle)}&limit=100`)) as AuditEvent[];
    expect(since.every((event) => event.at >= middle)).toBe(true);
    const until = (await t.admin('GET', `/audit-events?until=${encodeURIComponent(middle)}&limit=100`)) as AuditEvent[];
    expect(until.every((event) => event.at < middle)).toBe(true);
    const first = await t.adminRaw('GET', '/audit-events?limit=2');
    const second = await t.adminRaw('GET', `/audit-events?limit=2&cursor=${first.json().next_cursor}`);
    expect(second.json().data.map((event: AuditEvent) => event.id)).toEqual(all.slice(2, 4).map((event) => event.id));
    const byActor = await t.adminRaw('GET', `/audit-events?actor_id=${user.id}`);
    expect(byActor.statusCode).toBe(200);
    expectProblem(await t.adminRaw('GET', `/audit-events?home_type=team`), 400, 'invalid_request');
  });
});

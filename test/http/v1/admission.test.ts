// Admission of v1 requests (spec §4, §5, §7, §8; decisions §2, §4, §7): keys, expiry, organization
// policy, scopes, the order of the checks, rate limits, the headers every answer carries, request ids,
// how keys are stored, and the problem bodies of every error code.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeySecret, hashKeySecret } from '../../../src/domain/api-key-secret.js';
import { checkResponse } from '../../support/openapi-conformance.js';
import {
  createGuide,
  createKey,
  organizationWithTeams,
  PUBLIC_URL,
  type Scope,
  soloTeam,
  startTestService,
  type TestService,
  useTestService,
} from '../../support/service.js';

const DAY_MS = 86_400_000;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const SPEC_ERROR_CODES = [
  'invalid_key',
  'key_expired',
  'scope_missing',
  'api_disabled',
  'team_keys_disabled',
  'rate_limited',
  'invalid_request',
  'not_found',
  'internal_error',
] as const;
type SpecErrorCode = (typeof SPEC_ERROR_CODES)[number];
const STATUS: Record<SpecErrorCode | 'method_not_allowed', number> = {
  invalid_key: 401,
  key_expired: 401,
  scope_missing: 403,
  api_disabled: 403,
  team_keys_disabled: 403,
  rate_limited: 429,
  invalid_request: 400,
  not_found: 404,
  internal_error: 500,
  method_not_allowed: 405,
};
const V1_PATHS_WITHOUT_GUIDE = ['/v1/auth/verify', '/v1/guides', '/v1/teams', '/v1/members'];

/** Asserts an RFC 9457 problem with exactly the fields of spec §7 and returns its body. */
function expectProblem(response: LightMyRequestResponse, code: keyof typeof STATUS) {
  const status = STATUS[code];
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
  const body = response.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'request_id', 'status', 'title', 'type']);
  expect(body.type).toBe(`${PUBLIC_URL}/docs#error-${code}`);
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(typeof body.title).toBe('string');
  expect(body.title.length).toBeGreaterThan(0);
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.request_id).toBe(response.headers['x-request-id']);
  return body as { type: string; title: string; status: number; detail: string; code: string; request_id: string };
}

/** Spec §4: every response, success or error, carries these headers. */
function expectCommonHeaders(response: LightMyRequestResponse) {
  expect(String(response.headers['x-request-id'] ?? ''), 'X-Request-Id').toMatch(REQUEST_ID);
  expect(String(response.headers['ratelimit-limit'] ?? ''), 'RateLimit-Limit').toMatch(/^\d+$/);
  expect(String(response.headers['ratelimit-remaining'] ?? ''), 'RateLimit-Remaining').toMatch(/^\d+$/);
}

/** A v1 request from a given client address, checked against the OpenAPI document like t.get does. */
async function fromAddress(t: TestService, address: string, url: string, key?: string | null, headers: Record<string, string> = {}) {
  const response = await t.service.app.inject({
    method: 'GET',
    url,
    remoteAddress: address,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });
  await checkResponse(t.service, 'GET', url, response);
  return response;
}

const randomUuid = () => crypto.randomUUID();

const t = useTestService();

describe('error bodies and their reference (spec §7, decisions §4)', () => {
  let s: TestService;
  const produced = new Map<string, LightMyRequestResponse>();

  beforeAll(async () => {
    // A small limit so that rate_limited is reachable; each producer below stays under it otherwise.
    s = await startTestService({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => s.close());

  const producers: Record<SpecErrorCode | 'method_not_allowed', () => Promise<LightMyRequestResponse>> = {
    invalid_key: () => s.get('/v1/auth/verify', null),
    key_expired: async () => {
      const { team } = await soloTeam(s);
      const key = await createKey(s, { type: 'team', id: team.id }, { expires_in_days: 1 });
      s.clock.advance(DAY_MS + 1);
      return s.get('/v1/auth/verify', key.secret);
    },
    scope_missing: async () => {
      const { key } = await soloTeam(s, 'free', ['members:read']);
      return s.get('/v1/guides', key);
    },
    api_disabled: async () => {
      const { organization, key } = await organizationWithTeams(s, 'growth', 1);
      await s.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
      return s.get('/v1/teams', key);
    },
    team_keys_disabled: async () => {
      const { organization, teams } = await organizationWithTeams(s, 'growth', 1);
      await s.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: true });
      const teamKey = await createKey(s, { type: 'team', id: teams[0].id });
      return s.get('/v1/teams', teamKey.secret);
    },
    rate_limited: async () => {
      const { key } = await soloTeam(s);
      for (let i = 0; i < 3; i++) expect((await s.get('/v1/teams', key)).statusCode).toBe(200);
      return s.get('/v1/teams', key);
    },
    invalid_request: async () => {
      const { key } = await soloTeam(s);
      return s.get('/v1/guides?limit=0', key);
    },
    not_found: async () => {
      const { key } = await soloTeam(s);
      return s.get(`/v1/guides/${randomUuid()}`, key);
    },
    internal_error: async () => {
      // A fault injected after admission: reading the preview setting throws while the guide is rendered.
      const { team, key } = await soloTeam(s);
      const guide = await createGuide(s, team.id, { steps: [{ text: 'Step' }] });
      const settings = s.service.ctx.settings;
      const original = settings.previewSteps;
      Object.defineProperty(settings, 'previewSteps', {
        configurable: true,
        get() {
          throw new Error('injected fault at /work/main/src/secret-place.ts:12:34');
        },
      });
      try {
        return await s.get(`/v1/guides/${guide.id}`, key);
      } finally {
        Object.defineProperty(settings, 'previewSteps', { value: original, writable: true, configurable: true, enumerable: true });
      }
    },
    method_not_allowed: async () => {
      const { key } = await soloTeam(s);
      return s.request('POST', '/v1/guides', key);
    },
  };

  it.each([...SPEC_ERROR_CODES, 'method_not_allowed' as const])(
    '%s is answered as an RFC 9457 problem+json with type ${PUBLIC_URL}/docs#error-<code> (spec §7)',
    async (code) => {
      const response = await producers[code]();
      expectProblem(response, code);
      expectCommonHeaders(response);
      produced.set(code, response);
    },
  );

  it('a server fault answers internal_error without the cause (spec §7)', async () => {
    const response = produced.get('internal_error') ?? (await producers.internal_error());
    const body = expectProblem(response, 'internal_error');
    expect(response.body).not.toContain('injected fault');
    expect(response.body).not.toContain('secret-place');
    expect(body.detail).toMatch(/request_id/);
  });

  it('GET /docs documents every error code under the id error-<code> that problem types link to (decisions §4)', async () => {
    const docs = await s.service.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/^text\/html/);
    for (const code of [...SPEC_ERROR_CODES, 'method_not_allowed'] as const) {
      expect(docs.body, `entry for ${code}`).toMatch(new RegExp(`\\sid=["']error-${code}["']`));
      const section = docs.body.slice(docs.body.indexOf(`error-${code}`), docs.body.indexOf(`error-${code}`) + 400);
      expect(section, `entry for ${code} names its status`).toContain(String(STATUS[code]));
    }
  });
});

describe('invalid_key (spec §5.6, §7)', () => {
  let key: string;
  let keyId: string;
  beforeAll(async () => {
    const solo = await soloTeam(t);
    key = solo.key;
    keyId = solo.keyId;
  });

  it('a request without Authorization is refused with invalid_key (spec §5.6)', async () => {
    const body = expectProblem(await t.get('/v1/auth/verify', null), 'invalid_key');
    expect(body.detail).toMatch(/Bearer/);
  });

  it('a Basic authorization is refused with invalid_key (spec §5.1)', async () => {
    expectProblem(await t.get('/v1/auth/verify', null, { authorization: 'Basic xyz' }), 'invalid_key');
    const basicWithKey = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    expectProblem(await t.get('/v1/auth/verify', null, { authorization: basicWithKey }), 'invalid_key');
    expectProblem(await t.get('/v1/auth/verify', null, { authorization: key }), 'invalid_key');
  });

  it('a Bearer with nothing after it is refused with invalid_key (spec §5.6)', async () => {
    expectProblem(await t.get('/v1/auth/verify', null, { authorization: 'Bearer' }), 'invalid_key');
    expectProblem(await t.get('/v1/auth/verify', null, { authorization: 'Bearer ' }), 'invalid_key');
    expectProblem(await t.get('/v1/auth/verify', null, { authorization: 'Bearer    ' }), 'invalid_key');
  });

  it('a malformed key is refused with invalid_key (spec §5.6, decisions §2)', async () => {
    for (const malformed of ['gsk_short', 'not-a-key', key.slice(0, -1), `${key}x`, key.replace('gsk_', 'xsk_'), key.toUpperCase(), `${key} extra`]) {
      expectProblem(await t.get('/v1/auth/verify', malformed), 'invalid_key');
    }
  });

  it('a well-formed key with a wrong checksum is refused with invalid_key (decisions §2)', async () => {
    const last = key.at(-1)!;
    const tampered = key.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    expectProblem(await t.get('/v1/auth/verify', tampered), 'invalid_key');
    // The random part changed, the checksum kept: also refused.
    const first = key[4]!;
    const tamperedRandom = key.slice(0, 4) + (first === 'a' ? 'b' : 'a') + key.slice(5);
    expectProblem(await t.get('/v1/auth/verify', tamperedRandom), 'invalid_key');
  });

  it('an unknown well-formed key is refused with invalid_key (spec §5.6)', async () => {
    const body = expectProblem(await t.get('/v1/auth/verify', generateKeySecret()), 'invalid_key');
    expect(body.detail).not.toContain('gsk_');
  });

  it('a revoked key is refused with invalid_key (spec §5.6)', async () => {
    const { team } = await soloTeam(t);
    const revoked = await createKey(t, { type: 'team', id: team.id });
    expect((await t.get('/v1/auth/verify', revoked.secret)).statusCode).toBe(200);
    const deletion = await t.adminRaw('DELETE', `/api-keys/${revoked.id}`);
    expect(deletion.statusCode).toBe(204);
    for (const path of [...V1_PATHS_WITHOUT_GUIDE, `/v1/members?team_id=${team.id}`]) {
      expectProblem(await t.get(path, revoked.secret), 'invalid_key');
    }
    // Revocation is once: the key is gone from the list and a second revocation finds nothing.
    const list = await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`);
    expect(list.map((k: { id: string }) => k.id)).not.toContain(revoked.id);
    expect((await t.adminRaw('DELETE', `/api-keys/${revoked.id}`)).statusCode).toBe(404);
  });

  it('an unknown, a revoked and a tampered key get the same answer, so none reveals more (spec §5.6)', async () => {
    const { team } = await soloTeam(t);
    const revoked = await createKey(t, { type: 'team', id: team.id });
    await t.admin('DELETE', `/api-keys/${revoked.id}`);
    const details = new Set<string>();
    for (const secret of [generateKeySecret(), revoked.secret, key.slice(0, -1) + (key.at(-1) === 'a' ? 'b' : 'a'), 'gsk_short']) {
      details.add(expectProblem(await t.get('/v1/auth/verify', secret), 'invalid_key').detail);
    }
    expect(details.size).toBe(1);
  });

  it('the bearer scheme name is case-insensitive and the working key is admitted (spec §5.1)', async () => {
    expect((await t.get('/v1/auth/verify', null, { authorization: `bearer ${key}` })).statusCode).toBe(200);
    expect((await t.get('/v1/auth/verify', null, { authorization: `BEARER ${key}` })).statusCode).toBe(200);
    expect((await t.get('/v1/auth/verify', key)).json().data.id).toBe(keyId);
  });
});

describe('key_expired (spec §5.6, decisions §2)', () => {
  it('a key with expires_in_days 1 works until its expiry and is refused with key_expired 1 day + 1 ms after creation', async () => {
    const { team } = await soloTeam(t);
    const created = await t.adminRaw('POST', '/api-keys', {
      home: { type: 'team', id: team.id },
      name: 'one day',
      scopes: ['teams:read'],
      expires_in_days: 1,
    });
    expect(created.statusCode).toBe(201);
    const { data, secret } = created.json();
    const createdAt = Date.parse(data.created_at);
    expect(Date.parse(data.expires_at) - createdAt).toBe(DAY_MS);

    // One second before the expiry (the test clock also follows real time, so not to the millisecond).
    t.clock.advance(DAY_MS - 1000);
    const before = await t.get('/v1/teams', secret);
    expect(before.statusCode).toBe(200);
    expect((await t.get('/v1/auth/verify', secret)).json().data.expires_at).toBe(data.expires_at);

    t.clock.advance(1000 + 1); // 1 day + 1 ms after creation in all
    for (const path of ['/v1/auth/verify', '/v1/teams', '/v1/guides']) {
      const body = expectProblem(await t.get(path, secret), 'key_expired');
      expect(body.detail.length).toBeGreaterThan(0);
    }
  });

  it('a key without expiry (expires_in_days null) never expires (decisions §2)', async () => {
    const { key } = await soloTeam(t);
    t.clock.advance(400 * DAY_MS);
    const verify = await t.get('/v1/auth/verify', key);
    expect(verify.statusCode).toBe(200);
    expect(verify.json().data.expires_at).toBeNull();
  });
});

describe('organization policy: api_disabled and team_keys_disabled (spec §5.6)', () => {
  it('api_disabled refuses the organization key and the team keys of its teams, on every endpoint', async () => {
    const { organization, teams, key: orgKey } = await organizationWithTeams(t, 'growth', 2);
    const teamKey = (await createKey(t, { type: 'team', id: teams[1].id })).secret;
    expect((await t.get('/v1/teams', orgKey)).statusCode).toBe(200);
    expect((await t.get('/v1/teams', teamKey)).statusCode).toBe(200);

    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
    for (const secret of [orgKey, teamKey]) {
      for (const path of [...V1_PATHS_WITHOUT_GUIDE.filter((p) => p !== '/v1/members'), `/v1/members?team_id=${teams[1].id}`]) {
        expectProblem(await t.get(path, secret), 'api_disabled');
      }
    }

    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: true });
    expect((await t.get('/v1/teams', orgKey)).statusCode).toBe(200);
    expect((await t.get('/v1/teams', teamKey)).statusCode).toBe(200);
  });

  it('team_keys_disabled refuses team keys of the organization but not its organization key', async () => {
    const { organization, teams, key: orgKey } = await organizationWithTeams(t, 'growth', 2);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    await t.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: true });

    for (const path of V1_PATHS_WITHOUT_GUIDE.filter((p) => p !== '/v1/members')) {
      expectProblem(await t.get(path, teamKey), 'team_keys_disabled');
    }
    expectProblem(await t.get(`/v1/members?team_id=${teams[0].id}`, teamKey), 'team_keys_disabled');
    expect((await t.get('/v1/teams', orgKey)).statusCode).toBe(200);
    expect((await t.get('/v1/auth/verify', orgKey)).statusCode).toBe(200);
    expect((await t.get(`/v1/members?team_id=${teams[0].id}`, orgKey)).statusCode).toBe(200);

    await t.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: false });
    expect((await t.get('/v1/teams', teamKey)).statusCode).toBe(200);
  });

  it('api_disabled is checked before team_keys_disabled (decisions §4)', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false, org_keys_only: true });
    expectProblem(await t.get('/v1/teams', teamKey), 'api_disabled');
  });

  it('a team without organization is never refused by policy, including a team that left its organization', async () => {
    const { key } = await soloTeam(t);
    expect((await t.get('/v1/teams', key)).statusCode).toBe(200);

    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false, org_keys_only: true });
    expectProblem(await t.get('/v1/teams', teamKey), 'api_disabled');
    await t.admin('PATCH', `/teams/${teams[0].id}`, { organization_id: null });
    expect((await t.get('/v1/teams', teamKey)).statusCode).toBe(200);
    expect((await t.get('/v1/auth/verify', teamKey)).statusCode).toBe(200);
  });
});

describe('scope_missing (spec §4.6, decisions §4)', () => {
  const without = (scope: Scope): Scope[] => (['guides:read', 'teams:read', 'members:read'] as Scope[]).filter((s) => s !== scope);

  it('a key without guides:read is refused on /guides and /guides/{guideId} with a detail naming guides:read', async () => {
    const { team, key } = await soloTeam(t, 'free', without('guides:read'));
    const guide = await createGuide(t, team.id);
    for (const path of ['/v1/guides', `/v1/guides?team_id=${team.id}`, `/v1/guides/${guide.id}`, `/v1/guides/${guide.permalink}`]) {
      const body = expectProblem(await t.get(path, key), 'scope_missing');
      expect(body.detail).toContain('guides:read');
    }
    expect((await t.get('/v1/teams', key)).statusCode).toBe(200);
    expect((await t.get(`/v1/members?team_id=${team.id}`, key)).statusCode).toBe(200);
  });

  it('a key without teams:read is refused on /teams with a detail naming teams:read', async () => {
    const { team, key } = await soloTeam(t, 'free', without('teams:read'));
    const body = expectProblem(await t.get('/v1/teams', key), 'scope_missing');
    expect(body.detail).toContain('teams:read');
    expect((await t.get('/v1/guides', key)).statusCode).toBe(200);
    expect((await t.get(`/v1/members?team_id=${team.id}`, key)).statusCode).toBe(200);
  });

  it('a key without members:read is refused on /members with a detail naming members:read', async () => {
    const { team, key } = await soloTeam(t, 'free', without('members:read'));
    const body = expectProblem(await t.get(`/v1/members?team_id=${team.id}`, key), 'scope_missing');
    expect(body.detail).toContain('members:read');
    expect((await t.get('/v1/guides', key)).statusCode).toBe(200);
    expect((await t.get('/v1/teams', key)).statusCode).toBe(200);
  });

  it('/auth/verify needs no scope: a key with any single scope is verified', async () => {
    for (const scope of ['guides:read', 'teams:read', 'members:read'] as Scope[]) {
      const { key } = await soloTeam(t, 'free', [scope]);
      const verify = await t.get('/v1/auth/verify', key);
      expect(verify.statusCode).toBe(200);
      expect(verify.json().data.scopes).toEqual([scope]);
    }
  });

  it('an organization key carries only its scopes too (spec §5.5)', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const orgKey = await createKey(t, { type: 'organization', id: organization.id }, { scopes: ['teams:read'] });
    expect((await t.get('/v1/teams', orgKey.secret)).statusCode).toBe(200);
    expectProblem(await t.get('/v1/guides', orgKey.secret), 'scope_missing');
    expectProblem(await t.get(`/v1/members?team_id=${teams[0].id}`, orgKey.secret), 'scope_missing');
  });
});

describe('order of the checks: key · rate limit · policy · scope · parameters · existence (decisions §4)', () => {
  it('a missing or unknown key with bad parameters gets 401 invalid_key', async () => {
    expectProblem(await t.get('/v1/guides?limit=0&bogus=1', null), 'invalid_key');
    expectProblem(await t.get('/v1/members', generateKeySecret()), 'invalid_key');
    expectProblem(await t.get(`/v1/guides/${randomUuid()}?x=1`, generateKeySecret()), 'invalid_key');
  });

  it('an expired key with bad parameters gets 401 key_expired', async () => {
    const { team } = await soloTeam(t);
    const expiring = await createKey(t, { type: 'team', id: team.id }, { expires_in_days: 1 });
    t.clock.advance(DAY_MS + 1);
    expectProblem(await t.get('/v1/guides?limit=0&bogus=1', expiring.secret), 'key_expired');
    expectProblem(await t.get('/v1/members?team_id=nope', expiring.secret), 'key_expired');
    expectProblem(await t.get(`/v1/guides/${randomUuid()}`, expiring.secret), 'key_expired');
  });

  it('an unknown path is 404 not_found for a working key, and the key is still checked first (401 without one)', async () => {
    const { key } = await soloTeam(t);
    expectProblem(await t.get('/v1/nope', key), 'not_found');
    expectProblem(await t.get('/v1/guides/x/y', key), 'not_found');
    // Sent directly: the harness's conformance check only expects 404 or 405 on undocumented paths.
    const withoutKey = await t.service.app.inject({ method: 'GET', url: '/v1/nope' });
    expectProblem(withoutKey, 'invalid_key');
    expectCommonHeaders(withoutKey);
  });

  it('api_disabled beats scope_missing and bad parameters', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const narrowKey = await createKey(t, { type: 'organization', id: organization.id }, { scopes: ['teams:read'] });
    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
    expectProblem(await t.get('/v1/guides', narrowKey.secret), 'api_disabled');
    expectProblem(await t.get('/v1/guides?limit=0', narrowKey.secret), 'api_disabled');
    expectProblem(await t.get('/v1/members', narrowKey.secret), 'api_disabled');
    expectProblem(await t.get(`/v1/members?team_id=${teams[0].id}&x=1`, narrowKey.secret), 'api_disabled');
  });

  it('team_keys_disabled beats scope_missing and bad parameters', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const narrowTeamKey = await createKey(t, { type: 'team', id: teams[0].id }, { scopes: ['teams:read'] });
    await t.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: true });
    expectProblem(await t.get('/v1/guides?limit=0', narrowTeamKey.secret), 'team_keys_disabled');
    expectProblem(await t.get('/v1/members', narrowTeamKey.secret), 'team_keys_disabled');
  });

  it('a key lacking a scope with bad parameters gets 403 scope_missing', async () => {
    const { team, key } = await soloTeam(t, 'free', ['teams:read']);
    expectProblem(await t.get('/v1/guides?limit=0', key), 'scope_missing');
    expectProblem(await t.get('/v1/guides?unknown=1&q=a', key), 'scope_missing');
    expectProblem(await t.get('/v1/members', key), 'scope_missing');
    expectProblem(await t.get(`/v1/members?team_id=${team.id}&team_id=${team.id}`, key), 'scope_missing');
  });

  it('a key lacking a scope gets 403 scope_missing before existence is looked at', async () => {
    const { key } = await soloTeam(t, 'free', ['teams:read']);
    expectProblem(await t.get(`/v1/guides/${randomUuid()}`, key), 'scope_missing');
    expectProblem(await t.get(`/v1/members?team_id=${randomUuid()}`, key), 'scope_missing');
  });

  it('bad parameters with an unreachable team_id get 400, not 404', async () => {
    const { key } = await soloTeam(t);
    const other = await soloTeam(t);
    const unreachable = other.team.id;
    const members = expectProblem(await t.get(`/v1/members?team_id=${unreachable}&x=1`, key), 'invalid_request');
    expect(members.detail).toContain("'x'");
    const guides = expectProblem(await t.get(`/v1/guides?team_id=${unreachable}&limit=0`, key), 'invalid_request');
    expect(guides.detail).toContain('limit');
    // With good parameters the same team is 404.
    expectProblem(await t.get(`/v1/members?team_id=${unreachable}`, key), 'not_found');
    expectProblem(await t.get(`/v1/guides?team_id=${unreachable}`, key), 'not_found');
  });
});

describe('rate limit (spec §8, decisions §4)', () => {
  let r: TestService;
  beforeAll(async () => {
    r = await startTestService({ RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => r.close());

  function rateState(response: LightMyRequestResponse) {
    const h = response.headers;
    const remaining = Number(h['ratelimit-remaining']);
    const reset = Number(h['ratelimit-reset']);
    expect(h['ratelimit-limit']).toBe('5');
    expect(String(h['ratelimit-remaining'])).toMatch(/^\d+$/);
    expect(String(h['ratelimit-reset'])).toMatch(/^\d+$/);
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    expect(h['ratelimit-policy']).toBe('"default";q=5;w=60');
    expect(h['ratelimit']).toBe(`"default";r=${remaining};t=${reset}`);
    return { remaining, reset };
  }

  it('the 6th request of a key in a 60-second window gets 429 rate_limited with Retry-After, and the headers count down', async () => {
    const { team, key } = await soloTeam(r);
    const paths = ['/v1/teams', '/v1/guides', '/v1/auth/verify', `/v1/members?team_id=${team.id}`, '/v1/teams'];
    const remaining: number[] = [];
    for (const path of paths) {
      const response = await r.get(path, key);
      expect(response.statusCode).toBe(200);
      remaining.push(rateState(response).remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const refused = await r.get('/v1/guides', key);
    const body = expectProblem(refused, 'rate_limited');
    expect(body.detail.length).toBeGreaterThan(0);
    const state = rateState(refused);
    expect(state.remaining).toBe(0);
    const retryAfter = String(refused.headers['retry-after']);
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    // Still refused on every endpoint while the window lasts.
    for (const path of V1_PATHS_WITHOUT_GUIDE) expectProblem(await r.get(path, key), 'rate_limited');
  });

  it('the limit of one key leaves other keys of the same team and organization unaffected', async () => {
    const { organization, teams, key: orgKey } = await organizationWithTeams(r, 'growth', 1);
    const teamKey = (await createKey(r, { type: 'team', id: teams[0].id })).secret;
    for (let i = 0; i < 5; i++) expect((await r.get('/v1/teams', orgKey)).statusCode).toBe(200);
    expectProblem(await r.get('/v1/teams', orgKey), 'rate_limited');

    const other = await r.get('/v1/teams', teamKey);
    expect(other.statusCode).toBe(200);
    expect(rateState(other).remaining).toBe(4);
    const secondOrgKey = (await createKey(r, { type: 'organization', id: organization.id })).secret;
    const third = await r.get('/v1/teams', secondOrgKey);
    expect(third.statusCode).toBe(200);
    expect(rateState(third).remaining).toBe(4);
  });

  it('the rate limit is checked before policy, scope and parameters (decisions §4)', async () => {
    const { organization, teams } = await organizationWithTeams(r, 'growth', 1);
    const narrow = await createKey(r, { type: 'organization', id: organization.id }, { scopes: ['teams:read'] });
    // Refusals by scope and parameters count against the key too.
    for (let i = 0; i < 3; i++) expectProblem(await r.get('/v1/guides', narrow.secret), 'scope_missing');
    expectProblem(await r.get('/v1/teams?x=1', narrow.secret), 'invalid_request');
    expectProblem(await r.get(`/v1/members?team_id=${teams[0].id}`, narrow.secret), 'scope_missing');
    expectProblem(await r.get('/v1/guides?limit=0', narrow.secret), 'rate_limited');
    expectProblem(await r.get('/v1/teams?x=1', narrow.secret), 'rate_limited');
    await r.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
    expectProblem(await r.get('/v1/teams', narrow.secret), 'rate_limited');
  });

  it('the default limit is 600 requests per 60 seconds (spec §8)', async () => {
    const { key } = await soloTeam(t);
    const response = await t.get('/v1/teams', key);
    expect(response.headers['ratelimit-limit']).toBe('600');
    expect(response.headers['ratelimit-remaining']).toBe('599');
    expect(response.headers['ratelimit-policy']).toBe('"default";q=600;w=60');
    expect(String(response.headers['ratelimit'])).toMatch(/^"default";r=599;t=\d+$/);
  });
});

describe('401 answers are counted per client address (decisions §4)', () => {
  let r: TestService;
  let key: string;
  beforeAll(async () => {
    r = await startTestService({ RATE_LIMIT_PER_MINUTE: '5' });
    key = (await soloTeam(r)).key;
  });
  afterAll(() => r.close());

  it("401 answers carry the address's rate headers, and after the limit the address gets 429 even with a bad key", async () => {
    const address = '10.0.0.9';
    const badKeys = [null, generateKeySecret(), 'gsk_nonsense', generateKeySecret(), 'Basic'];
    const remaining: string[] = [];
    for (const bad of badKeys) {
      const response = await fromAddress(r, address, '/v1/teams', bad === 'Basic' ? null : bad, bad === 'Basic' ? { authorization: 'Basic xyz' } : {});
      expectProblem(response, 'invalid_key');
      expect(response.headers['ratelimit-limit']).toBe('5');
      expect(response.headers['ratelimit-policy']).toBe('"default";q=5;w=60');
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);

    for (const bad of [generateKeySecret(), null]) {
      const refused = await fromAddress(r, address, '/v1/guides', bad);
      expectProblem(refused, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
    }
    // X-Forwarded-For from an untrusted client does not give it a fresh address.
    expectProblem(await fromAddress(r, address, '/v1/teams', generateKeySecret(), { 'x-forwarded-for': '203.0.113.7' }), 'rate_limited');
  });

  it('a good key from a limited address still works, on its own count', async () => {
    const address = '10.0.0.9';
    expectProblem(await fromAddress(r, address, '/v1/teams', generateKeySecret()), 'rate_limited');
    const good = await fromAddress(r, address, '/v1/teams', key);
    expect(good.statusCode).toBe(200);
    expect(good.headers['ratelimit-remaining']).toBe('4');
  });

  it('other addresses are not affected and successful requests do not count against the address', async () => {
    const other = await fromAddress(r, '10.0.0.10', '/v1/teams', generateKeySecret());
    expectProblem(other, 'invalid_key');
    expect(other.headers['ratelimit-remaining']).toBe('4');

    const { key: fresh } = await soloTeam(r);
    for (let i = 0; i < 3; i++) expect((await fromAddress(r, '10.0.0.11', '/v1/teams', fresh)).statusCode).toBe(200);
    const firstRefusal = await fromAddress(r, '10.0.0.11', '/v1/teams', null);
    expectProblem(firstRefusal, 'invalid_key');
    expect(firstRefusal.headers['ratelimit-remaining']).toBe('4');
  });

  it('an expired key is a 401 counted against the address as well', async () => {
    const { team } = await soloTeam(r);
    const expiring = await createKey(r, { type: 'team', id: team.id }, { expires_in_days: 1 });
    r.clock.advance(DAY_MS + 1);
    const first = await fromAddress(r, '10.0.0.12', '/v1/teams', expiring.secret);
    expectProblem(first, 'key_expired');
    expect(first.headers['ratelimit-remaining']).toBe('4');
    const second = await fromAddress(r, '10.0.0.12', '/v1/teams', generateKeySecret());
    expect(second.headers['ratelimit-remaining']).toBe('3');
  });
});

describe('headers on every response (spec §4, decisions §4)', () => {
  let teamId: string;
  let key: string;
  let guideId: string;
  beforeAll(async () => {
    const solo = await soloTeam(t);
    teamId = solo.team.id;
    key = solo.key;
    guideId = (await createGuide(t, teamId, { steps: [{ text: 'One' }] })).id;
  });

  it('200 answers of every endpoint carry X-Request-Id, RateLimit-Limit and RateLimit-Remaining', async () => {
    for (const path of ['/v1/auth/verify', '/v1/guides', `/v1/guides/${guideId}`, '/v1/teams', `/v1/members?team_id=${teamId}`]) {
      const response = await t.get(path, key);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expectCommonHeaders(response);
    }
  });

  it('400, 401, 403 and 404 answers carry the same headers', async () => {
    const narrow = (await createKey(t, { type: 'team', id: teamId }, { scopes: ['teams:read'] })).secret;
    const cases: [string, string | null, keyof typeof STATUS][] = [
      ['/v1/guides?limit=0', key, 'invalid_request'],
      ['/v1/members', key, 'invalid_request'],
      ['/v1/teams', null, 'invalid_key'],
      ['/v1/teams', generateKeySecret(), 'invalid_key'],
      ['/v1/guides', narrow, 'scope_missing'],
      ['/v1/nope', key, 'not_found'],
      ['/v1/guides/nothing-here', key, 'not_found'],
      [`/v1/guides/${randomUuid()}`, key, 'not_found'],
      [`/v1/members?team_id=${randomUuid()}`, key, 'not_found'],
    ];
    for (const [path, secret, code] of cases) {
      const response = await t.get(path, secret);
      expectProblem(response, code);
      expectCommonHeaders(response);
    }
  });

  it('other methods on every v1 path answer 405 method_not_allowed with Allow: GET, HEAD and the same headers', async () => {
    for (const path of [...V1_PATHS_WITHOUT_GUIDE, `/v1/guides/${guideId}`, '/v1/openapi.json']) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const response = await t.request(method, path, key);
        expectProblem(response, 'method_not_allowed');
        expect(response.headers['allow'], `${method} ${path}`).toBe('GET, HEAD');
        expectCommonHeaders(response);
      }
    }
    // Nothing was changed by them.
    expect((await t.get(`/v1/guides/${guideId}`, key)).statusCode).toBe(200);
  });

  it('HEAD on every endpoint answers with the headers and no body', async () => {
    for (const path of ['/v1/auth/verify', '/v1/guides', `/v1/guides/${guideId}`, '/v1/teams', `/v1/members?team_id=${teamId}`]) {
      const response = await t.request('HEAD', path, key);
      expect(response.statusCode, path).toBe(200);
      expect(response.body, path).toBe('');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expectCommonHeaders(response);
    }
    for (const [path, secret, status] of [
      ['/v1/teams', null, 401],
      [`/v1/guides/${randomUuid()}`, key, 404],
      ['/v1/members', key, 400],
    ] as const) {
      const response = await t.request('HEAD', path, secret);
      expect(response.statusCode, path).toBe(status);
      expect(response.body, path).toBe('');
      expectCommonHeaders(response);
    }
  });

  it('429 answers carry the same headers and Retry-After', async () => {
    const r = await startTestService({ RATE_LIMIT_PER_MINUTE: '1' });
    try {
      const { key: limited } = await soloTeam(r);
      expect((await r.get('/v1/teams', limited)).statusCode).toBe(200);
      const refused = await r.get('/v1/teams', limited);
      expectProblem(refused, 'rate_limited');
      expectCommonHeaders(refused);
      expect(String(refused.headers['retry-after'])).toMatch(/^[1-9]\d*$/);
      const head = await r.request('HEAD', '/v1/teams', limited);
      expect(head.statusCode).toBe(429);
      expect(head.body).toBe('');
      expectCommonHeaders(head);
      expect(String(head.headers['retry-after'])).toMatch(/^[1-9]\d*$/);
    } finally {
      await r.close();
    }
  });
});

describe('X-Request-Id (decisions §4)', () => {
  let key: string;
  beforeAll(async () => {
    key = (await soloTeam(t)).key;
  });

  it('a valid incoming X-Request-Id (1–128 of [A-Za-z0-9._-]) is echoed and equals the problem body request_id', async () => {
    for (const id of ['a', 'abc-123', 'Req.42_x-Y', '0', 'x'.repeat(128), `${'A'.repeat(64)}.${'z'.repeat(63)}`]) {
      const ok = await t.get('/v1/teams', key, { 'x-request-id': id });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['x-request-id']).toBe(id);
      const refused = await t.get('/v1/teams', null, { 'x-request-id': id });
      expect(expectProblem(refused, 'invalid_key').request_id).toBe(id);
      expect(refused.headers['x-request-id']).toBe(id);
    }
  });

  it('an invalid incoming X-Request-Id (129 characters, spaces, non-ASCII, empty, other punctuation) is replaced with a new id', async () => {
    const seen = new Set<string>();
    for (const id of ['x'.repeat(129), 'has space', ' lead', 'café', 'ü', '', 'a/b', 'a,b', 'a;b', '<script>']) {
      const refused = await t.get('/v1/teams', null, { 'x-request-id': id });
      const body = expectProblem(refused, 'invalid_key');
      const given = String(refused.headers['x-request-id']);
      expect(given).not.toBe(id);
      expect(given).toMatch(REQUEST_ID);
      expect(body.request_id).toBe(given);
      seen.add(given);
      const ok = await t.get('/v1/teams', key, { 'x-request-id': id });
      expect(ok.headers['x-request-id']).not.toBe(id);
      expect(String(ok.headers['x-request-id'])).toMatch(REQUEST_ID);
      seen.add(String(ok.headers['x-request-id']));
    }
    expect(seen.size).toBe(20);
  });

  it('without X-Request-Id every answer gets a fresh id', async () => {
    const first = await t.get('/v1/teams', key);
    const second = await t.get('/v1/teams', key);
    expect(String(first.headers['x-request-id'])).toMatch(REQUEST_ID);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });
});

describe('key records: last_used_at and secrets (decisions §2, §7)', () => {
  it('last_used_at is null after creation and set after the key is used', async () => {
    const { team } = await soloTeam(t);
    const created = await createKey(t, { type: 'team', id: team.id }, { name: 'usage' });
    const listed = async () =>
      (await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`)).find((k: { id: string }) => k.id === created.id);
    expect((await listed()).last_used_at).toBeNull();

    // A refused request is no use of the key.
    const narrow = await createKey(t, { type: 'team', id: team.id }, { scopes: ['teams:read'] });
    expectProblem(await t.get('/v1/guides', narrow.secret), 'scope_missing');

    const before = t.clock.now().getTime();
    expect((await t.get('/v1/teams', created.secret)).statusCode).toBe(200);
    let usedAt: string | null = null;
    for (let i = 0; i < 50 && usedAt === null; i++) {
      usedAt = (await listed()).last_used_at;
      if (usedAt === null) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(usedAt).not.toBeNull();
    expect(usedAt!).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(usedAt!)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(usedAt!)).toBeLessThanOrEqual(t.clock.now().getTime());
    const narrowRow = (await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`)).find((k: { id: string }) => k.id === narrow.id);
    expect(narrowRow.last_used_at).toBeNull();
  });

  it('the creation answer is the only place the secret appears: it works at once, and neither the list, /auth/verify nor the stored row holds it', async () => {
    const { organization } = await organizationWithTeams(t, 'growth', 1);
    const creation = await t.adminRaw('POST', '/api-keys', {
      home: { type: 'organization', id: organization.id },
      name: 'shown once',
      scopes: ['teams:read'],
      expires_in_days: 30,
    });
    expect(creation.statusCode).toBe(201);
    const { data, secret } = creation.json();
    expect(secret).toMatch(/^gsk_[0-9A-Za-z]{38}$/);
    expect(JSON.stringify(data)).not.toContain(secret);

    const verify = await t.get('/v1/auth/verify', secret);
    expect(verify.statusCode).toBe(200);
    expect(verify.body).not.toContain(secret);

    const list = await t.adminRaw('GET', `/api-keys?home_type=organization&home_id=${organization.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain(secret.slice(4));
    for (const entry of list.json().data) {
      expect(entry).not.toHaveProperty('secret');
      expect(entry).not.toHaveProperty('secret_hash');
      expect(Object.keys(entry).sort()).toEqual(['created_at', 'expires_at', 'home', 'id', 'last_used_at', 'name', 'scopes', 'secret_hint']);
      expect(entry.secret_hint.length).toBeLessThan(secret.length / 2);
    }

    // The single read-only look at the store: only a hash of the key is kept.
    const row = await t.service.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(4, 36));
    expect(Object.values(row)).toContain(hashKeySecret(secret));
  });
});

describe('GET /auth/verify (spec §2.1, §4.1)', () => {
  it('answers exactly { id, name, home, scopes, expires_at } for a team key', async () => {
    const { team } = await soloTeam(t);
    const creation = await t.adminRaw('POST', '/api-keys', {
      home: { type: 'team', id: team.id },
      name: 'Team reader',
      scopes: ['teams:read', 'guides:read'],
      expires_in_days: 30,
    });
    const { data, secret } = creation.json();
    const verify = await t.get('/v1/auth/verify', secret);
    expect(verify.statusCode).toBe(200);
    const body = verify.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(Object.keys(body.data).sort()).toEqual(['expires_at', 'home', 'id', 'name', 'scopes']);
    expect(body.data).toEqual({
      id: data.id,
      name: 'Team reader',
      home: { type: 'team', id: team.id },
      scopes: expect.arrayContaining(['guides:read', 'teams:read']),
      expires_at: data.expires_at,
    });
    expect(body.data.scopes).toHaveLength(2);
    expect(body.data.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('answers exactly { id, name, home, scopes, expires_at } for an organization key', async () => {
    const { organization, keyId, key } = await organizationWithTeams(t, 'growth', 1);
    const verify = await t.get('/v1/auth/verify', key);
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({
      data: {
        id: keyId,
        name: 'test key',
        home: { type: 'organization', id: organization.id },
        scopes: ['guides:read', 'teams:read', 'members:read'],
        expires_at: null,
      },
    });
  });
});

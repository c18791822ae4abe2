// API keys through the management API (decisions §7, §2; spec §2.1, §5).
import { describe, expect, it } from 'vitest';
import {
  ALL_SCOPES,
  createKey,
  soloTeam,
  useTestService,
} from '../../support/service.js';
import { expectInvalid, expectNotFound, expectProblem, LOWER_UUID, RFC3339_MS, UNKNOWN_ID } from './helpers.js';

const t = useTestService();

const ADMIN_KEY_KEYS = ['created_at', 'expires_at', 'home', 'id', 'last_used_at', 'name', 'scopes', 'secret_hint'];
const DAY_MS = 86_400_000;

const newTeam = () => t.admin('POST', '/teams', { name: `Team ${Math.random()}`, plan: 'growth' });
const newOrganization = () => t.admin('POST', '/organizations', { name: `Org ${Math.random()}`, plan: 'growth' });

function keyBody(home: { type: string; id: string }, fields: Record<string, unknown> = {}) {
  return { home, name: 'CI key', scopes: ['guides:read'], expires_in_days: null, ...fields };
}

/** Waits for the key's last use to be recorded (it is written after the answer). */
async function lastUsedAt(home: { type: string; id: string }, keyId: string): Promise<string | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const keys = await t.admin('GET', `/api-keys?home_type=${home.type}&home_id=${home.id}`);
    const key = keys.find((row: any) => row.id === keyId);
    if (key?.last_used_at) return key.last_used_at;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}

describe('POST /api-keys', () => {
  it('answers 201 { data: Key, secret }: the key and its full secret', async () => {
    const team = await newTeam();
    const response = await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: team.id }, { scopes: ALL_SCOPES }));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'secret']);
    expect(Object.keys(body.data).sort()).toEqual(ADMIN_KEY_KEYS);
    expect(body.data).toMatchObject({
      name: 'CI key',
      home: { type: 'team', id: team.id },
      expires_at: null,
      last_used_at: null,
    });
    expect([...body.data.scopes].sort()).toEqual([...ALL_SCOPES].sort());
    expect(body.data.id).toMatch(LOWER_UUID);
    expect(body.data.created_at).toMatch(RFC3339_MS);
    expect(typeof body.secret).toBe('string');
    expect(body.secret.startsWith(body.data.secret_hint)).toBe(true);
    expect(body.data.secret_hint.length).toBeLessThan(body.secret.length / 2);
  });

  it('the secret works on GET /v1/auth/verify, which answers the same key (spec §2.1)', async () => {
    const team = await newTeam();
    const { data, secret } = (await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: team.id }, { scopes: ['teams:read', 'guides:read'] }))).json();
    const verify = await t.get('/v1/auth/verify', secret);
    expect(verify.statusCode).toBe(200);
    expect(verify.json().data).toEqual({ id: data.id, name: data.name, home: data.home, scopes: data.scopes, expires_at: data.expires_at });
  });

  it('a key carries only the scopes it was created with (spec §5 rule 5)', async () => {
    const team = await newTeam();
    const key = await createKey(t, { type: 'team', id: team.id }, { scopes: ['teams:read'] });
    expect((await t.get('/v1/teams', key.secret)).statusCode).toBe(200);
    expectProblem(await t.get('/v1/guides', key.secret), 403, 'scope_missing');
    expectProblem(await t.get(`/v1/members?team_id=${team.id}`, key.secret), 403, 'scope_missing');
  });

  it('creates a key for an organization', async () => {
    const organization = await newOrganization();
    const team = await t.admin('POST', '/teams', { name: 'In org', organization_id: organization.id });
    const { data, secret } = (await t.adminRaw('POST', '/api-keys', keyBody({ type: 'organization', id: organization.id }, { scopes: ['teams:read'] }))).json();
    expect(data.home).toEqual({ type: 'organization', id: organization.id });
    expect((await t.get('/v1/teams', secret)).json().data.map((row: any) => row.id)).toEqual([team.id]);
  });

  it('expires_in_days sets expires_at that many days after creation; the key is then key_expired (decisions §2)', async () => {
    const team = await newTeam();
    for (const days of [1, 30, 365]) {
      const { data } = (await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: team.id }, { expires_in_days: days }))).json();
      expect(data.expires_at).toMatch(RFC3339_MS);
      expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(days * DAY_MS);
    }
    const { secret } = (await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: team.id }, { expires_in_days: 1 }))).json();
    expect((await t.get('/v1/auth/verify', secret)).statusCode).toBe(200);
    t.clock.advance(DAY_MS + 1000);
    expectProblem(await t.get('/v1/auth/verify', secret), 401, 'key_expired');
  });

  it('every key has its own secret', async () => {
    const team = await newTeam();
    const secrets = new Set<string>();
    for (let i = 0; i < 10; i++) secrets.add((await createKey(t, { type: 'team', id: team.id })).secret);
    expect(secrets.size).toBe(10);
  });

  it('takes the home id in any letter case and answers it lowercase', async () => {
    const team = await newTeam();
    const { data } = (await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: team.id.toUpperCase() }))).json();
    expect(data.home.id).toBe(team.id);
  });

  it('a home that does not exist is 404 not_found, for a team and for an organization', async () => {
    expectNotFound(await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: UNKNOWN_ID })));
    expectNotFound(await t.adminRaw('POST', '/api-keys', keyBody({ type: 'organization', id: UNKNOWN_ID })));
    // A team's id is no organization's id, and the other way round.
    const team = await newTeam();
    const organization = await newOrganization();
    expectNotFound(await t.adminRaw('POST', '/api-keys', keyBody({ type: 'organization', id: team.id })));
    expectNotFound(await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: organization.id })));
  });
});

describe('POST /api-keys validation: 400 invalid_request naming the field', () => {
  it('refuses expires_in_days of 0, 366, 1.5, -1, missing or not a number (decisions §2: an integer from 1 to 365, or null)', async () => {
    const team = await newTeam();
    const home = { type: 'team', id: team.id };
    for (const expires_in_days of [0, 366, 1.5, -1, 1000, 'never', [30], {}]) {
      expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody(home, { expires_in_days })), 'expires_in_days');
    }
    const { expires_in_days: _omitted, ...withoutExpiry } = keyBody(home);
    expectInvalid(await t.adminRaw('POST', '/api-keys', withoutExpiry), 'expires_in_days');
  });

  it('never coerces expires_in_days from a string or a boolean', async () => {
    const team = await newTeam();
    const home = { type: 'team', id: team.id };
    expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody(home, { expires_in_days: '30' })), 'expires_in_days');
    expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody(home, { expires_in_days: true })), 'expires_in_days');
  });

  it('refuses scopes that are empty, unknown, duplicated, missing or not a list', async () => {
    const team = await newTeam();
    const home = { type: 'team', id: team.id };
    for (const scopes of [
      [],
      ['guides:write'],
      ['admin'],
      ['GUIDES:READ'],
      ['guides:read', 'guides:read'],
      ['guides:read', 'teams:read', 'members:read', 'guides:read'],
      'guides:read',
      [null],
      null,
    ]) {
      expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody(home, { scopes })), 'scopes');
    }
    const { scopes: _omitted, ...withoutScopes } = keyBody(home);
    expectInvalid(await t.adminRaw('POST', '/api-keys', withoutScopes), 'scopes');
  });

  it('refuses a missing, empty or too long name', async () => {
    const team = await newTeam();
    const home = { type: 'team', id: team.id };
    expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody(home, { name: '' })), 'name');
    expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody(home, { name: 'x'.repeat(201) })), 'name');
    expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody(home, { name: null })), 'name');
    const { name: _omitted, ...withoutName } = keyBody(home);
    expectInvalid(await t.adminRaw('POST', '/api-keys', withoutName), 'name');
    expect((await t.admin('POST', '/api-keys', keyBody(home, { name: 'n'.repeat(200) }))).name).toBe('n'.repeat(200));
  });

  it('refuses a missing or malformed home, naming home', async () => {
    const team = await newTeam();
    const { home: _omitted, ...withoutHome } = keyBody({ type: 'team', id: team.id });
    expectInvalid(await t.adminRaw('POST', '/api-keys', withoutHome), 'home');
    for (const home of [
      { type: 'user', id: team.id },
      { type: 'Team', id: team.id },
      { type: 'team', id: 'my-team' },
      { type: 'team' },
      { id: team.id },
      { type: 'team', id: team.id, name: 'extra' },
      team.id,
      null,
    ]) {
      expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody(home as any)), 'home');
    }
  });

  it('refuses an unknown field, such as a secret chosen by the caller', async () => {
    const team = await newTeam();
    expectInvalid(await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: team.id }, { secret: 'gsk_mine' })), 'secret');
  });
});

describe('GET /api-keys?home_type&home_id', () => {
  it('lists the keys of that home, newest first, without secrets', async () => {
    const team = await newTeam();
    const other = await newTeam();
    const first = (await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: team.id }, { name: 'first' }))).json();
    t.clock.advance(1000);
    const second = (await t.adminRaw('POST', '/api-keys', keyBody({ type: 'team', id: team.id }, { name: 'second', expires_in_days: 7 }))).json();
    await createKey(t, { type: 'team', id: other.id });

    const response = await t.adminRaw('GET', `/api-keys?home_type=team&home_id=${team.id}`);
    expect(response.statusCode).toBe(200);
    const keys = response.json().data;
    expect(keys).toEqual([second.data, first.data]);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(ADMIN_KEY_KEYS);
      expect(key).not.toHaveProperty('secret');
    }
    expect(response.body).not.toContain(first.secret);
    expect(response.body).not.toContain(second.secret);
  });

  it('lists the keys of an organization apart from the keys of its teams', async () => {
    const organization = await newOrganization();
    const team = await t.admin('POST', '/teams', { name: 'In org', organization_id: organization.id });
    const organizationKey = await createKey(t, { type: 'organization', id: organization.id });
    const teamKey = await createKey(t, { type: 'team', id: team.id });
    const organizationKeys = await t.admin('GET', `/api-keys?home_type=organization&home_id=${organization.id}`);
    expect(organizationKeys.map((key: any) => key.id)).toEqual([organizationKey.id]);
    const teamKeys = await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`);
    expect(teamKeys.map((key: any) => key.id)).toEqual([teamKey.id]);
  });

  it('answers an empty list for a home without keys', async () => {
    const team = await newTeam();
    expect(await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`)).toEqual([]);
  });

  it('shows last_used_at: null until the key is used, then when it was used', async () => {
    const team = await newTeam();
    const home = { type: 'team', id: team.id };
    const key = await createKey(t, { type: 'team', id: team.id });
    const before = await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`);
    expect(before[0].last_used_at).toBeNull();
    const usedAt = t.clock.now().getTime();
    expect((await t.get('/v1/auth/verify', key.secret)).statusCode).toBe(200);
    const lastUsed = await lastUsedAt(home, key.id);
    expect(lastUsed).toMatch(RFC3339_MS);
    expect(Math.abs(Date.parse(lastUsed!) - usedAt)).toBeLessThan(5 * 60_000);
  });

  it('a refused use (wrong scope) does not count as a use', async () => {
    const team = await newTeam();
    const key = await createKey(t, { type: 'team', id: team.id }, { scopes: ['teams:read'] });
    expectProblem(await t.get('/v1/guides', key.secret), 403, 'scope_missing');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const keys = await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`);
    expect(keys[0].last_used_at).toBeNull();
  });

  it('a home that does not exist is 404 not_found', async () => {
    expectNotFound(await t.adminRaw('GET', `/api-keys?home_type=team&home_id=${UNKNOWN_ID}`));
    expectNotFound(await t.adminRaw('GET', `/api-keys?home_type=organization&home_id=${UNKNOWN_ID}`));
  });

  it('refuses a missing, malformed or unknown query parameter, naming it', async () => {
    const team = await newTeam();
    expectInvalid(await t.adminRaw('GET', `/api-keys?home_id=${team.id}`), 'home_type');
    expectInvalid(await t.adminRaw('GET', '/api-keys?home_type=team'), 'home_id');
    expectInvalid(await t.adminRaw('GET', `/api-keys?home_type=user&home_id=${team.id}`), 'home_type');
    expectInvalid(await t.adminRaw('GET', '/api-keys?home_type=team&home_id=my-team'), 'home_id');
    expectInvalid(await t.adminRaw('GET', `/api-keys?home_type=team&home_id=${team.id}&limit=5`), 'limit');
  });
});

describe('DELETE /api-keys/{id}', () => {
  it('revokes the key (204): it then gets 401 invalid_key; a second DELETE is 404 not_found', async () => {
    const { team, key, keyId } = await soloTeam(t, 'growth');
    expect((await t.get('/v1/auth/verify', key)).statusCode).toBe(200);
    const response = await t.adminRaw('DELETE', `/api-keys/${keyId}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expectProblem(await t.get('/v1/auth/verify', key), 401, 'invalid_key');
    expectProblem(await t.get('/v1/teams', key), 401, 'invalid_key');
    expectNotFound(await t.adminRaw('DELETE', `/api-keys/${keyId}`));
    const listed = await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`);
    expect(listed.map((row: any) => row.id)).not.toContain(keyId);
  });

  it('revokes only that key', async () => {
    const team = await newTeam();
    const keep = await createKey(t, { type: 'team', id: team.id });
    const drop = await createKey(t, { type: 'team', id: team.id });
    await t.admin('DELETE', `/api-keys/${drop.id}`);
    expect((await t.get('/v1/auth/verify', keep.secret)).statusCode).toBe(200);
    expect((await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`)).map((row: any) => row.id)).toEqual([keep.id]);
  });

  it('an unknown key is 404 not_found', async () => {
    expectNotFound(await t.adminRaw('DELETE', `/api-keys/${UNKNOWN_ID}`));
  });
});

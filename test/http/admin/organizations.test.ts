// Organizations and their admins through the management API (decisions §7, §3; spec §5 rule 6).
import { describe, expect, it } from 'vitest';
import {
  createKey,
  useTestService,
} from '../../support/service.js';
import {
  createUser,
  expectInvalid,
  expectNotFound,
  expectProblem,
  LOWER_UUID,
  RFC3339_MS,
  UNKNOWN_ID,
} from './helpers.js';

const t = useTestService();

const ORGANIZATION_KEYS = ['api_enabled', 'created_at', 'id', 'name', 'org_keys_only', 'plan', 'updated_at'];

describe('POST /organizations', () => {
  it('creates an organization with the defaults plan free, api_enabled true, org_keys_only false (201)', async () => {
    const response = await t.adminRaw('POST', '/organizations', { name: 'Acme' });
    expect(response.statusCode).toBe(201);
    expect(Object.keys(response.json())).toEqual(['data']);
    const organization = response.json().data;
    expect(Object.keys(organization).sort()).toEqual(ORGANIZATION_KEYS);
    expect(organization).toMatchObject({ name: 'Acme', plan: 'free', api_enabled: true, org_keys_only: false });
    expect(organization.id).toMatch(LOWER_UUID);
    expect(organization.created_at).toMatch(RFC3339_MS);
    expect(organization.updated_at).toBe(organization.created_at);
  });

  it('takes plan, api_enabled and org_keys_only when given', async () => {
    for (const plan of ['free', 'starter', 'growth', 'enterprise']) {
      const organization = await t.admin('POST', '/organizations', { name: `On ${plan}`, plan, api_enabled: false, org_keys_only: true });
      expect(organization).toMatchObject({ name: `On ${plan}`, plan, api_enabled: false, org_keys_only: true });
    }
  });

  it('gives every organization its own lowercase id', async () => {
    const a = await t.admin('POST', '/organizations', { name: 'Same' });
    const b = await t.admin('POST', '/organizations', { name: 'Same' });
    expect(a.id).not.toBe(b.id);
  });

  it('keeps a name of 200 characters, with any Unicode', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Ü'.repeat(200) });
    expect(organization.name).toBe('Ü'.repeat(200));
    expect((await t.admin('POST', '/organizations', { name: 'Ünïcødé 組織' })).name).toBe('Ünïcødé 組織');
  });
});

describe('POST /organizations validation: 400 invalid_request naming the field', () => {
  it('refuses a missing name', async () => {
    expectInvalid(await t.adminRaw('POST', '/organizations', { plan: 'free' }), 'name');
  });

  it('refuses an empty name, a null name and a name over 200 characters', async () => {
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: '' }), 'name');
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: null }), 'name');
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x'.repeat(201) }), 'name');
  });

  it('refuses a plan that is not free, starter, growth or enterprise', async () => {
    for (const plan of ['gold', 'Growth', 'FREE', '', null, 1]) {
      expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x', plan }), 'plan');
    }
  });

  it('refuses an unknown field', async () => {
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x', colour: 'red' }), 'colour');
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x', id: UNKNOWN_ID }), 'id');
  });

  it('refuses a value of a wrong JSON type for api_enabled and org_keys_only', async () => {
    for (const value of ['yes', [], {}, [true]]) {
      expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x', api_enabled: value }), 'api_enabled');
      expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x', org_keys_only: value }), 'org_keys_only');
    }
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: ['x'] }), 'name');
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: { text: 'x' } }), 'name');
  });

  it('never coerces a JSON value of the wrong type: a number or boolean is no name, a string, number or null is no boolean', async () => {
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: 123 }), 'name');
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: true }), 'name');
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x', api_enabled: 'false' }), 'api_enabled');
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x', org_keys_only: 1 }), 'org_keys_only');
    // null is no boolean either: read as false it would silently turn API access off.
    expectInvalid(await t.adminRaw('POST', '/organizations', { name: 'x', api_enabled: null }), 'api_enabled');
    const organization = await t.admin('POST', '/organizations', { name: 'Null guard' });
    expectInvalid(await t.adminRaw('PATCH', `/organizations/${organization.id}`, { api_enabled: null }), 'api_enabled');
    expect((await t.admin('GET', `/organizations/${organization.id}`)).api_enabled).toBe(true);
  });
});

describe('GET /organizations/{id}', () => {
  it('answers the organization as it was created', async () => {
    const created = await t.admin('POST', '/organizations', { name: 'Readable', plan: 'starter' });
    expect(await t.admin('GET', `/organizations/${created.id}`)).toEqual(created);
  });

  it('answers 404 not_found for an unknown id', async () => {
    expectNotFound(await t.adminRaw('GET', `/organizations/${UNKNOWN_ID}`));
  });
});

describe('PATCH /organizations/{id}', () => {
  it('changes each field alone and leaves the others as they were', async () => {
    const created = await t.admin('POST', '/organizations', { name: 'Before', plan: 'free' });
    t.clock.advance(1000);
    const renamed = await t.admin('PATCH', `/organizations/${created.id}`, { name: 'After' });
    expect(renamed).toMatchObject({ id: created.id, name: 'After', plan: 'free', api_enabled: true, org_keys_only: false });
    expect(renamed.created_at).toBe(created.created_at);
    expect(renamed.updated_at).toMatch(RFC3339_MS);
    expect(Date.parse(renamed.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));

    for (const plan of ['starter', 'growth', 'enterprise', 'free']) {
      expect(await t.admin('PATCH', `/organizations/${created.id}`, { plan })).toMatchObject({ name: 'After', plan });
    }
    expect(await t.admin('PATCH', `/organizations/${created.id}`, { api_enabled: false })).toMatchObject({
      api_enabled: false,
      org_keys_only: false,
    });
    expect(await t.admin('PATCH', `/organizations/${created.id}`, { org_keys_only: true })).toMatchObject({
      api_enabled: false,
      org_keys_only: true,
    });
    expect(await t.admin('PATCH', `/organizations/${created.id}`, { api_enabled: true, org_keys_only: false })).toMatchObject({
      name: 'After',
      plan: 'free',
      api_enabled: true,
      org_keys_only: false,
    });
    const read = await t.admin('GET', `/organizations/${created.id}`);
    expect(read).toMatchObject({ name: 'After', plan: 'free', api_enabled: true, org_keys_only: false });
  });

  it('accepts an empty body and changes nothing visible', async () => {
    const created = await t.admin('POST', '/organizations', { name: 'Still', plan: 'growth' });
    const patched = await t.admin('PATCH', `/organizations/${created.id}`, {});
    expect(patched).toMatchObject({ id: created.id, name: 'Still', plan: 'growth', api_enabled: true, org_keys_only: false });
  });

  it('refuses bad values naming the field, and changes nothing', async () => {
    const created = await t.admin('POST', '/organizations', { name: 'Guarded' });
    expectInvalid(await t.adminRaw('PATCH', `/organizations/${created.id}`, { name: '' }), 'name');
    expectInvalid(await t.adminRaw('PATCH', `/organizations/${created.id}`, { name: null }), 'name');
    expectInvalid(await t.adminRaw('PATCH', `/organizations/${created.id}`, { name: 'x'.repeat(201) }), 'name');
    expectInvalid(await t.adminRaw('PATCH', `/organizations/${created.id}`, { plan: 'platinum' }), 'plan');
    expectInvalid(await t.adminRaw('PATCH', `/organizations/${created.id}`, { api_enabled: 'no' }), 'api_enabled');
    expectInvalid(await t.adminRaw('PATCH', `/organizations/${created.id}`, { org_keys_only: 'maybe' }), 'org_keys_only');
    expectInvalid(await t.adminRaw('PATCH', `/organizations/${created.id}`, { created_at: '2020-01-01T00:00:00.000Z' }), 'created_at');
    expect(await t.admin('GET', `/organizations/${created.id}`)).toEqual(created);
  });

  it('answers 404 not_found for an unknown id', async () => {
    expectNotFound(await t.adminRaw('PATCH', `/organizations/${UNKNOWN_ID}`, { name: 'x' }));
  });

  it('api_enabled false turns the organization keys away with 403 api_disabled, true lets them in again (spec §5 rule 6)', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Policy', plan: 'growth' });
    await t.admin('POST', '/teams', { name: 'A', organization_id: organization.id });
    const key = await createKey(t, { type: 'organization', id: organization.id });
    expect((await t.get('/v1/teams', key.secret)).statusCode).toBe(200);
    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
    expectProblem(await t.get('/v1/teams', key.secret), 403, 'api_disabled');
    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: true });
    expect((await t.get('/v1/teams', key.secret)).statusCode).toBe(200);
  });

  it('org_keys_only true refuses team keys with 403 team_keys_disabled, organization keys still work (spec §5 rule 6)', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Org keys', plan: 'growth' });
    const team = await t.admin('POST', '/teams', { name: 'A', organization_id: organization.id });
    const teamKey = await createKey(t, { type: 'team', id: team.id });
    const organizationKey = await createKey(t, { type: 'organization', id: organization.id });
    expect((await t.get('/v1/teams', teamKey.secret)).statusCode).toBe(200);
    await t.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: true });
    expectProblem(await t.get('/v1/teams', teamKey.secret), 403, 'team_keys_disabled');
    expect((await t.get('/v1/teams', organizationKey.secret)).statusCode).toBe(200);
  });

  it("a change of plan changes what the organization's keys get (decisions §3)", async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Plans', plan: 'free' });
    const team = await t.admin('POST', '/teams', { name: 'A', organization_id: organization.id });
    const guide = await t.admin('POST', '/guides', { team_id: team.id, title: 'Plan', steps: [1, 2, 3, 4, 5].map((n) => ({ text: `Step ${n}` })) });
    const key = await createKey(t, { type: 'organization', id: organization.id });
    expect((await t.get(`/v1/guides/${guide.id}`, key.secret)).json().data.notice).not.toBeNull();
    await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'growth' });
    const full = (await t.get(`/v1/guides/${guide.id}`, key.secret)).json().data;
    expect(full.notice).toBeNull();
    expect(full.markdown_body).toContain('Step 5');
  });
});

describe('PUT and DELETE /organizations/{id}/admins/{user_id}', () => {
  it('PUT makes the user an admin: 204 without a body; PUT again is still 204', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Admins' });
    const user = await createUser(t);
    const first = await t.adminRaw('PUT', `/organizations/${organization.id}/admins/${user.id}`);
    expect(first.statusCode).toBe(204);
    expect(first.body).toBe('');
    const again = await t.adminRaw('PUT', `/organizations/${organization.id}/admins/${user.id}`);
    expect(again.statusCode).toBe(204);
  });

  it('DELETE removes an admin (204); a second DELETE is 404 not_found', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Admins' });
    const user = await createUser(t);
    await t.admin('PUT', `/organizations/${organization.id}/admins/${(await createUser(t)).id}`);
    await t.admin('PUT', `/organizations/${organization.id}/admins/${user.id}`);
    const removed = await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${user.id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expectNotFound(await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${user.id}`));
  });

  it('DELETE of a user who is not an admin of that organization is 404 not_found', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Admins' });
    const other = await t.admin('POST', '/organizations', { name: 'Other' });
    const user = await createUser(t);
    expectNotFound(await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${user.id}`));
    await t.admin('PUT', `/organizations/${other.id}/admins/${user.id}`);
    await t.admin('PUT', `/organizations/${other.id}/admins/${(await createUser(t)).id}`);
    expectNotFound(await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${user.id}`));
    expect((await t.adminRaw('DELETE', `/organizations/${other.id}/admins/${user.id}`)).statusCode).toBe(204);
  });

  it('an unknown user or organization is 404 not_found', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Admins' });
    const user = await createUser(t);
    expectNotFound(await t.adminRaw('PUT', `/organizations/${organization.id}/admins/${UNKNOWN_ID}`));
    expectNotFound(await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${UNKNOWN_ID}`));
    expectNotFound(await t.adminRaw('PUT', `/organizations/${UNKNOWN_ID}/admins/${user.id}`));
    expectNotFound(await t.adminRaw('DELETE', `/organizations/${UNKNOWN_ID}/admins/${user.id}`));
  });

  it('an organization can have several admins, each removed on its own, but the last stays (409, shared decisions §11)', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Admins' });
    const a = await createUser(t);
    const b = await createUser(t);
    await t.admin('PUT', `/organizations/${organization.id}/admins/${a.id}`);
    await t.admin('PUT', `/organizations/${organization.id}/admins/${b.id}`);
    expect((await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${a.id}`)).statusCode).toBe(204);
    expectProblem(await t.adminRaw('DELETE', `/organizations/${organization.id}/admins/${b.id}`), 409, 'conflict');
  });
});

// The management API's admission and its refusals (decisions §7, §4): the admin bearer, problem bodies,
// unknown paths, media types, body size, malformed path ids, unknown ids, and never a server fault.
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  createGuide,
  createKey,
  soloTeam,
  useTestService,
} from '../../support/service.js';
import {
  createUser,
  expectInvalid,
  expectNotFound,
  expectProblem,
  rawAdmin,
  UNKNOWN_ID,
} from './helpers.js';

const t = useTestService();

describe('admin bearer (decisions §7)', () => {
  it('a request without Authorization is 401 invalid_key as a problem with request_id', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Acme' });
    const response = await rawAdmin(t, 'GET', `/organizations/${organization.id}`, undefined, {}, null);
    const body = expectProblem(response, 401, 'invalid_key');
    expect(body.title).toBe('Invalid API key');
  });

  it('a wrong admin token is 401 invalid_key', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Acme' });
    for (const token of ['wrong', `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1), ADMIN_TOKEN.toUpperCase()]) {
      expectProblem(await t.adminRaw('GET', `/organizations/${organization.id}`, undefined, token), 401, 'invalid_key');
    }
  });

  it('a token in another scheme than Bearer is 401 invalid_key', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Acme' });
    for (const authorization of [`Basic ${ADMIN_TOKEN}`, ADMIN_TOKEN, `Bearer`, `Bearer ${ADMIN_TOKEN} extra`]) {
      const response = await rawAdmin(t, 'GET', `/organizations/${organization.id}`, undefined, { authorization }, null);
      expectProblem(response, 401, 'invalid_key');
    }
  });

  it('an API key of the REST interface is not the admin token: without webhooks:manage, 403 scope_missing (shared decisions §11)', async () => {
    const { key } = await soloTeam(t);
    const response = await t.adminRaw('POST', '/organizations', { name: 'Nope' }, key);
    expectProblem(response, 403, 'scope_missing');
    expect(await t.service.ctx.db.selectFrom('organizations').select('id').where('name', '=', 'Nope').execute()).toEqual([]);
  });

  it('a refused write changes nothing: no organization is created without the token', async () => {
    const before = await t.service.ctx.db.selectFrom('organizations').select('id').execute();
    expectProblem(await t.adminRaw('POST', '/organizations', { name: 'Sneaky' }, 'wrong'), 401, 'invalid_key');
    const after = await t.service.ctx.db.selectFrom('organizations').select('id').execute();
    expect(after.length).toBe(before.length);
  });

  it('the admin token is refused before the body is validated (401, not 400)', async () => {
    expectProblem(await t.adminRaw('POST', '/organizations', { bogus: true }, 'wrong'), 401, 'invalid_key');
  });

  it('the right admin token is accepted on every kind of call', async () => {
    const created = await t.adminRaw('POST', '/organizations', { name: 'Acme' });
    expect(created.statusCode).toBe(201);
    expect(String(created.headers['content-type'])).toMatch(/^application\/json/);
    const id = created.json().data.id;
    const read = await t.adminRaw('GET', `/organizations/${id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data: created.json().data });
    const lowercaseScheme = await rawAdmin(t, 'GET', `/organizations/${id}`, undefined, { authorization: `bearer ${ADMIN_TOKEN}` }, null);
    expect(lowercaseScheme.statusCode).toBe(200);
  });

  it('an incoming X-Request-Id is kept and is the request_id of the problem (decisions §4)', async () => {
    const response = await rawAdmin(t, 'GET', `/organizations/${UNKNOWN_ID}`, undefined, { 'x-request-id': 'trace-123.abc_X' });
    const body = expectNotFound(response);
    expect(body.request_id).toBe('trace-123.abc_X');
    expect(response.headers['x-request-id']).toBe('trace-123.abc_X');
  });
});

describe('problem links (decisions §4, §7)', () => {
  it("every management API problem's type links to an entry of the served reference that documents its code", async () => {
    const { team } = await soloTeam(t);
    const holder = await createGuide(t, team.id);
    const answers = [
      await t.adminRaw('GET', '/nope', undefined, 'wrong'),
      await t.adminRaw('GET', `/guides/${UNKNOWN_ID}`),
      await t.adminRaw('GET', '/guides/abc'),
      await t.adminRaw('POST', '/guides', { team_id: team.id, permalink: holder.permalink }),
      await rawAdmin(t, 'POST', '/organizations', JSON.stringify({ name: 'x'.repeat(1024 * 1024) }), { 'content-type': 'application/json' }),
      await rawAdmin(t, 'POST', '/organizations', '<x/>', { 'content-type': 'application/xml' }),
    ];
    const codes = answers.map((answer) => answer.json().code);
    expect(codes).toEqual(['invalid_key', 'not_found', 'invalid_request', 'conflict', 'payload_too_large', 'unsupported_media_type']);
    const reference = await t.service.app.inject({ method: 'GET', url: '/docs' });
    expect(reference.statusCode).toBe(200);
    for (const answer of answers) {
      const { type, code } = answer.json();
      const url = new URL(type);
      expect(url.pathname).toBe('/docs');
      expect(reference.body).toContain(`id="${url.hash.slice(1)}"`);
      expect(url.hash).toBe(`#error-${code}`);
    }
  });
});

describe('unknown paths (decisions §7)', () => {
  it('an unknown path under /admin/v1 is 404 not_found as a problem', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/'],
      ['POST', '/organisations'],
      ['GET', `/organizations/${UNKNOWN_ID}/teams`],
    ] as const) {
      expectNotFound(await t.adminRaw(method, path));
    }
  });

  it('a known path with a method it does not have is refused as a problem (405), never 500', async () => {
    const response = await t.adminRaw('PUT', `/guides/${UNKNOWN_ID}`, { title: 'x' });
    expectProblem(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
  });
});

describe('request bodies (decisions §7: JSON bodies)', () => {
  it('a body that is not valid JSON is 400 invalid_request', async () => {
    for (const payload of ['{"name":', '{name: "x"}', "{'name':'x'}", '{"name":"x"}}', 'undefined']) {
      const response = await rawAdmin(t, 'POST', '/organizations', payload, { 'content-type': 'application/json' });
      expectProblem(response, 400, 'invalid_request');
    }
  });

  it('an empty body sent as JSON, to an operation that needs a body, is 400 invalid_request', async () => {
    expectProblem(await rawAdmin(t, 'POST', '/organizations', '', { 'content-type': 'application/json' }), 400, 'invalid_request');
  });

  it('a JSON body that is not an object is 400 invalid_request', async () => {
    for (const payload of ['null', '[]', '[{"name":"x"}]', '"x"', '42', 'true']) {
      const response = await rawAdmin(t, 'POST', '/organizations', payload, { 'content-type': 'application/json' });
      expectProblem(response, 400, 'invalid_request');
    }
  });

  it('a write without a body is 400 invalid_request', async () => {
    expectProblem(await t.adminRaw('POST', '/organizations'), 400, 'invalid_request');
    expectProblem(await t.adminRaw('POST', '/teams'), 400, 'invalid_request');
  });

  it('a body in another media type than JSON is 415 unsupported_media_type', async () => {
    for (const [contentType, payload] of [
      ['application/xml', '<organization><name>x</name></organization>'],
      ['application/x-www-form-urlencoded', 'name=x'],
      ['multipart/form-data; boundary=abc', '--abc\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--abc--'],
      ['application/octet-stream', '{"name":"x"}'],
    ]) {
      const response = await rawAdmin(t, 'POST', '/organizations', payload, { 'content-type': contentType! });
      expectProblem(response, 415, 'unsupported_media_type');
    }
  });

  it('a body without a content-type is 415 unsupported_media_type', async () => {
    expectProblem(await rawAdmin(t, 'POST', '/organizations', '{"name":"x"}'), 415, 'unsupported_media_type');
  });

  it('a text/plain body is 415 unsupported_media_type, never read as JSON or as text (decisions §7)', async () => {
    const response = await rawAdmin(t, 'POST', '/organizations', '{"name":"x"}', { 'content-type': 'text/plain' });
    expectProblem(response, 415, 'unsupported_media_type');
  });

  it('application/json with a charset parameter is accepted', async () => {
    const response = await rawAdmin(t, 'POST', '/organizations', JSON.stringify({ name: 'Charset' }), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.name).toBe('Charset');
  });

  it('a body over 1 MiB is 413 payload_too_large', async () => {
    const payload = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    expectProblem(await rawAdmin(t, 'POST', '/organizations', payload, { 'content-type': 'application/json' }), 413, 'payload_too_large');
  });

  it('a body of just under 1 MiB is not refused for its size', async () => {
    const { team } = await soloTeam(t);
    // 50 steps of 20 000 characters: about 1 000 000 bytes of JSON, under 1 048 576.
    const steps = Array.from({ length: 50 }, () => ({ text: 'y'.repeat(20_000) }));
    const payload = JSON.stringify({ team_id: team.id, title: 'Big', steps });
    expect(Buffer.byteLength(payload)).toBeLessThan(1024 * 1024);
    expect(Buffer.byteLength(payload)).toBeGreaterThan(1_000_000);
    const response = await rawAdmin(t, 'POST', '/guides', payload, { 'content-type': 'application/json' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.steps).toHaveLength(50);
  });
});

describe('ids in paths', () => {
  async function fixtures() {
    const organization = await t.admin('POST', '/organizations', { name: 'Paths' });
    const { team } = await soloTeam(t);
    const user = await createUser(t);
    const guide = await createGuide(t, team.id);
    const key = await createKey(t, { type: 'team', id: team.id });
    return { organization, team, user, guide, key };
  }

  it('a malformed UUID in a path is 400 invalid_request naming the parameter', async () => {
    const { organization, team, user, guide } = await fixtures();
    const cases: [string, string, unknown, string][] = [
      ['GET', '/organizations/not-a-uuid', undefined, 'id'],
      ['PATCH', '/organizations/123', { name: 'x' }, 'id'],
      ['PUT', `/organizations/nope/admins/${user.id}`, undefined, 'id'],
      ['PUT', `/organizations/${organization.id}/admins/nope`, undefined, 'user_id'],
      ['DELETE', `/organizations/${organization.id}/admins/${user.id.slice(0, -1)}`, undefined, 'user_id'],
      ['GET', `/teams/${team.id}x`, undefined, 'id'],
      ['PATCH', '/teams/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', { name: 'x' }, 'id'],
      ['GET', '/users/abc', undefined, 'id'],
      ['PUT', `/teams/abc/members/${user.id}`, { role: 'EDITOR' }, 'team_id'],
      ['PUT', `/teams/${team.id}/members/abc`, { role: 'EDITOR' }, 'user_id'],
      ['DELETE', `/teams/${team.id}/members/abc`, undefined, 'user_id'],
      ['GET', `/guides/${guide.permalink}`, undefined, 'id'],
      ['PATCH', '/guides/1', { title: 'x' }, 'id'],
      ['DELETE', '/guides/{id}', undefined, 'id'],
      ['POST', '/guides/abc/processing', { outcome: 'finished' }, 'id'],
      ['POST', '/guides/abc/move', { team_id: team.id }, 'id'],
      ['DELETE', '/api-keys/abc', undefined, 'id'],
    ];
    for (const [method, path, body, parameter] of cases) {
      expectInvalid(await t.adminRaw(method, path, body), parameter);
    }
  });

  it('an unknown id in a path is 404 not_found', async () => {
    const { organization, team, user } = await fixtures();
    const cases: [string, string, unknown][] = [
      ['GET', `/organizations/${UNKNOWN_ID}`, undefined],
      ['PATCH', `/organizations/${UNKNOWN_ID}`, { name: 'x' }],
      ['PUT', `/organizations/${UNKNOWN_ID}/admins/${user.id}`, undefined],
      ['PUT', `/organizations/${organization.id}/admins/${UNKNOWN_ID}`, undefined],
      ['DELETE', `/organizations/${UNKNOWN_ID}/admins/${user.id}`, undefined],
      ['GET', `/teams/${UNKNOWN_ID}`, undefined],
      ['PATCH', `/teams/${UNKNOWN_ID}`, { name: 'x' }],
      ['GET', `/users/${UNKNOWN_ID}`, undefined],
      ['PUT', `/teams/${UNKNOWN_ID}/members/${user.id}`, { role: 'EDITOR' }],
      ['PUT', `/teams/${team.id}/members/${UNKNOWN_ID}`, { role: 'EDITOR' }],
      ['DELETE', `/teams/${UNKNOWN_ID}/members/${user.id}`, undefined],
      ['GET', `/guides/${UNKNOWN_ID}`, undefined],
      ['PATCH', `/guides/${UNKNOWN_ID}`, { title: 'x' }],
      ['DELETE', `/guides/${UNKNOWN_ID}`, undefined],
      ['POST', `/guides/${UNKNOWN_ID}/processing`, { outcome: 'finished' }],
      ['POST', `/guides/${UNKNOWN_ID}/move`, { team_id: team.id }],
      ['DELETE', `/api-keys/${UNKNOWN_ID}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      expectNotFound(await t.adminRaw(method, path, body));
    }
  });

  it('an id in a path is read in any letter case (ids are lowercase UUIDs, decisions §2)', async () => {
    const { organization, team, user, guide } = await fixtures();
    expect((await t.admin('GET', `/organizations/${organization.id.toUpperCase()}`)).id).toBe(organization.id);
    expect((await t.admin('GET', `/teams/${team.id.toUpperCase()}`)).id).toBe(team.id);
    expect((await t.admin('GET', `/users/${user.id.toUpperCase()}`)).id).toBe(user.id);
    expect((await t.admin('GET', `/guides/${guide.id.toUpperCase()}`)).id).toBe(guide.id);
    const member = await t.admin('PUT', `/teams/${team.id.toUpperCase()}/members/${user.id.toUpperCase()}`, { role: 'VIEWER' });
    expect(member.id).toBe(user.id);
  });
});

describe('never a server fault', () => {
  const JUNK_VALUES: unknown[] = [
    null,
    0,
    -1,
    1.5,
    1e308,
    true,
    '',
    ' ',
    'x'.repeat(5000),
    '\u0000',
    '😀',
    '../../etc/passwd',
    "'; DROP TABLE guides; --",
    [],
    [null],
    ['x'],
    {},
    { nested: { deeper: [1, 2, 3] } },
    '00000000-0000-4000-8000-000000000000',
  ];

  it('junk in any field of any write is answered below 500, as a problem when refused', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Junk' });
    const { team } = await soloTeam(t);
    const otherTeam = (await soloTeam(t)).team;
    const user = await createUser(t);
    const guide = await createGuide(t, team.id, { steps: [{ text: 'one' }] });
    const processing = await createGuide(t, team.id, { processing: true, steps: [{ text: 'one' }] });
    const writes: [string, string, Record<string, unknown>][] = [
      ['POST', '/organizations', { name: 'x', plan: 'free', api_enabled: true, org_keys_only: false }],
      ['PATCH', `/organizations/${organization.id}`, { name: 'x', plan: 'free', api_enabled: true, org_keys_only: false }],
      ['POST', '/teams', { name: 'x', organization_id: null, plan: 'free', brand_color: '#000000' }],
      ['PATCH', `/teams/${otherTeam.id}`, { name: 'x', organization_id: null, plan: 'free', brand_color: '#000000' }],
      ['POST', '/users', { email: 'junk@example.com', name: 'x', avatar_url: 'https://example.com/a.png' }],
      ['PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' }],
      [
        'POST',
        '/guides',
        {
          team_id: team.id,
          title: 'x',
          description: 'x',
          owner_id: null,
          language: 'en',
          text_direction: 'ltr',
          app_version: '1',
          icon_url: null,
          thumbnail_url: null,
          tags: ['a'],
          folder_id: null,
          publish_status: 'DRAFT',
          is_public: false,
          team_role: null,
          steps: [{ text: 'x', image_url: null, image_alt: null }],
          processing: false,
        },
      ],
      [
        'PATCH',
        `/guides/${guide.id}`,
        { title: 'x', description: 'x', owner_id: null, language: 'en', tags: null, folder_id: null, publish_status: 'DRAFT', is_public: false, team_role: null, steps: [] },
      ],
      ['POST', `/guides/${processing.id}/processing`, { outcome: 'failed', error: 'x' }],
      ['POST', `/guides/${guide.id}/move`, { team_id: team.id }],
      ['POST', '/api-keys', { home: { type: 'team', id: team.id }, name: 'x', scopes: ['guides:read'], expires_in_days: 1 }],
    ];
    const faults: string[] = [];
    for (const [method, path, valid] of writes) {
      for (const field of Object.keys(valid)) {
        for (const junk of JUNK_VALUES) {
          const body = { ...valid, [field]: junk };
          const response = await t.adminRaw(method, path, body);
          if (response.statusCode >= 500) faults.push(`${method} ${path} ${field}=${JSON.stringify(junk).slice(0, 40)} → ${response.statusCode}`);
          else if (response.statusCode >= 400) expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
        }
      }
      for (const junk of JUNK_VALUES) {
        const response = await t.adminRaw(method, path, junk);
        if (response.statusCode >= 500) faults.push(`${method} ${path} body=${JSON.stringify(junk).slice(0, 40)} → ${response.statusCode}`);
      }
    }
    expect(faults).toEqual([]);
  });

  it('junk in the query of GET /api-keys is answered below 500', async () => {
    const { team } = await soloTeam(t);
    for (const query of [
      '',
      '?home_type=team',
      `?home_id=${team.id}`,
      `?home_type=&home_id=${team.id}`,
      `?home_type=team&home_id=${team.id}&home_id=${team.id}`,
      `?home_type=team&home_type=organization&home_id=${team.id}`,
      `?home_type=team&home_id=${team.id}&extra=1`,
      '?home_type=team&home_id=%00',
      `?home_type[]=team&home_id=${team.id}`,
    ]) {
      const response = await t.adminRaw('GET', `/api-keys${query}`);
      expect(response.statusCode, `${query} → ${response.body}`).toBeLessThan(500);
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('methods and empty bodies (issue 14, items 1 and 2)', () => {
  it('a known path with a method it does not take is 405 with Allow, not 404', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Methods' });
    for (const [method, path, allow] of [
      ['PUT', '/organizations', 'POST'],
      ['DELETE', '/organizations', 'POST'],
      ['DELETE', `/organizations/${organization.id}`, 'GET, HEAD, PATCH'],
      ['POST', `/organizations/${organization.id}`, 'GET, HEAD, PATCH'],
      ['GET', '/deliveries/00000000-0000-4000-8000-000000000000/resend', 'POST'],
    ] as const) {
      const response = await t.adminRaw(method, path);
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.allow, `${method} ${path}`).toBe(allow);
    }
    expectProblem(await t.adminRaw('GET', '/no-such-thing'), 404, 'not_found');
  });

  it('an operation that takes no body accepts an empty one sent as application/json', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Empty body' });
    const user = await t.admin('POST', '/users', { email: `empty-${Math.random()}@example.com` });
    const response = await t.service.app.inject({
      method: 'PUT',
      url: `/admin/v1/organizations/${organization.id}/admins/${user.id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  });

  it('an operation that needs a body says what is missing when it is empty', async () => {
    const response = await t.service.app.inject({
      method: 'POST',
      url: '/admin/v1/organizations',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    });
    expectProblem(response, 400, 'invalid_request');
  });
});

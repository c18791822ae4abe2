// Requests refused at the edge (issue 13, items 1, 3, 4, 5; issue 32, items 4, 7; issue 41, items 3, 5):
// undecodable query strings and NUL in them, deeply nested bodies, repeated credentials or Host, a missing
// Host, a body declared too large behind Expect: 100-continue, an expectation the service cannot meet, and
// what Node's HTTP parser refuses itself. Each answer is a 4xx problem with the service's shape and
// headers, over a real socket where the parser is involved.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, organizationWithTeams, soloTeam, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';

let t: TestService;
let key: string;
let port: number;

beforeAll(async () => {
  t = await startTestService();
  ({ key } = await organizationWithTeams(t));
  await t.service.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.service.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Sends bytes as they are and reads the answer until the service closes or the body is complete. */
function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const finish = () => {
      const [head = '', ...rest] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      received += chunk;
      const length = /content-length: (\d+)/i.exec(received)?.[1];
      const bodyStart = received.indexOf('\r\n\r\n');
      if (length !== undefined && bodyStart !== -1 && Buffer.byteLength(received.slice(bodyStart + 4)) >= Number(length)) {
        socket.destroy();
        finish();
      }
    });
    socket.on('close', finish);
    socket.on('error', reject);
    socket.write(request);
  });
}

function expectProblemAnswer(answer: RawAnswer, status: number, code: string): Record<string, any> {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
  const body = JSON.parse(answer.body);
  expect(body).toMatchObject({ status, code, request_id: answer.headers.get('x-request-id') });
  expect(body.detail.length).toBeGreaterThan(0);
  return body;
}

describe('a query string that cannot be decoded is a 400 naming the parameter, on every endpoint', () => {
  for (const path of ['/v1/guides', '/v1/teams', '/admin/v1/organizations', '/admin/v1/mail']) {
    it(`${path}?q=%E0%A4%A`, async () => {
      const auth = path.startsWith('/v1') ? key : ADMIN_TOKEN;
      const response = await t.service.app.inject({ method: 'GET', url: `${path}?limit=5&q=%E0%A4%A`, headers: { authorization: `Bearer ${auth}` } });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ code: 'invalid_request' });
      expect(response.json().detail).toContain("'q'");
    });
  }

  it('on /v1 the refusal carries the rate headers every v1 answer carries (spec §4)', async () => {
    const response = await t.get('/v1/guides?q=%E0%A4%A', key);
    expect(response.statusCode).toBe(400);
    expect(response.headers['ratelimit-limit']).toBeDefined();
    expect(response.headers['ratelimit-remaining']).toBeDefined();
  });

  it('names an undecodable parameter name as it was sent', async () => {
    const response = await t.get('/v1/guides?%ZZ=1', key);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain("'%ZZ'");
  });

  it('still takes well-formed encodings, including + for a space and multi-byte characters', async () => {
    const response = await t.get('/v1/guides?q=%E0%A4%A8+x', key);
    expect(response.statusCode).toBe(200);
  });
});

describe('a query parameter holding NUL, or bytes that are not UTF-8, is 400 naming it, on every interface and both stores (issue 41)', () => {
  const NUL = 'must not contain NUL characters';
  const NOT_UTF8 = 'is not valid percent-encoded UTF-8';

  it('the management API: a NUL in ?email= is 400 naming email (PostgreSQL answered 500), as are %FF and an encoded lone surrogate', async () => {
    for (const [query, detail] of [
      ['email=a%00b@x.test', `Parameter 'email' ${NUL}`],
      ['email=%00', `Parameter 'email' ${NUL}`],
      ['email=a%FFb@x.test', `Parameter 'email' ${NOT_UTF8}`],
      ['email=a%ED%A0%80b@x.test', `Parameter 'email' ${NOT_UTF8}`],
      // A name that holds NUL is shown as it was sent.
      ['em%00ail=a@x.test', `Parameter 'em%00ail' ${NUL}`],
    ]) {
      const response = await t.service.app.inject({ method: 'GET', url: `/admin/v1/users?${query}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ code: 'invalid_request', detail, request_id: response.headers['x-request-id'] });
    }
    // A path parameter is a name, not free text: one holding NUL names nothing and gets its route's answer.
    const path = await t.service.app.inject({ method: 'POST', url: '/admin/v1/users/a%00b/erase', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(path.statusCode, path.body).toBe(400);
    expect(path.json().detail).toBe("Parameter 'id' must be a UUID");
  });

  it("the console's API and MCP refuse it the same way, before anything else is looked at", async () => {
    const consoleAnswer = await t.service.app.inject({ method: 'GET', url: '/console/api/session?from=a%00' });
    expect(consoleAnswer.statusCode, consoleAnswer.body).toBe(400);
    expect(consoleAnswer.json()).toMatchObject({ code: 'invalid_request', detail: `Parameter 'from' ${NUL}` });
    for (const [query, detail] of [
      ['client=a%00', `Parameter 'client' ${NUL}`],
      ['client=%FF', `Parameter 'client' ${NOT_UTF8}`],
    ]) {
      const mcpAnswer = await t.service.app.inject({
        method: 'POST',
        url: `/mcp?${query}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(mcpAnswer.statusCode, mcpAnswer.body).toBe(400);
      expect(mcpAnswer.json()).toMatchObject({ code: 'invalid_request', detail });
      expect(mcpAnswer.headers['ratelimit-remaining']).toMatch(/^\d+$/);
    }
  });

  it('on /v1 it is a parameter refusal: after key, policy and scope (decisions §4), with the rate headers, as the OpenAPI document says', async () => {
    expect((await t.get('/v1/guides?q=ab%00cd', null)).json().code).toBe('invalid_key');
    const { key: teamsOnly } = await soloTeam(t, 'free', ['teams:read']);
    expect((await t.get('/v1/guides?q=ab%00cd', teamsOnly)).json().code).toBe('scope_missing');
    for (const [url, detail] of [
      ['/v1/guides?q=ab%00cd', `Parameter 'q' ${NUL}`],
      ['/v1/events?types=guide.created%00', `Parameter 'types' ${NUL}`],
      ['/v1/teams?x=%00', `Parameter 'x' ${NUL}`],
    ] as const) {
      const response = await t.get(url, key);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_request', detail });
      expect(response.headers['ratelimit-remaining']).toMatch(/^\d+$/);
    }
  });
});

describe('any management body gets a 4xx, never a 500', () => {
  it('a body nested 5,000 deep is refused as too deeply nested', async () => {
    const body = `{"name": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const response = await t.service.app.inject({
      method: 'POST',
      url: '/admin/v1/organizations',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_request' });
    expect(response.json().detail).toMatch(/nested more than \d+ levels/);
  });

  it('a NUL deep inside is still named by its path', async () => {
    const response = await t.adminRaw('POST', '/organizations', { name: 'x', plan: 'free', extra: [{ a: 'b\u0000' }] });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe("Field 'extra.0.a' must not contain NUL characters");
  });
});

describe('half of a surrogate pair is not Unicode text: 400 naming the field, on both stores alike (decisions §10)', () => {
  /** A management POST whose body is written as JSON text, escapes as they are. */
  const post = (path: string, json: string) =>
    t.service.app.inject({ method: 'POST', url: `/admin/v1${path}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, payload: json });

  it('a lone high or low surrogate in a title, in a step, or in a key is refused and nothing is stored', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Surrogates', plan: 'free' });
    const cases: Array<[json: string, field: string]> = [
      [`{"team_id":"${team.id}","title":"\\ud800"}`, 'title'],
      [`{"team_id":"${team.id}","title":"ends with \\udfff"}`, 'title'],
      [`{"team_id":"${team.id}","title":"\\ude00\\ud83d reversed"}`, 'title'],
      [`{"team_id":"${team.id}","steps":[{"text":"ok"},{"text":"\\ud83d"}]}`, 'steps.1.text'],
      [`{"team_id":"${team.id}","\\ud800":1}`, '\ufffd'],
    ];
    for (const [json, field] of cases) {
      const response = await post('/guides', json);
      expect(response.statusCode, json).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_request' });
      expect(response.json().detail).toBe(`Field '${field}' is not valid Unicode text: it holds half of a UTF-16 surrogate pair without the other half`);
    }
    expect((await t.admin('GET', `/guides?team_id=${team.id}`)).length).toBe(0);
  });

  it('a whole pair, escaped or not, is text like any other and reads back the same', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Pairs', plan: 'free' });
    const created = await post('/guides', `{"team_id":"${team.id}","title":"smile \\ud83d\\ude00 and 😀"}`);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.title).toBe('smile 😀 and 😀');
    expect((await t.admin('GET', `/guides/${created.json().data.id}`)).title).toBe('smile 😀 and 😀');
  });

  it('the console and MCP refuse it the same way', async () => {
    const consoleAnswer = await t.service.app.inject({
      method: 'POST',
      url: '/console/api/sign-in-links',
      headers: { 'content-type': 'application/json', origin: 'http://api.test' },
      payload: '{"email":"a\\udc00@example.com"}',
    });
    expect(consoleAnswer.statusCode, consoleAnswer.body).toBe(400);
    expect(consoleAnswer.json().detail).toContain("Field 'email' is not valid Unicode text");
    const mcpAnswer = await t.service.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_guides","arguments":{"query":"\\ud800x"}}}',
    });
    expect(mcpAnswer.statusCode, mcpAnswer.body).toBe(400);
    expect(mcpAnswer.json().detail).toContain("Field 'params.arguments.query' is not valid Unicode text");
  });
});

describe('a request with more than one Authorization or Host header is refused', () => {
  it('a valid key then garbage is a 400, not the first one winning', async () => {
    const answer = await raw(`GET /v1/guides HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: garbage\r\nConnection: close\r\n\r\n`);
    const body = expectProblemAnswer(answer, 400, 'invalid_request');
    expect(body.detail).toContain('Authorization');
  });

  it('the same on the management API, whatever the case of the names', async () => {
    const answer = await raw(`GET /admin/v1/organizations HTTP/1.1\r\nHost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\nAUTHORIZATION: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n\r\n`);
    expectProblemAnswer(answer, 400, 'invalid_request');
  });

  it('two Host headers', async () => {
    const answer = await raw(`GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`);
    const body = expectProblemAnswer(answer, 400, 'invalid_request');
    expect(body.detail).toContain('Host');
  });

  it('on /v1 the refusal carries the rate headers every v1 answer carries (spec §4)', async () => {
    const answer = await raw(`GET /v1/guides HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: garbage\r\nConnection: close\r\n\r\n`);
    expectProblemAnswer(answer, 400, 'invalid_request');
    expect(answer.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
    expect(answer.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it('a header merely named like an object property is not counted', async () => {
    const answer = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nConstructor: a\r\nConstructor: b\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
  });

  it('one of each is answered', async () => {
    const answer = await raw(`GET /v1/guides HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
  });
});

describe('a request without Host is a problem with a request id, as every other refusal (decisions §10)', () => {
  it('HTTP/1.1 without Host: 400 problem naming Host, on the management API and on /v1 once admitted', async () => {
    const management = await raw(`GET /admin/v1/organizations HTTP/1.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n\r\n`);
    expect(expectProblemAnswer(management, 400, 'invalid_request').detail).toContain('Host');
    const v1 = await raw(`GET /v1/guides HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    expect(expectProblemAnswer(v1, 400, 'invalid_request').detail).toContain('Host');
    expect(v1.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    const probe = await raw('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expectProblemAnswer(probe, 400, 'invalid_request');
  });

  it('HTTP/1.0, which has no Host, is answered', async () => {
    expect((await raw('GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
  });
});

describe('Expect: 100-continue (decisions §10)', () => {
  it('a declared length over the limit is a 413 problem at once, never 100 Continue first', async () => {
    const answer = await raw(
      `POST /admin/v1/teams HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: 1073741824\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(expectProblemAnswer(answer, 413, 'payload_too_large').detail).toContain('1073741824');
    expect(answer.headers.get('connection')).toBe('close');
  });

  it("the MCP endpoint's own, smaller limit counts", async () => {
    const answer = await raw(
      `POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n`,
    );
    expectProblemAnswer(answer, 413, 'payload_too_large');
  });

  it('within the limit: 100 Continue once admitted, then the body is read and answered', async () => {
    const body = JSON.stringify({ name: 'Sent after the go-ahead', plan: 'free' });
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (received += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(
      `POST /admin/v1/teams HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await eventually('100 Continue', () => received.startsWith('HTTP/1.1 100 Continue\r\n\r\n'));
    socket.write(body);
    await closed;
    expect(received.slice('HTTP/1.1 100 Continue\r\n\r\n'.length)).toMatch(/^HTTP\/1\.1 201 /);
    expect(received).toContain('Sent after the go-ahead');
  });
});

describe('an expectation other than 100-continue (issue 41, item 5; decisions §10: every refusal is a problem)', () => {
  it("is a 417 problem with X-Request-Id, not Node's bare 417, on every interface", async () => {
    const probe = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n');
    expect(expectProblemAnswer(probe, 417, 'expectation_failed').detail).toContain('Expect');
    const body = JSON.stringify({ name: 'Never made', plan: 'free' });
    const management = await raw(
      `POST /admin/v1/teams HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n${body}`,
    );
    expectProblemAnswer(management, 417, 'expectation_failed');
    const teams = await t.service.ctx.db.selectFrom('teams').select('id').where('name', '=', 'Never made').execute();
    expect(teams).toEqual([]);
  });

  it('on /v1 it comes after admission, with the rate headers, as the served OpenAPI document says', async () => {
    const withoutKey = await raw('GET /v1/teams HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n');
    expectProblemAnswer(withoutKey, 401, 'invalid_key');
    const admitted = await raw(`GET /v1/teams HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`);
    expectProblemAnswer(admitted, 417, 'expectation_failed');
    expect(admitted.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    // Checked against the served document by the harness.
    expect((await t.get('/v1/teams', key, { expect: 'something-else' })).statusCode).toBe(417);
  });
});

describe("what Node's parser refuses gets the same problem shape and headers", () => {
  it('headers too large: 431 application/problem+json with X-Request-Id', async () => {
    const answer = await raw(`GET /v1/guides HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`);
    const body = expectProblemAnswer(answer, 431, 'headers_too_large');
    expect(body.type).toMatch(/\/docs#error-headers_too_large$/);
  });

  it('bytes that are not HTTP: 400 problem', async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    expectProblemAnswer(answer, 400, 'invalid_request');
  });
});

// Hostile and odd input on the v1 interface (spec §4, §7; decisions §4): every answer is a 4xx problem
// with a detail, or a 200; never a 500, never a stack trace or a file path.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponse } from '../../support/openapi-conformance.js';
import { createGuide, organizationWithTeams, startTestService, type TestService } from '../../support/service.js';

// Stack lines ("    at fn (file:1:2)"), source positions and paths of this machine.
const LEAKS = [/(^|\\n|\n)\s*at\s+\S/, /\bat\s+[\w.<>]+\s+\(/, /\.(?:[cm]?[jt]s):\d+/, /\/work\//, /node_modules/, /file:\/\//, /\bError:\s/];

interface Fixture {
  key: string;
  teamId: string;
  otherTeamId: string;
  guideId: string;
  permalink: string;
}

interface Odd {
  name: string;
  method?: 'GET' | 'HEAD';
  url: (f: Fixture) => string;
  headers?: (f: Fixture) => Record<string, string>;
  payload?: string;
  /** Extra expectations beyond "4xx problem or 200". */
  expect?: { status?: number; code?: string; detailContains?: string };
}

let t: TestService;
let f: Fixture;

async function send(odd: Odd): Promise<LightMyRequestResponse> {
  return t.service.app.inject({
    method: odd.method ?? 'GET',
    url: odd.url(f),
    headers: odd.headers ? odd.headers(f) : { authorization: `Bearer ${f.key}` },
    ...(odd.payload === undefined ? {} : { payload: odd.payload }),
  });
}

/** A 4xx problem with a detail, or a 200; never a 500 and nothing that leaks the inside. */
function expectSafeAnswer(response: LightMyRequestResponse, where: string) {
  const status = response.statusCode;
  expect(status, `${where}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  expect(status === 200 || (status >= 400 && status < 500), `${where}: status ${status}`).toBe(true);
  for (const leak of LEAKS) expect(response.body, `${where} leaks ${leak}`).not.toMatch(leak);
  if (response.body === '') return; // HEAD
  if (status === 200) {
    expect(response.headers['content-type'], where).toMatch(/^application\/json/);
    expect(() => response.json(), where).not.toThrow();
    return;
  }
  expect(response.headers['content-type'], where).toMatch(/^application\/problem\+json/);
  const body = response.json();
  expect(body.status, where).toBe(status);
  expect(typeof body.code, where).toBe('string');
  expect(typeof body.detail, where).toBe('string');
  expect(body.detail.length, where).toBeGreaterThan(0);
}

const long = (n: number, ch = 'a') => ch.repeat(n);

const ODD: Odd[] = [
  // Unknown parameters, on every endpoint.
  { name: 'unknown parameter on /auth/verify', url: () => '/v1/auth/verify?verbose=1', expect: { status: 400, code: 'invalid_request', detailContains: 'verbose' } },
  { name: 'unknown parameter on /guides', url: () => '/v1/guides?sort=title', expect: { status: 400, code: 'invalid_request', detailContains: 'sort' } },
  { name: 'unknown parameter on /guides/{guideId}', url: (x) => `/v1/guides/${x.guideId}?expand=steps`, expect: { status: 400, code: 'invalid_request', detailContains: 'expand' } },
  { name: 'unknown parameter on /guides/{permalink}', url: (x) => `/v1/guides/${x.permalink}?format=html`, expect: { status: 400, code: 'invalid_request', detailContains: 'format' } },
  { name: 'unknown parameter on /teams', url: () => '/v1/teams?page=2', expect: { status: 400, code: 'invalid_request', detailContains: 'page' } },
  { name: 'unknown parameter on /members', url: (x) => `/v1/members?team_id=${x.teamId}&role=ADMIN`, expect: { status: 400, code: 'invalid_request', detailContains: 'role' } },
  { name: 'parameter name differing only in case', url: () => '/v1/guides?Limit=5', expect: { status: 400, code: 'invalid_request', detailContains: 'Limit' } },
  { name: 'parameter with an empty name', url: () => '/v1/guides?=x', expect: { status: 400, code: 'invalid_request' } },
  { name: 'prototype-looking parameter __proto__', url: () => '/v1/guides?__proto__=x', expect: { status: 400, code: 'invalid_request', detailContains: '__proto__' } },
  { name: 'prototype-looking parameter constructor', url: () => '/v1/teams?constructor=x', expect: { status: 400, code: 'invalid_request', detailContains: 'constructor' } },
  // Repeated parameters.
  { name: 'repeated q', url: () => '/v1/guides?q=ab&q=cd', expect: { status: 400, code: 'invalid_request', detailContains: "'q'" } },
  { name: 'repeated limit', url: () => '/v1/guides?limit=5&limit=5', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'repeated team_id on /guides', url: (x) => `/v1/guides?team_id=${x.teamId}&team_id=${x.teamId}`, expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'repeated cursor', url: () => '/v1/guides?cursor=a&cursor=b', expect: { status: 400, code: 'invalid_request', detailContains: 'cursor' } },
  { name: 'repeated team_id on /members', url: (x) => `/v1/members?team_id=${x.teamId}&team_id=${x.otherTeamId}`, expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'repeated unknown parameter', url: () => '/v1/teams?x=1&x=2', expect: { status: 400, code: 'invalid_request', detailContains: "'x'" } },
  // Huge values.
  { name: '10k-character q', url: () => `/v1/guides?q=${long(10_000)}`, expect: { status: 400, code: 'invalid_request', detailContains: "'q'" } },
  { name: '201-character q', url: () => `/v1/guides?q=${long(201)}`, expect: { status: 400, code: 'invalid_request', detailContains: "'q'" } },
  { name: '100k-character URL (q)', url: () => `/v1/guides?q=${long(100_000)}`, expect: { status: 400, code: 'invalid_request', detailContains: "'q'" } },
  { name: '100k-character URL (guide path)', url: () => `/v1/guides/${long(100_000)}`, expect: { status: 404, code: 'not_found' } },
  { name: '100k-character URL (parameter name)', url: () => `/v1/teams?${long(100_000, 'p')}=1`, expect: { status: 400, code: 'invalid_request' } },
  { name: '100k-character URL (team_id)', url: () => `/v1/members?team_id=${long(100_000, '0')}`, expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: '100k-character URL (cursor)', url: () => `/v1/guides?cursor=${long(100_000, 'c')}`, expect: { status: 400, code: 'invalid_request', detailContains: 'cursor' } },
  { name: 'huge limit', url: () => `/v1/guides?limit=${long(400, '9')}`, expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  // Null bytes.
  { name: 'null byte in q', url: () => '/v1/guides?q=ab%00cd', expect: { status: 400, code: 'invalid_request', detailContains: "'q'" } },
  { name: 'only null bytes in q', url: () => '/v1/guides?q=%00%00', expect: { status: 400, code: 'invalid_request', detailContains: "'q'" } },
  { name: 'null byte in the guide path', url: () => '/v1/guides/ab%00cd', expect: { status: 404, code: 'not_found' } },
  { name: 'null byte as the guide path', url: () => '/v1/guides/%00', expect: { status: 404, code: 'not_found' } },
  { name: 'null byte after a real guide id', url: (x) => `/v1/guides/${x.guideId}%00`, expect: { status: 404, code: 'not_found' } },
  { name: 'null byte in team_id', url: (x) => `/v1/members?team_id=${x.teamId}%00`, expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'null byte in a path segment', url: () => '/v1/te%00ams', expect: { status: 404, code: 'not_found' } },
  { name: 'null byte in a parameter name', url: () => '/v1/guides?li%00mit=5', expect: { status: 400, code: 'invalid_request' } },
  // Invalid percent-encoding.
  { name: '%ZZ in q', url: () => '/v1/guides?q=%ZZ' },
  { name: 'truncated UTF-8 %E0%A4%A in q', url: () => '/v1/guides?q=%E0%A4%A' },
  { name: 'lone % in q', url: () => '/v1/guides?q=ab%' },
  { name: '%ZZ in the guide path', url: () => '/v1/guides/%ZZ' },
  { name: 'truncated UTF-8 %E0%A4%A in the guide path', url: () => '/v1/guides/%E0%A4%A' },
  { name: '%ZZ in team_id', url: () => '/v1/members?team_id=%ZZ', expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'overlong UTF-8 %C0%AF in the guide path', url: () => '/v1/guides/%C0%AF' },
  { name: 'encoded slash in the guide path', url: () => '/v1/guides/..%2F..%2Fetc%2Fpasswd', expect: { status: 404, code: 'not_found' } },
  // SQL- and FTS-looking text is data.
  { name: "SQL in q: ' OR 1=1 --", url: () => `/v1/guides?q=${encodeURIComponent("' OR 1=1 --")}`, expect: { status: 200 } },
  { name: 'SQL in q: DROP TABLE', url: () => `/v1/guides?q=${encodeURIComponent("x'); DROP TABLE guides; --")}`, expect: { status: 200 } },
  { name: 'FTS syntax in q: NEAR and quotes', url: () => `/v1/guides?q=${encodeURIComponent('NEAR("a" "b") OR title:*')}`, expect: { status: 200 } },
  { name: 'FTS syntax in q: lone double quotes', url: () => `/v1/guides?q=${encodeURIComponent('"""')}`, expect: { status: 200 } },
  { name: 'FTS syntax in q: star and caret', url: () => `/v1/guides?q=${encodeURIComponent('^ab*')}`, expect: { status: 200 } },
  { name: 'SQL in the guide path', url: () => `/v1/guides/${encodeURIComponent("1' OR '1'='1")}`, expect: { status: 404, code: 'not_found' } },
  { name: 'SQL in team_id', url: () => `/v1/guides?team_id=${encodeURIComponent("' OR 1=1 --")}`, expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'SQL in cursor', url: () => `/v1/guides?cursor=${encodeURIComponent("' UNION SELECT * FROM api_keys --")}`, expect: { status: 400, code: 'invalid_request', detailContains: 'cursor' } },
  { name: 'SQL in limit', url: () => `/v1/guides?limit=${encodeURIComponent('1; DELETE FROM guides')}`, expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  // Odd Unicode.
  { name: 'encoded lone high surrogate in q', url: () => '/v1/guides?q=%ED%A0%80ab' },
  { name: 'encoded lone low surrogate in q', url: () => '/v1/guides?q=ab%ED%B0%80' },
  { name: 'JSON-style lone surrogate escape in q', url: () => '/v1/guides?q=%5Cud800ab' },
  { name: 'lone surrogate in the guide path', url: () => '/v1/guides/%ED%A0%80' },
  { name: 'RTL marks in q', url: () => `/v1/guides?q=${encodeURIComponent('\u200F\u202Eab\u202C')}`, expect: { status: 200 } },
  { name: 'zero-width joiners in q', url: () => `/v1/guides?q=${encodeURIComponent('a\u200Db\u200D')}`, expect: { status: 200 } },
  { name: 'emoji in q', url: () => `/v1/guides?q=${encodeURIComponent('👩‍💻🚀')}`, expect: { status: 200 } },
  { name: 'emoji in the guide path', url: () => `/v1/guides/${encodeURIComponent('🚀-guide')}`, expect: { status: 404, code: 'not_found' } },
  { name: 'RTL override in the guide path', url: () => `/v1/guides/${encodeURIComponent('\u202Eediug')}`, expect: { status: 404, code: 'not_found' } },
  { name: 'BOM and non-characters in q', url: () => `/v1/guides?q=${encodeURIComponent('\uFEFF\uFFFFab')}` },
  { name: 'combining marks in q', url: () => `/v1/guides?q=${encodeURIComponent('e\u0301\u0301\u0301')}`, expect: { status: 200 } },
  { name: 'emoji in team_id', url: () => `/v1/members?team_id=${encodeURIComponent('🚀')}`, expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  // Numbers written oddly.
  { name: 'limit=1e1', url: () => '/v1/guides?limit=1e1' },
  { name: 'limit=0x10', url: () => '/v1/guides?limit=0x10' },
  { name: 'limit=%20', url: () => '/v1/guides?limit=%20', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit empty', url: () => '/v1/guides?limit=', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit=1.5', url: () => '/v1/guides?limit=1.5', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit=-1', url: () => '/v1/guides?limit=-1', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit=101', url: () => '/v1/guides?limit=101', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit=Infinity', url: () => '/v1/guides?limit=Infinity', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit=-Infinity', url: () => '/v1/guides?limit=-Infinity', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit=1e400', url: () => '/v1/guides?limit=1e400', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit=NaN', url: () => '/v1/guides?limit=NaN', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  { name: 'limit=true', url: () => '/v1/guides?limit=true', expect: { status: 400, code: 'invalid_request', detailContains: 'limit' } },
  // Array and object syntax.
  { name: 'team_id[]=x on /guides', url: () => '/v1/guides?team_id[]=x', expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'team_id[]=x on /members', url: () => '/v1/members?team_id[]=x', expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'team_id[0]=<uuid> on /members', url: (x) => `/v1/members?team_id[0]=${x.teamId}`, expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'q[a]=b on /guides', url: () => '/v1/guides?q[a]=bc', expect: { status: 400, code: 'invalid_request', detailContains: 'q' } },
  { name: 'encoded brackets team_id%5B%5D', url: () => '/v1/guides?team_id%5B%5D=x', expect: { status: 400, code: 'invalid_request', detailContains: 'team_id' } },
  { name: 'semicolon separators', url: () => '/v1/guides?limit=5;q=ab' },
  { name: 'empty pairs &&', url: () => '/v1/guides?&&', expect: { status: 200 } },
  // Authorization oddities.
  { name: 'very long Authorization header (100k)', url: () => '/v1/teams', headers: () => ({ authorization: `Bearer ${long(100_000, 'k')}` }), expect: { status: 401, code: 'invalid_key' } },
  { name: 'very long Authorization with a key prefix', url: () => '/v1/teams', headers: () => ({ authorization: `Bearer gsk_${long(20_000, 'A')}` }), expect: { status: 401, code: 'invalid_key' } },
  { name: 'Authorization with a null byte', url: () => '/v1/teams', headers: (x) => ({ authorization: `Bearer ${x.key}\u0000` }), expect: { status: 401, code: 'invalid_key' } },
  { name: 'Authorization with two bearers', url: () => '/v1/teams', headers: (x) => ({ authorization: `Bearer ${x.key}, Bearer ${x.key}` }), expect: { status: 401, code: 'invalid_key' } },
  { name: 'SQL in Authorization', url: () => '/v1/teams', headers: () => ({ authorization: "Bearer ' OR 1=1 --" }), expect: { status: 401, code: 'invalid_key' } },
  // Bodies sent with GET.
  { name: 'JSON body with GET', url: () => '/v1/teams', headers: (x) => ({ authorization: `Bearer ${x.key}`, 'content-type': 'application/json' }), payload: '{"team_id":"x"}' },
  { name: 'broken JSON body with GET', url: () => '/v1/guides', headers: (x) => ({ authorization: `Bearer ${x.key}`, 'content-type': 'application/json' }), payload: '{"a":' },
  { name: 'text body with GET', url: () => '/v1/auth/verify', headers: (x) => ({ authorization: `Bearer ${x.key}`, 'content-type': 'text/plain' }), payload: 'hello' },
  { name: 'unknown media type body with GET', url: (x) => `/v1/members?team_id=${x.teamId}`, headers: (x) => ({ authorization: `Bearer ${x.key}`, 'content-type': 'application/x-weird' }), payload: '\u0000\u0001' },
  { name: '2 MB body with GET', url: (x) => `/v1/guides/${x.guideId}`, headers: (x) => ({ authorization: `Bearer ${x.key}`, 'content-type': 'application/json' }), payload: JSON.stringify({ big: long(2_000_000) }) },
  { name: 'prototype pollution body with GET', url: () => '/v1/teams', headers: (x) => ({ authorization: `Bearer ${x.key}`, 'content-type': 'application/json' }), payload: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}' },
  { name: 'HEAD with a body', method: 'HEAD', url: () => '/v1/teams', headers: (x) => ({ authorization: `Bearer ${x.key}`, 'content-type': 'application/json' }), payload: '{}' },
];

beforeAll(async () => {
  t = await startTestService();
  const { teams, key } = await organizationWithTeams(t, 'growth', 2);
  const guide = await createGuide(t, teams[0].id, { title: 'Known guide', steps: [{ text: 'One' }] });
  f = { key, teamId: teams[0].id, otherTeamId: teams[1].id, guideId: guide.id, permalink: guide.permalink };
});
afterAll(() => t.close());

describe('odd input answers a 4xx problem with a detail or a 200, never a 500 or a stack trace (spec §7)', () => {
  it.each(ODD.map((odd) => [odd.name, odd] as const))('%s', async (_name, odd) => {
    const response = await send(odd);
    expectSafeAnswer(response, odd.name);
    if (odd.expect?.status !== undefined) expect(response.statusCode, `${odd.name}: ${response.body.slice(0, 300)}`).toBe(odd.expect.status);
    if (odd.expect?.code !== undefined) expect(response.json().code, odd.name).toBe(odd.expect.code);
    if (odd.expect?.detailContains !== undefined) expect(response.json().detail, odd.name).toContain(odd.expect.detailContains);
  });
});

describe('odd input still gets the answer of the interface', () => {
  it('every answer to odd input carries X-Request-Id, RateLimit-Limit and RateLimit-Remaining (spec §4)', async () => {
    const missing: string[] = [];
    for (const odd of ODD) {
      const response = await send(odd);
      for (const header of ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining']) {
        if (response.headers[header] === undefined) missing.push(`${odd.name} (${response.statusCode}) lacks ${header}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every answer to odd input matches the served OpenAPI document', async () => {
    const failures: string[] = [];
    for (const odd of ODD) {
      const response = await send(odd);
      try {
        await checkResponse(t.service, odd.method ?? 'GET', odd.url(f), response);
      } catch (error) {
        failures.push(`${odd.name}: ${String((error as Error).message).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('without a key, odd paths and parameters are refused with 401 invalid_key first (decisions §4)', async () => {
    const wrong: string[] = [];
    for (const url of ['/v1/guides/%ZZ', '/v1/guides/%E0%A4%A', `/v1/guides/${long(101)}`, '/v1/guides?q=%00', '/v1/members?team_id[]=x', '/v1/teams?x=1']) {
      const response = await t.service.app.inject({ method: 'GET', url });
      expectSafeAnswer(response, url);
      if (response.statusCode !== 401) wrong.push(`${url.slice(0, 60)} → ${response.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('long path segments and special characters are data, not syntax', () => {
  it('a guide with a permalink of the maximum 120 characters is read by its permalink (decisions §2)', async () => {
    const permalink = `a${'-b'.repeat(59)}c`; // 120 characters
    expect(permalink).toHaveLength(120);
    const guide = await createGuide(t, f.teamId, { title: 'Longest permalink', permalink });
    expect(guide.permalink).toBe(permalink);
    const response = await t.service.app.inject({ method: 'GET', url: `/v1/guides/${permalink}`, headers: { authorization: `Bearer ${f.key}` } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.id).toBe(guide.id);
  });

  it('%, _, \\ and quotes in q are plain characters, and SQL-looking text changes nothing (decisions §4)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 1);
    const titles = ['100% done', 'snake_case name', 'back\\slash path', "it's quoted", 'say "hello"', 'plain title'];
    const made = new Map<string, string>();
    for (const title of titles) made.set(title, (await createGuide(t, teams[0].id, { title })).id);

    const search = async (q: string) => {
      const response = await t.get(`/v1/guides?q=${encodeURIComponent(q)}`, key);
      expectSafeAnswer(response, `q=${q}`);
      expect(response.statusCode, `q=${q}: ${response.body}`).toBe(200);
      return response.json().data.map((guide: { title: string }) => guide.title).sort();
    };
    expect(await search('0%')).toEqual(['100% done']);
    expect(await search('%%')).toEqual([]);
    expect(await search('e_c')).toEqual(['snake_case name']);
    expect(await search('__')).toEqual([]);
    expect(await search('k\\s')).toEqual(['back\\slash path']);
    expect(await search("'s")).toEqual(["it's quoted"]);
    expect(await search('"hello"')).toEqual(['say "hello"']);
    expect(await search('"h')).toEqual(['say "hello"']);
    expect(await search("' OR '1'='1")).toEqual([]);
    expect(await search("'; DELETE FROM guides; --")).toEqual([]);
    expect(await search('title:plain')).toEqual([]);
    expect(await search('pla*')).toEqual([]);

    const all = (await t.get('/v1/guides', key)).json().data;
    expect(all).toHaveLength(titles.length);
  });

  it('odd Unicode in titles is found by q and returned intact (decisions §4)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 1);
    const titles = ['Écran 🚀 launch', 'שלום עולם', 'dev 👩‍💻 setup', 'zero\u200Dwidth'];
    for (const title of titles) await createGuide(t, teams[0].id, { title });
    const search = async (q: string) => {
      const response = await t.get(`/v1/guides?q=${encodeURIComponent(q)}`, key);
      expectSafeAnswer(response, `q=${q}`);
      expect(response.statusCode).toBe(200);
      return response.json().data.map((guide: { title: string }) => guide.title);
    };
    expect(await search('🚀 l')).toEqual(['Écran 🚀 launch']);
    expect(await search('écran')).toEqual(['Écran 🚀 launch']);
    expect(await search('👩‍💻')).toEqual(['dev 👩‍💻 setup']);
    expect(await search('שלום')).toEqual(['שלום עולם']);
    expect(await search('o\u200Dw')).toEqual(['zero\u200Dwidth']);
    expect(await search('\u200F\u200F')).toEqual([]);
  });
});

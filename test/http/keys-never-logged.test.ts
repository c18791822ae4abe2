// No key reaches the log (decisions §10), wherever a client puts it: the path and the query, raw,
// percent-encoded once, twice or character by character, every header (X-Request-Id, User-Agent, Referer,
// Host and X-Forwarded-For behind a trusted proxy among them) and the body. A client's X-Request-Id is
// kept only in the safe shape (1-128 of A-Z a-z 0-9 . _ : -, not shaped like a credential), otherwise
// replaced, so that it is neither logged nor echoed back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, organizationWithTeams, startTestService, type TestService } from '../support/service.js';

let t: TestService;
const lines: string[] = [];
beforeAll(async () => {
  // Behind a trusted proxy the logged address comes from X-Forwarded-For, which the client writes.
  t = await startTestService({ TRUST_PROXY: 'true' }, { logLines: lines });
});
afterAll(() => t.close());

/** Every character percent-encoded, as some clients and attackers write them. */
const encodeAll = (text: string) => [...text].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`).join('');

describe('a key sent anywhere a client can put it is nowhere in the log', () => {
  it('path, query (raw and encoded), every header and the body, on every interface', async () => {
    const { key, teams } = await organizationWithTeams(t);
    const rest = key.slice(4);
    const underscoreEncoded = `gsk%5F${rest}`;
    const urls = [
      `/v1/guides/${key}`,
      `/v1/guides/${underscoreEncoded}`,
      `/v1/guides/${encodeAll(key)}`,
      `/admin/v1/teams/${key}`,
      `/console/${underscoreEncoded}`,
      `/nowhere/${encodeURIComponent(encodeURIComponent(key))}`,
      `/v1/guides?q=${key}`,
      `/v1/guides?x=${underscoreEncoded}`,
      `/v1/guides?x=${encodeAll(key)}`,
      `/v1/guides?x=${encodeURIComponent(encodeURIComponent(key))}`,
      `/v1/guides?${underscoreEncoded}=1`,
      `/v1/guides?${encodeAll('api_key')}=${key}`,
      `/admin/v1/organizations?note=${underscoreEncoded}`,
      `/mcp?x=${underscoreEncoded}`,
    ];
    const headers: Record<string, string>[] = [
      { authorization: `Bearer ${key}` },
      { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
      { authorization: key },
      { 'x-request-id': key },
      { 'x-request-id': rest },
      { 'user-agent': `client/1.0 (${key})` },
      { referer: `https://app.example/settings?key=${key}` },
      { cookie: `api_key=${key}` },
      { 'x-api-key': key },
      { 'x-forwarded-for': key },
      { 'x-forwarded-for': `${rest}, 10.0.0.1` },
      { host: key },
      { host: underscoreEncoded },
      { origin: `https://${rest}.example` },
      { accept: key },
      { 'if-none-match': `"${key}"` },
      { 'x-csrf-token': key },
    ];
    for (const url of urls) await t.service.app.inject({ method: 'GET', url });
    for (const header of headers) {
      await t.service.app.inject({ method: 'GET', url: '/v1/teams', headers: header });
      await t.service.app.inject({ method: 'GET', url: '/admin/v1/organizations', headers: header });
    }
    const posts: Array<{ url: string; body: unknown; headers?: Record<string, string> }> = [
      { url: '/admin/v1/guides', body: { team_id: teams[0].id, title: key, description: underscoreEncoded }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      { url: '/admin/v1/guides', body: { team_id: key }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      { url: '/admin/v1/guides', body: { [key]: 1 }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      { url: '/mcp', body: { jsonrpc: '2.0', id: key, method: 'tools/call', params: { name: 'get_guide', arguments: { guide_id: key } } }, headers: { authorization: `Bearer ${key}` } },
      { url: '/console/api/sign-in-links', body: { email: `${key}@example.com` } },
      { url: '/console/api/session', body: { token: key } },
      { url: '/console/api/session/operator', body: { admin_token: key } },
    ];
    for (const { url, body, headers: extra } of posts) {
      await t.service.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'http://api.test', ...extra },
        payload: JSON.stringify(body),
      });
    }
    // A body that is not JSON, with the key in it.
    await t.service.app.inject({ method: 'POST', url: '/admin/v1/guides', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, payload: `{"title": ${key}` });

    expect(lines.length).toBeGreaterThan(urls.length + headers.length);
    // The URL keeps its shape: only what held the key is replaced.
    const urlsLogged = lines.map((line) => JSON.parse(line).req?.url);
    expect(urlsLogged).toContain('/v1/guides/[redacted]');
    expect(urlsLogged).toContain('/v1/guides?x=[redacted]');
    expect(urlsLogged).toContain('/v1/guides?[redacted]=1');
    // A cursor is not a credential: it stays, for whoever reads the log.
    for (let i = 0; i < 2; i++) await t.admin('POST', '/guides', { team_id: teams[0].id, title: `Paged ${i}` });
    const cursor = (await t.get('/v1/guides?limit=1', key)).json().next_cursor;
    await t.get(`/v1/guides?limit=1&cursor=${cursor}`, key);
    expect(lines.at(-1)).toContain(`/v1/guides?limit=1&cursor=${cursor}`);
    for (const form of [key, rest, underscoreEncoded, encodeAll(key), encodeAll(rest), ADMIN_TOKEN]) {
      expect(lines.filter((line) => line.includes(form))).toEqual([]);
    }
  });
});

describe('X-Request-Id', () => {
  const idOf = async (requestId: string) => (await t.service.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': requestId } })).headers['x-request-id'];

  it('a safe one is kept: 1-128 of A-Z a-z 0-9 . _ : -', async () => {
    for (const kept of ['abc', 'req-1.2_3:4', 'A'.repeat(128), '3f1c2d4e-0b5a-4c1d-9e2f-1a2b3c4d5e6f', 'trace:0af7651916cd43dd:b7ad6b7169203331']) {
      expect(await idOf(kept)).toBe(kept);
    }
  });

  it('anything else is replaced: too long, other characters, or the shape of a key or token', async () => {
    const { key } = await organizationWithTeams(t);
    for (const replaced of ['A'.repeat(129), 'has space', 'semi;colon', 'ünïcode', key, key.slice(4) + 'x'.repeat(5) + key, 'adm_0123456789abcdef', 'x'.repeat(43), 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig']) {
      const id = await idOf(replaced);
      expect(id).not.toBe(replaced);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});

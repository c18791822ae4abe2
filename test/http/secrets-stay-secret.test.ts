// Secrets stay secret (issue 13, items 7, 11, 12): a key or token never reaches the log, wherever the
// client put it; answers that carry a secret are never kept by a cache; endpoint URLs carry no credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePost } from '../console/sessions.js';
import { ADMIN_TOKEN, createKey, organizationWithTeams, startTestService, type TestService } from '../support/service.js';
import { expectProblem } from './admin/helpers.js';

let t: TestService;
const lines: string[] = [];

beforeAll(async () => {
  t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { logLines: lines });
});
afterAll(() => t.close());

describe('a credential never reaches the log, wherever the client put it', () => {
  it('an API key and the admin token in the query, the path, headers and cookies', async () => {
    const { key, teams } = await organizationWithTeams(t);
    const placements: Array<{ url: string; headers?: Record<string, string> }> = [
      { url: `/v1/guides?api_key=${key}` },
      { url: `/v1/guides?token=${key}&limit=5` },
      { url: `/v1/guides?access_token=${encodeURIComponent(key)}` },
      { url: `/v1/guides?q=${key}`, headers: { authorization: `Bearer ${key}` } },
      { url: `/v1/guides/${key}`, headers: { authorization: `bearer ${key}` } },
      { url: '/v1/teams', headers: { 'x-api-key': key, cookie: `key=${key}` } },
      { url: `/admin/v1/organizations?token=${ADMIN_TOKEN}` },
      { url: `/admin/v1/organizations?admin_token=${ADMIN_TOKEN}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      { url: `/admin/v1/teams/${teams[0].id}?password=${ADMIN_TOKEN}` },
    ];
    for (const { url, headers } of placements) await t.service.app.inject({ method: 'GET', url, headers });
    const log = lines.join('\n');
    expect(log).toContain('/v1/guides?api_key=[redacted]');
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(4));
    expect(log).not.toContain(ADMIN_TOKEN);
  });
});

describe('answers that carry a secret say Cache-Control: no-store', () => {
  it("a key's creation, the signing-key reveal and the console session", async () => {
    const { teams } = await organizationWithTeams(t);
    const key = await t.adminRaw('POST', '/api-keys', { home: { type: 'team', id: teams[0].id }, name: 'k', scopes: ['guides:read'], expires_in_days: 30 });
    expect(key.statusCode).toBe(201);
    expect(key.headers['cache-control']).toBe('no-store');
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: teams[0].id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    const reveal = await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
    expect(reveal.statusCode).toBe(200);
    expect(reveal.headers['cache-control']).toBe('no-store');
    const session = await consolePost(t, '/session/operator', { admin_token: ADMIN_TOKEN });
    expect(session.statusCode).toBe(200);
    expect(session.headers['cache-control']).toBe('no-store');
    const whoami = await t.service.app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie: String(session.headers['set-cookie']).split(';')[0]! } });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.headers['cache-control']).toBe('no-store');
    await createKey(t, { type: 'team', id: teams[0].id });
  });
});

describe('a webhook URL carries no credentials', () => {
  for (const url of [
    'http://user:pass@example.com/hook',
    'https://user@example.com/hook',
    'http://127.0.0.1%2f@example.com/',
    'http://@example.com/hook',
    'http://a:b@127.0.0.1:9/hook',
  ]) {
    it(`${url} is a 400 naming the url`, async () => {
      const { teams } = await organizationWithTeams(t);
      const response = await t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'team', id: teams[0].id }, url, events: ['guide.created'] });
      expectProblem(response, 400, 'invalid_request');
      expect(response.json().detail).toMatch(/url must not contain a user name or password/);
    });
  }

  it('nor on a change of URL', async () => {
    const { teams } = await organizationWithTeams(t);
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: teams[0].id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    expectProblem(await t.adminRaw('PATCH', `/webhook-endpoints/${endpoint.id}`, { url: 'http://u:p@127.0.0.1:9/hook' }), 400, 'invalid_request');
  });

  it('an @ in the path or query is fine', async () => {
    const { teams } = await organizationWithTeams(t);
    const response = await t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'team', id: teams[0].id }, url: 'http://127.0.0.1:9/hook/@me?to=a@b', events: ['guide.created'] });
    expect(response.statusCode, response.body).toBe(201);
  });
});

describe('the request log', () => {
  it('one line per request at info, with the redacted URL, the status and the time', async () => {
    const before = lines.length;
    await t.service.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    // The probes are not logged at info (issue 15).
    await t.service.app.inject({ method: 'GET', url: '/healthz' });
    await t.service.app.inject({ method: 'GET', url: '/v1/guides?token=secret-value' });
    const written = lines.slice(before).map((line) => JSON.parse(line));
    expect(written).toHaveLength(2);
    expect(written.map((line) => [line.msg, line.level, line.req.method, line.req.url, line.res.statusCode])).toEqual([
      ['request answered', 30, 'GET', '/v1/openapi.json', 200],
      ['request answered', 30, 'GET', '/v1/guides?token=[redacted]', 401],
    ]);
    expect(typeof written[0].responseTime).toBe('number');
    expect(written[0].request_id).toMatch(/\S/);
  });
});

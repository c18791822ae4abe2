// Browsers and the bearer-key interfaces (docs/decisions.md "Cross-origin requests (CORS)"): /v1 and /mcp
// are for servers, whose keys are secrets, so they grant no cross-origin access. A browser's preflight is
// answered plainly (204 with Allow and a Link to /docs#cross-origin, no Access-Control-Allow-* header, so
// the browser refuses the call) instead of a 401 that told someone who had sent a key that it was missing
// (preflights carry no credentials). The OpenAPI document, public and without secrets, may be read from
// any page.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, soloTeam, startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

const ORIGIN = 'https://app.example.com';
const preflight = (url: string, method = 'GET', headers: Record<string, string> = {}) =>
  t.service.app.inject({
    method: 'OPTIONS',
    url,
    headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'authorization', ...headers },
  });

function expectNoGrant(response: LightMyRequestResponse): void {
  for (const name of Object.keys(response.headers)) expect(name, `${response.statusCode} ${name}`).not.toMatch(/^access-control-/);
}

describe('cross-origin requests to /v1 and /mcp', () => {
  it('a preflight on a v1 path is answered 204 with Allow and a Link to why, granting nothing, not 401', async () => {
    for (const path of ['/v1/guides', '/v1/guides/some-guide', '/v1/events?types=guide.created', '/v1/auth/verify']) {
      const response = await preflight(path);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers.allow).toBe('GET, HEAD');
      expect(response.headers.link).toBe(`<${PUBLIC_URL}/docs#cross-origin>; rel="help"`);
      expect(response.headers['x-request-id']).toBeTruthy();
      expect(response.headers['www-authenticate']).toBeUndefined();
      expectNoGrant(response);
    }
  });

  it('a preflight is counted against the client address like the public document, and carries its rate headers', async () => {
    const first = await preflight('/v1/teams');
    const second = await preflight('/v1/teams');
    for (const response of [first, second]) expect(response.headers['ratelimit-limit']).toBe('600');
    expect(Number(second.headers['ratelimit-remaining'])).toBe(Number(first.headers['ratelimit-remaining']) - 1);
  });

  it('a preflight on /mcp gets the same answer, with Allow: POST', async () => {
    const response = await preflight('/mcp', 'POST', { 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' });
    expect(response.statusCode, response.body).toBe(204);
    expect(response.headers.allow).toBe('POST');
    expect(response.headers.link).toBe(`<${PUBLIC_URL}/docs#cross-origin>; rel="help"`);
    expectNoGrant(response);
  });

  it('a call from a page, key and all, is answered as any call, without a grant: the browser does not show it', async () => {
    const { key } = await soloTeam(t);
    const response = await t.get('/v1/teams', key, { origin: ORIGIN });
    expect(response.statusCode).toBe(200);
    expectNoGrant(response);
  });

  it('an OPTIONS that is not a preflight is still a v1 request: 401 without a key, 405 with one', async () => {
    const { key } = await soloTeam(t);
    expect((await t.request('OPTIONS', '/v1/guides', null)).statusCode).toBe(401);
    const withKey = await t.request('OPTIONS', '/v1/guides', key, { origin: ORIGIN });
    expect(withKey.statusCode).toBe(405);
    expect(withKey.headers.allow).toBe('GET, HEAD');
  });

  it('the OpenAPI document may be read from any page: Access-Control-Allow-Origin *', async () => {
    const response = await t.service.app.inject({ url: '/v1/openapi.json', headers: { origin: ORIGIN } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('/docs says why, under the id the Link names', async () => {
    const page = (await t.service.app.inject({ url: '/docs' })).body;
    const section = page.slice(page.indexOf('id="cross-origin"'));
    expect(page).toContain('id="cross-origin"');
    expect(section.slice(0, 2000)).toMatch(/back end/);
  });
});

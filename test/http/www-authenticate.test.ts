// Every 401 says how to authenticate (RFC 9110 §11.6.1, RFC 6750 §3; docs/decisions.md "REST interface"):
// `WWW-Authenticate: Bearer realm="guide-service"`, on /v1, /mcp and the management API alike, all three
// taking a bearer credential. A request that sent no bearer token (none, or another scheme) gets the bare
// challenge; one whose token was refused also gets error="invalid_token" with a description. Other
// refusals (403, 429) carry none: the credential was not the problem.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createKey, soloTeam, startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(() => t?.close());

const CHALLENGE = 'Bearer realm="guide-service"';
const refused = (description: string) => `${CHALLENGE}, error="invalid_token", error_description="${description}"`;
const UNKNOWN_KEY = refused('The API key is malformed, unknown or revoked');

function challengeOf(response: LightMyRequestResponse, status = 401): string | undefined {
  expect(response.statusCode, response.body).toBe(status);
  return response.headers['www-authenticate'] as string | undefined;
}

const mcp = (authorization?: string) =>
  t.service.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });

describe('WWW-Authenticate on every 401', () => {
  it('/v1: the bare challenge without a bearer token, invalid_token with a refused one, on every path', async () => {
    for (const path of ['/v1/auth/verify', '/v1/guides?limit=0', '/v1/events', '/v1/no-such-path']) {
      expect(challengeOf(await t.get(path, null)), path).toBe(CHALLENGE);
      expect(challengeOf(await t.get(path, null, { authorization: 'Basic dXNlcjpwYXNz' })), path).toBe(CHALLENGE);
      expect(challengeOf(await t.get(path, 'gsk_not-a-real-key')), path).toBe(UNKNOWN_KEY);
    }
    expect(challengeOf(await t.request('DELETE', '/v1/guides', 'gsk_not-a-real-key'))).toBe(UNKNOWN_KEY);
  });

  it('/mcp: the same challenges', async () => {
    expect(challengeOf(await mcp())).toBe(CHALLENGE);
    expect(challengeOf(await mcp('Basic dXNlcjpwYXNz'))).toBe(CHALLENGE);
    expect(challengeOf(await mcp('Bearer gsk_not-a-real-key'))).toBe(UNKNOWN_KEY);
  });

  it('the management API: the same challenges for the admin token, a session cookie and a management key', async () => {
    expect(challengeOf(await t.adminRaw('GET', '/organizations', undefined, ''))).toBe(CHALLENGE);
    const cookie = await t.service.app.inject({ url: '/admin/v1/organizations', headers: { cookie: 'console_session=nothing' } });
    expect(challengeOf(cookie)).toBe(CHALLENGE);
    const wrongToken = await t.adminRaw('GET', '/organizations', undefined, 'not-the-admin-token-0123456789');
    expect(challengeOf(wrongToken)).toBe(refused('The token is not the admin token'));
    expect(challengeOf(await t.adminRaw('GET', '/webhook-endpoints', undefined, 'gsk_not-a-real-key'))).toBe(UNKNOWN_KEY);
  });

  it('a working key refused for another reason (403) carries no challenge', async () => {
    const { team } = await soloTeam(t);
    const teamsOnly = (await createKey(t, { type: 'team', id: team.id }, { scopes: ['teams:read'] })).secret;
    expect(challengeOf(await t.get('/v1/guides', teamsOnly), 403)).toBeUndefined();
    expect(challengeOf(await t.adminRaw('GET', '/organizations', undefined, teamsOnly), 403)).toBeUndefined();
    expect((await t.adminRaw('GET', '/organizations', undefined, ADMIN_TOKEN)).headers['www-authenticate']).toBeUndefined();
  });

  it('an expired key gets invalid_token, saying it expired (last: it moves the clock)', async () => {
    const { team } = await soloTeam(t);
    const { secret } = await createKey(t, { type: 'team', id: team.id }, { expires_in_days: 1 });
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    expect(challengeOf(await t.get('/v1/teams', secret))).toBe(refused('The API key has expired'));
    expect(challengeOf(await mcp(`Bearer ${secret}`))).toBe(refused('The API key has expired'));
  });
});

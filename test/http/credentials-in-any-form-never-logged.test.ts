// No credential reaches the log in any form a client can send it (decisions §9, §10; issue 41, items 6
// and 7): the configured admin token (a base64 one, with `/`, `+` and `=`) raw, percent-encoded once or
// more, in upper or lower case, or with `+` sent as a space; a generated admin token with or without its
// `adm_` prefix; a webhook signing key and its Standard Webhooks secret (`whsec_…`, and the latter without
// its prefix). A signing key sent as X-Request-Id is replaced, like any credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, organizationWithTeams, startTestService, type TestService } from '../support/service.js';

/** Every character percent-encoded, as some clients and attackers write them. */
const encodeAll = (text: string) => [...text].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`).join('');
const encodeTwice = (text: string) => encodeURIComponent(encodeURIComponent(text));
const lowerCaseEscapes = (text: string) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** Every run of 8 letters and digits in the secret: finding one in a log line means part of it leaked. */
const piecesOf = (secret: string) => [...secret.matchAll(/(?=([0-9A-Za-z]{8}))/g)].map((match) => match[1]!);

/** The log lines holding any piece of any of the secrets (none, when nothing leaked). */
const linesWithPieces = (lines: string[], secrets: string[]) => lines.filter((line) => secrets.some((secret) => piecesOf(secret).some((piece) => line.includes(piece))));

/** The URL each request log line names. */
const loggedUrls = (lines: string[]) => lines.map((line) => JSON.parse(line).req?.url).filter((url) => url !== undefined);

async function getEach(t: TestService, urls: string[], headers: Record<string, string> = {}): Promise<void> {
  for (const url of urls) await t.service.app.inject({ method: 'GET', url, headers });
}

describe('a configured admin token in base64 (with / + =) is in no log line, in any form', () => {
  // What `openssl rand -base64 32` makes: 44 characters, with `/`, `+` and `=`.
  const token = 'q8Vb/3+Zr0Kx1m9P+YtW2sN/aL7cE4dH6jQ5uR0vXy8=';
  let t: TestService;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestService({ ADMIN_TOKEN: token }, { logLines: lines });
  });
  afterAll(() => t.close());

  it('raw, percent-encoded once or more, every character, in lower case, and with + as a space, in the path (under /v1, /docs, /console, /admin/v1) and the query', async () => {
    expect(token).toHaveLength(44);
    const forms = [token, encodeURIComponent(token), encodeTwice(token), encodeURIComponent(encodeTwice(token)), encodeAll(token), lowerCaseEscapes(token)];
    const urls = forms.flatMap((form) => [`/v1/guides/${form}`, `/docs/${form}`, `/console/${form}`, `/admin/v1/teams/${form}`, `/v1/guides?x=${form}`]);
    urls.push(`/v1/guides?x=${encodeURIComponent(token.replaceAll('+', ' '))}`, `/v1/guides?x=${token.replaceAll('+', '%2B')}`, `/admin/v1/organizations?note=${token.replaceAll('/', '%2F')}`);
    await getEach(t, urls, { authorization: `Bearer ${token}` });
    await getEach(t, ['/v1/teams', '/admin/v1/organizations'], { 'user-agent': `client (${token})`, 'x-request-id': encodeURIComponent(token) });

    expect(lines.length).toBeGreaterThanOrEqual(urls.length);
    expect(linesWithPieces(lines, [token])).toEqual([]);
    // The URL keeps its shape: only the token is replaced.
    expect(loggedUrls(lines)).toContain('/v1/guides/[redacted]');
    expect(loggedUrls(lines)).toContain('/admin/v1/teams/[redacted]');
    expect(loggedUrls(lines)).toContain('/v1/guides?x=[redacted]');
  });
});

describe('a generated admin token is in no log line, with or without its adm_ prefix', () => {
  let t: TestService;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestService({ ADMIN_TOKEN: '' }, { logLines: lines });
  });
  afterAll(() => t.close());

  it('its body alone in the path, the query and X-Request-Id, raw or encoded, and the whole token with its prefix encoded', async () => {
    const token = t.service.adminToken;
    expect(token).toMatch(/^adm_[0-9A-Za-z_-]{32}$/);
    const body = token.slice('adm_'.length);
    const urls = [
      `/v1/guides?x=${body}`,
      `/v1/guides/${body}`,
      `/admin/v1/teams/${body}`,
      `/console/${body}`,
      `/v1/guides?x=${encodeAll(body)}`,
      `/v1/guides?x=adm%5F${body}`,
      `/v1/guides?x=${encodeTwice(token)}`,
      `/admin/v1/organizations?${body}=1`,
    ];
    await getEach(t, urls);
    await getEach(t, ['/healthz'], { 'x-request-id': body });
    // The token works: it is the one the service holds, not another.
    expect((await t.adminRaw('GET', '/audit-events', undefined, token)).statusCode).toBe(200);

    expect(lines.length).toBeGreaterThanOrEqual(urls.length);
    expect(linesWithPieces(lines, [token])).toEqual([]);
    expect(loggedUrls(lines)).toContain('/v1/guides?x=[redacted]');
  });
});

describe('webhook signing keys are credentials', () => {
  let t: TestService;
  const lines: string[] = [];
  let signingKey: string;
  let standardSecret: string;
  beforeAll(async () => {
    t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { logLines: lines });
    const { teams } = await organizationWithTeams(t);
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: teams[0].id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    const keys = await t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
    signingKey = keys.signing_key;
    standardSecret = keys.standard_webhooks_secret;
  });
  afterAll(() => t.close());

  it('one sent as X-Request-Id is replaced by a new id: neither echoed back nor logged', async () => {
    expect(signingKey).toMatch(/^whsec_[0-9A-Za-z_-]+$/);
    for (const sent of [signingKey, signingKey.slice('whsec_'.length), `trace:${signingKey}`]) {
      lines.length = 0;
      const response = await t.service.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': sent } });
      expect(response.headers['x-request-id']).not.toBe(sent);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(linesWithPieces(lines, [signingKey])).toEqual([]);
    }
  });

  it('the signing key and the Standard Webhooks secret (with or without whsec_) in the path or the query, raw or encoded, are in no log line', async () => {
    expect(standardSecret).toMatch(/^whsec_[0-9A-Za-z+/]+=*$/);
    const standardBody = standardSecret.slice('whsec_'.length);
    lines.length = 0;
    const urls = [signingKey, standardSecret, standardBody].flatMap((secret) => [
      `/v1/guides/${secret}`,
      `/v1/guides/${encodeURIComponent(secret)}`,
      `/admin/v1/webhook-endpoints/${encodeTwice(secret)}`,
      `/v1/guides?x=${secret}`,
      `/v1/guides?x=${encodeURIComponent(secret)}`,
      `/v1/guides?x=${encodeAll(secret)}`,
      `/v1/guides?${encodeURIComponent(secret)}=1`,
    ]);
    urls.push(`/v1/guides?x=whsec%5F${signingKey.slice('whsec_'.length)}`);
    await getEach(t, urls, { authorization: `Bearer ${ADMIN_TOKEN}` });

    expect(lines.length).toBeGreaterThanOrEqual(urls.length);
    expect(linesWithPieces(lines, [signingKey, standardSecret])).toEqual([]);
    expect(loggedUrls(lines)).toContain('/v1/guides/[redacted]');
    expect(loggedUrls(lines)).toContain('/v1/guides?x=[redacted]');
  });
});

describe("the service's own tokens sent as X-Request-Id, whatever their shape", () => {
  // Only characters a request id may hold: no credential shape gives them away, only what they are.
  const adminToken = 'ops.Admin-Token:2026.0123456789';
  const metricsToken = 'scrape_Metrics.Token-0123456789';
  let t: TestService;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestService({ ADMIN_TOKEN: adminToken, METRICS_TOKEN: metricsToken }, { logLines: lines });
  });
  afterAll(() => t.close());

  it('are replaced by a new id: neither echoed back, nor kept in the audit log, nor logged', async () => {
    const organization = (await t.adminRaw('POST', '/organizations', { name: 'Request ids' }, adminToken)).json().data;
    for (const token of [adminToken, metricsToken]) {
      const answer = await t.service.app.inject({
        method: 'PATCH',
        url: `/admin/v1/organizations/${organization.id}`,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', 'x-request-id': token },
        payload: JSON.stringify({ name: 'Renamed by request id' }),
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['x-request-id']).not.toBe(token);
      expect(String(answer.headers['x-request-id'])).not.toContain(token);
    }
    const audit = await t.service.app.inject({ method: 'GET', url: '/admin/v1/audit-events?action=organization.updated', headers: { authorization: `Bearer ${adminToken}` } });
    const requestIds = (audit.json().data as { request_id: string }[]).map((event) => event.request_id);
    expect(requestIds).toHaveLength(2);
    for (const id of requestIds) expect([adminToken, metricsToken]).not.toContain(id);
    expect(linesWithPieces(lines, [adminToken, metricsToken])).toEqual([]);
  });
});

// The reference pages (issue 14, item 3): /docs for v1 and /admin/v1/docs for the management API, each
// with how to authenticate, every operation with a curl command (v1: and its answer, from a real run), and for v1 the limits, paging and the
// webhook events with example bodies. The paging walkthrough runs as printed.
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/domain/events.js';
import { V1_EXAMPLES } from '../../src/http/docs/recorded-examples.js';
import { examplesAt } from '../../src/http/openapi-document.js';
import { asSession, signIn } from '../console/sessions.js';
import { ADMIN_TOKEN, createGuide, organizationWithTeams, PUBLIC_URL, startTestService, type TestService } from '../support/service.js';

const run = promisify(execFile);
let t: TestService;
let v1Page: string;

beforeAll(async () => {
  t = await startTestService();
  v1Page = (await t.service.app.inject({ url: '/docs' })).body;
});
afterAll(() => t.close());

const unescape = (html: string) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const codeBlocks = (html: string) => [...html.matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)].map((match) => unescape(match[1]!));

describe('the v1 reference at /docs', () => {
  it('explains authentication, rate limits, paging and conditional requests before the endpoints', () => {
    for (const id of ['authentication', 'rate-limits', 'pagination', 'caching', 'endpoints', 'webhooks', 'errors']) {
      expect(v1Page, id).toContain(`id="${id}"`);
    }
    expect(v1Page).toContain('600 requests per 60-second window');
  });

  it('shows a curl command for every operation, and every webhook event with an example body', () => {
    const blocks = codeBlocks(v1Page);
    // Each v1 operation shows the request and answer recorded from a real run (test/http/reference-examples.test.ts).
    for (const example of Object.values(examplesAt(V1_EXAMPLES, PUBLIC_URL))) {
      expect(blocks.some((block) => block.startsWith(`curl "${PUBLIC_URL}/v1${example.request}"`)), example.request).toBe(true);
      expect(blocks).toContain(JSON.stringify(example.body, null, 2));
    }
    expect(v1Page.match(/from a real run/g)).toHaveLength(Object.keys(V1_EXAMPLES).length);
    for (const type of EVENT_TYPES) {
      expect(v1Page).toContain(`id="event-${type}"`);
      expect(blocks.some((block) => block.includes(`"type": "${type}"`)), type).toBe(true);
    }
  });

  it('the paging walkthrough runs as printed and reads every guide once', async () => {
    const { key, teams } = await organizationWithTeams(t);
    const titles = [];
    for (let i = 0; i < 3; i++) titles.push((await createGuide(t, teams[0].id, { title: `Paged ${i}` })).title);
    await t.service.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.service.app.server.address() as AddressInfo).port}`;
    const loop = codeBlocks(v1Page).find((block) => block.startsWith('CURSOR=""'))!;
    // The walkthrough pages by 100; by 2 here, so that it follows next_cursor across pages.
    const script = `set -euo pipefail\nKEY=${key}\n${loop.replaceAll('http://api.test', base).replace('limit=100', 'limit=2')}`;
    const { stdout } = await run('bash', ['-c', script], { timeout: 20_000 });
    expect(stdout.trim().split('\n').sort()).toEqual(titles.sort());
  });
});

describe('the management API reference at /admin/v1/docs', () => {
  it('is for whoever may call the API: 401 without the admin token or a session, saying what it needs (issue 34)', async () => {
    for (const url of ['/admin/v1/docs', '/admin/v1/openapi.json']) {
      for (const headers of [{}, { authorization: 'Bearer not-the-token' }]) {
        const response = await t.service.app.inject({ url, headers });
        expect(response.statusCode, url).toBe(401);
        const { detail } = response.json();
        expect(detail, url).toContain("The management API's reference");
        expect(detail, url).toContain('Authorization: Bearer $ADMIN_TOKEN');
        expect(detail, url).toContain('console session');
        expect(detail, url).toContain('/docs');
      }
    }
    // Elsewhere the refusal stays about the API itself.
    expect((await t.service.app.inject({ url: '/admin/v1/organizations' })).json().detail).not.toContain('reference');
  });

  it('a person signed in to the console reads the page and the document, as the hint says', async () => {
    const user = await t.admin('POST', '/users', { email: 'reader@example.com', name: 'Reader' });
    const session = await signIn(t, user.email);
    expect((await asSession(t, session, 'GET', '/docs')).statusCode).toBe(200);
    const document = await asSession(t, session, 'GET', '/openapi.json');
    expect(document.statusCode, document.body).toBe(200);
    expect(document.json().info.title).toBe('Guide service management API');
  });

  it('explains authentication and shows every operation with a curl command', async () => {
    const response = await t.service.app.inject({ url: '/admin/v1/docs', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const page = response.body;
    expect(page).toContain('id="authentication"');
    const document = (await t.service.app.inject({ url: '/admin/v1/openapi.json', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    for (const item of Object.values<any>(document.paths)) {
      for (const operation of Object.values<any>(item)) expect(page, operation.operationId).toContain(`id="op-${operation.operationId}"`);
    }
    expect(codeBlocks(page).filter((block) => block.startsWith('curl')).length).toBeGreaterThanOrEqual(Object.keys(document.paths).length);
  });
});

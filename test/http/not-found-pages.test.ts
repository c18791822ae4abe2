// A person's browser that reaches an address nothing is at gets a page with a title, a heading, a language
// and the ways on (issue 44, item 5); an API client (JSON, `*/*`, no Accept) still gets the problem, and the
// APIs' own paths answer problems whatever the client asks for.
import { describe, expect, it } from 'vitest';
import { PUBLIC_URL, useTestService } from '../support/service.js';

const t = useTestService();

/** What Chromium sends when a person follows a link. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

const get = (url: string, accept?: string) => t.service.app.inject({ method: 'GET', url, headers: accept === undefined ? {} : { accept } });

const MISSING = ['/nope', '/docs/nope', '/docs/webhooks/nope', '/console/nope', '/console/assets/nope.js', '/guides'];

describe('an address nothing is at, in a browser', () => {
  it.each(MISSING)('%s answers 404 with an HTML page: lang, title, heading, links to /docs and the console', async (path) => {
    const answer = await get(path, BROWSER);
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['x-request-id']).toBeTruthy();
    expect(answer.body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(answer.body).toContain('<title>Page not found · Guide service</title>');
    expect(answer.body).toContain('<h1>There is no such page</h1>');
    expect(answer.body).toContain(`<a href="${PUBLIC_URL}/docs">API reference</a>`);
    expect(answer.body).toContain(`<a href="${PUBLIC_URL}/console/">Console</a>`);
  });

  it('does not repeat the path, which may hold a credential', async () => {
    const answer = await get('/docs/adm_0123456789abcdefSECRET', BROWSER);
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain('SECRET');
  });

  it('/ is a page leading to the reference and the console', async () => {
    const answer = await get('/', BROWSER);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('<html lang="en">');
    expect(answer.body).toContain('<title>Guide service</title>');
    expect(answer.body).toContain('<h1>Guide service</h1>');
    expect(answer.body).toContain(`<a href="${PUBLIC_URL}/docs">API reference</a>`);
    expect(answer.body).toContain(`<a href="${PUBLIC_URL}/console/">Console</a>`);
  });
});

describe('the same addresses for API clients', () => {
  it.each(['/', ...MISSING])('%s answers a not_found problem to JSON, to */* and to no Accept', async (path) => {
    for (const accept of ['application/json', 'application/problem+json', '*/*', undefined]) {
      const answer = await get(path, accept);
      expect(answer.statusCode, `${path} with ${accept}`).toBe(404);
      expect(answer.headers['content-type'], `${path} with ${accept}`).toMatch(/^application\/problem\+json/);
      expect(answer.json()).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('a client that ranks JSON above HTML gets JSON', async () => {
    const answer = await get('/docs/nope', 'text/html;q=0.5, application/json');
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('a write to an address nothing is at is a problem even from a browser', async () => {
    const answer = await t.service.app.inject({ method: 'POST', url: '/docs/nope', headers: { accept: BROWSER } });
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it.each(['/v1/nope', '/admin/v1/nope', '/mcp/nope'])('%s, a path of an API, answers a problem even to a browser', async (path) => {
    const answer = await get(path, BROWSER);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.json().code).toMatch(/^(not_found|invalid_key|unauthorized)$/);
  });
});

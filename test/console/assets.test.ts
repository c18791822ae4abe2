// The console is served by the service itself (issue 6): its page and files, with nothing loaded from
// the internet, under a policy that lets the page load only its own files.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASSETS_DIR } from '../../src/console/console-assets.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';

const t = useTestService();
const get = (url: string) => t.service.app.inject({ method: 'GET', url });

describe('the console page', () => {
  it('is served at /console/ with a policy that allows only its own files', async () => {
    expect((await get('/console')).headers.location).toBe('/console/');
    const page = await get('/console/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves every file the console has, with its type', async () => {
    for (const name of readdirSync(ASSETS_DIR).filter((file) => file !== 'index.html')) {
      const response = await get(`/console/assets/${name}`);
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type']).toMatch(name.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
    }
  });

  it('loads nothing from the internet: no file names another host', () => {
    for (const name of readdirSync(ASSETS_DIR)) {
      const text = readFileSync(`${ASSETS_DIR}/${name}`, 'utf8');
      expect(text, name).not.toMatch(/(src|href|url)\s*[=(]\s*["']?(https?:)?\/\//i);
      expect(text, name).not.toMatch(/@import/);
    }
  });

  it('refuses names outside its files', async () => {
    for (const url of ['/console/assets/..%2Fconsole-plugin.ts', '/console/assets/nope.js', '/console/assets/.env']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('guide.url ($APP_URL/guides/{id}) leads to the guide in the console', async () => {
    const { team } = await soloTeam(t);
    const guide = await createGuide(t, team.id);
    const response = await get(`/guides/${guide.id}`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/console/#/guides/${guide.id}`);
  });

  it('the guide redirect never leaves the service, whatever the id', async () => {
    for (const id of ['%2F%2Fevil.example', 'https:%2F%2Fevil.example', '..%2F..%2Fadmin', '%5C%5Cevil.example']) {
      const location = String((await get(`/guides/${id}`)).headers.location);
      expect(location, id).toMatch(/^\/console\/#\/guides\/[^/\\]*$/);
    }
  });
});

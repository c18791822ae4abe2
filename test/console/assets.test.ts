// The console is served by the service itself (issue 6): its page and files, with nothing loaded from
// the internet, under a policy that lets the page load only its own files.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Static } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Console from '../../src/console/assets/api-types.js';
import { ASSETS_DIR } from '../../src/console/console-assets.js';
import type { ConsoleOrganization, ConsoleTeam } from '../../src/console/console-homes.js';
import type { AdminGuide, AdminGuideSummary, ApiKey, AuditEvent, Organization, Team } from '../../src/http/admin/schemas.js';
import type { Attempt, Endpoint, EndpointHealth, Recovered } from '../../src/http/admin/webhook-schemas.js';
import type { Problem } from '../../src/http/schemas/common.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';

const t = useTestService();
const get = (url: string) => t.service.app.inject({ method: 'GET', url });
/** The name the page loads a file by: a module's source is TypeScript, served compiled under its .js name. */
const servedName = (file: string) => file.replace(/\.ts$/, '.js');

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
    for (const name of readdirSync(ASSETS_DIR).filter((file) => file !== 'index.html').map(servedName)) {
      const response = await get(`/console/assets/${name}`);
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type']).toMatch(name.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
    }
  });

  it('serves its modules as JavaScript: compiled from their TypeScript, which is not served', async () => {
    for (const name of readdirSync(ASSETS_DIR).filter((file) => file.endsWith('.ts'))) {
      const module = await get(`/console/assets/${servedName(name)}`);
      // Node's syntax check of an ES module refuses any type annotation left in it.
      expect(() => execFileSync(process.execPath, ['--check', '--input-type=module'], { input: module.body, stdio: 'pipe' }), name).not.toThrow();
      expect((await get(`/console/assets/${name}`)).statusCode, name).toBe(404);
    }
  });

  it('loads nothing from the internet: no file names another host', () => {
    for (const name of readdirSync(ASSETS_DIR)) {
      const text = readFileSync(`${ASSETS_DIR}/${name}`, 'utf8');
      expect(text, name).not.toMatch(/(src|href|url)\s*[=(]\s*["']?(https?:)?\/\//i);
      expect(text, name).not.toMatch(/@import/);
    }
  });

  // Checked by `npm run typecheck`: the console's own types for the answers it reads
  // (src/console/assets/api-types.ts) must accept what the server's schemas produce.
  it("expects of the management API's answers what they are", () => {
    expectTypeOf<Static<typeof Problem>>().toExtend<Console.Problem>();
    expectTypeOf<ConsoleTeam>().toExtend<Console.SessionTeam>();
    expectTypeOf<ConsoleOrganization>().toExtend<Console.SessionOrganization>();
    expectTypeOf<Static<typeof Organization>>().toExtend<Console.Organization>();
    expectTypeOf<Static<typeof Team>>().toExtend<Console.Team>();
    expectTypeOf<Static<typeof ApiKey>>().toExtend<Console.ApiKey>();
    expectTypeOf<Static<typeof Endpoint>>().toExtend<Console.Endpoint>();
    expectTypeOf<Static<typeof Attempt>>().toExtend<Console.Attempt>();
    expectTypeOf<Static<typeof EndpointHealth>>().toExtend<Console.EndpointHealth>();
    expectTypeOf<Static<typeof Recovered>>().toExtend<Console.Recovered>();
    expectTypeOf<Static<typeof AdminGuideSummary>>().toExtend<Console.GuideSummary>();
    expectTypeOf<Static<typeof AuditEvent>>().toExtend<Console.AuditEvent>();
    // A guide's schema is the public one, whose team_id may be null; a guide always belongs to a team.
    expectTypeOf<Static<typeof AdminGuide> & { team_id: string }>().toExtend<Console.Guide>();
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

// Versioning (shared decisions §11, issue 43): CHANGELOG.md a section per release headed by the root
// package.json's version, which is the management API document's info.version while v1's stays 1.0.0;
// /docs/versioning says the policy; and a deprecated operation answers Deprecation, Sunset and a Link to
// its notice, and shows as deprecated in its OpenAPI document and the reference.
import { readFileSync } from 'node:fs';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installDeprecations } from '../../src/http/deprecation.js';
import { renderReferencePage } from '../../src/http/docs/reference-page.js';
import { registerOpenApiDocument } from '../../src/http/openapi-document.js';
import { projectRoot } from '../support/build.js';
import { ADMIN_TOKEN, useTestService } from '../support/service.js';

const t = useTestService();
const packageVersion = (JSON.parse(readFileSync(`${projectRoot}/package.json`, 'utf8')) as { version: string }).version;
const changelog = readFileSync(`${projectRoot}/CHANGELOG.md`, 'utf8');

describe('the release version', () => {
  it('heads CHANGELOG.md and is the management API document\'s info.version; v1\'s document stays 1.0.0', async () => {
    const releases = [...changelog.matchAll(/^## (\S+)/gm)].map((match) => match[1]);
    expect(releases[0]).toBe(packageVersion);
    const admin = (await t.service.app.inject({ method: 'GET', url: '/admin/v1/openapi.json', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    expect(admin.info.version).toBe(packageVersion);
    expect(admin.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect((await t.get('/v1/openapi.json')).json().info.version).toBe('1.0.0');
  });

  it('CHANGELOG.md has a section per release, each with only Added, Changed, Deprecated and Fixed', () => {
    const sections = changelog.split(/^## /m).slice(1);
    expect(sections.length).toBeGreaterThan(0);
    for (const section of sections) {
      const kinds = [...section.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
      expect(kinds.length, section.split('\n')[0]).toBeGreaterThan(0);
      for (const kind of kinds) expect(['Added', 'Changed', 'Deprecated', 'Fixed']).toContain(kind);
    }
  });
});

describe('/docs/versioning', () => {
  it('says what may change in /v1, how a deprecated operation says so, which are deprecated now, and is linked from /docs', async () => {
    const page = await t.service.app.inject({ method: 'GET', url: '/docs/versioning' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const words of ['changes only by adding', '12 months', 'Deprecation', 'Sunset', 'rel="deprecation"', 'None at the moment', packageVersion]) {
      expect(page.body).toContain(words);
    }
    expect((await t.service.app.inject({ method: 'GET', url: '/docs' })).body).toContain('/docs/versioning');
  });
});

describe('a deprecated operation', () => {
  async function appWithDeprecation() {
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    await registerOpenApiDocument(app, { info: { title: 'Deprecations', version: '1.0.0' }, tags: [{ name: 'Things' }] });
    installDeprecations(app, 'https://api.example.com');
    const schema = (operationId: string) => ({
      operationId,
      summary: `The ${operationId}`,
      tags: ['Things'],
      response: { 200: Type.Object({ ok: Type.Boolean() }), 400: Type.Object({ ok: Type.Boolean() }) },
    });
    app.get('/old', { config: { deprecation: { since: '2026-12-01T00:00:00Z', sunset: '2027-12-01T00:00:00Z', notice: '/docs/versioning#deprecated-oldThing' } }, schema: schema('oldThing') }, async () => ({ ok: true }));
    app.get('/new', { schema: schema('newThing') }, async () => ({ ok: true }));
    app.get('/old-refused', { config: { deprecation: { since: '2026-12-01T00:00:00Z', sunset: '2027-12-01T00:00:00Z', notice: '/docs/versioning' } }, schema: schema('oldRefused') }, async (_request, reply) =>
      reply.code(400).send({ ok: false }),
    );
    await app.ready();
    return app;
  }

  it('answers Deprecation (RFC 9745), Sunset (RFC 8594) and a Link to its notice, on every answer; others answer none', async () => {
    const app = await appWithDeprecation();
    const old = await app.inject({ method: 'GET', url: '/old' });
    expect(old.headers.deprecation).toBe(`@${Date.parse('2026-12-01T00:00:00Z') / 1000}`);
    expect(old.headers.sunset).toBe('Wed, 01 Dec 2027 00:00:00 GMT');
    expect(old.headers.link).toContain('<https://api.example.com/docs/versioning#deprecated-oldThing>; rel="deprecation"');
    expect((await app.inject({ method: 'GET', url: '/old-refused' })).headers.deprecation).toBeDefined();
    const current = await app.inject({ method: 'GET', url: '/new' });
    expect(current.headers.deprecation).toBeUndefined();
    expect(current.headers.sunset).toBeUndefined();
    await app.close();
  });

  it('shows as deprecated in its OpenAPI document, with its dates and notice, and in the reference', async () => {
    const app = await appWithDeprecation();
    const document = app.swagger() as unknown as { paths: Record<string, Record<string, any>> };
    expect(document.paths['/old']!.get.deprecated).toBe(true);
    expect(document.paths['/old']!.get.description).toContain('2027-12-01');
    expect(document.paths['/new']!.get.deprecated).toBeUndefined();
    const reference = renderReferencePage(document, 'https://api.example.com', { baseUrl: 'https://api.example.com', credential: '$KEY', guide: '' });
    const sectionOf = (operationId: string) => {
      const start = reference.indexOf(`id="op-${operationId}"`);
      return reference.slice(start, reference.indexOf('</section>', start));
    };
    expect(sectionOf('oldThing')).toContain('class="deprecated"');
    expect(sectionOf('newThing')).not.toContain('class="deprecated"');
    await app.close();
  });
});

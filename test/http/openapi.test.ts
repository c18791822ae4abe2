// The OpenAPI document (spec §9, decisions §4): 3.1.0, document version 1.0.0, generated from the very
// schemas the routes validate and serialize with, and the reference page whose error entries the
// problem `type` links land on.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/http/error-catalogue.js';
import { Guide, GuideListItem, Key, Member, Team } from '../../src/http/v1/schemas.js';
import { PUBLIC_URL, startTestService, type TestService } from '../support/service.js';

let t: TestService;
let document: any;
beforeAll(async () => {
  t = await startTestService();
  const response = await t.service.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1.0 document, version 1.0.0, served without a key (spec §9)', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers[0].url).toBe(`${PUBLIC_URL}/v1`);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every endpoint of spec §4 as GET with the bearer scheme', () => {
    expect(Object.keys(document.paths).sort()).toEqual(['/auth/verify', '/events', '/guides', '/guides/{guideId}', '/members', '/teams']);
    for (const item of Object.values<any>(document.paths)) {
      expect(Object.keys(item)).toEqual(['get']);
    }
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearer: [] }]);
  });

  it('lists every error status of spec §7 on every endpoint, as problem+json, with the rate headers', () => {
    for (const [path, item] of Object.entries<any>(document.paths)) {
      const responses = item.get.responses;
      for (const status of ['200', '400', '401', '403', '404', '429', '500']) {
        expect(responses[status], `${path} ${status}`).toBeDefined();
        expect(Object.keys(responses[status].headers)).toEqual(
          expect.arrayContaining(['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
        );
      }
      expect(responses['429'].headers['Retry-After']).toBeDefined();
      expect(Object.keys(responses['401'].content)).toEqual(['application/problem+json']);
    }
  });

  it('declares If-None-Match on every operation, the 405 answer with Allow, and the shape of the cursor (issue 14, item 4)', () => {
    for (const [path, item] of Object.entries<any>(document.paths)) {
      const ifNoneMatch = item.get.parameters.find((parameter: any) => parameter.in === 'header' && parameter.name === 'if-none-match');
      expect(ifNoneMatch, path).toMatchObject({ required: false, schema: { type: 'string' } });
      expect(item.get.responses['304'], path).toBeDefined();
      expect(item.get.responses['405'].headers.Allow, path).toMatchObject({ required: true });
    }
    const cursor = document.paths['/guides'].get.parameters.find((parameter: any) => parameter.name === 'cursor');
    expect(new RegExp(cursor.schema.pattern).test('bm90LWEtY3Vyc29y.AAAAAAAAAAAAAAAAAAAAAA')).toBe(true);
    expect(new RegExp(cursor.schema.pattern).test('not a cursor')).toBe(false);
  });

  it('is generated from the schemas the routes serialize with, so it cannot drift from the code', () => {
    // A schema names another by its $id; the document, by its place among the components.
    const strip = ({ $id, ...rest }: Record<string, unknown>) => JSON.parse(JSON.stringify(rest).replaceAll('"$ref":"#/components/schemas/', '"$ref":"'));
    const components = document.components.schemas;
    expect(strip(components.Key)).toEqual(strip(Key));
    expect(strip(components.GuideListItem)).toEqual(strip(GuideListItem));
    expect(strip(components.Guide)).toEqual(strip(Guide));
    expect(strip(components.Team)).toEqual(strip(Team));
    expect(strip(components.Member)).toEqual(strip(Member));
  });

  it('describes the fields of spec §2 exactly', () => {
    const fields = (name: string) => Object.keys(document.components.schemas[name].properties).sort();
    expect(fields('Key')).toEqual(['expires_at', 'home', 'id', 'name', 'scopes']);
    expect(fields('GuideListItem')).toEqual(
      ['created_at', 'description', 'icon_url', 'id', 'locked', 'owner_name', 'permalink', 'publish_status', 'team_id', 'title', 'updated_at'].sort(),
    );
    expect(fields('Guide')).toEqual(
      [
        ...['created_at', 'description', 'icon_url', 'id', 'locked', 'owner_name', 'permalink', 'publish_status', 'team_id', 'title', 'updated_at'],
        ...['language', 'text_direction', 'app_version', 'thumbnail_url', 'tags', 'folder_id', 'is_public', 'markdown_body', 'brand_color', 'notice'],
      ].sort(),
    );
    expect(fields('Team')).toEqual(['id', 'name', 'role']);
    expect(fields('Member')).toEqual(['avatar_url', 'email', 'id', 'joined_at', 'name', 'role']);
  });
});

describe('reference page at /docs', () => {
  it('is served as HTML and has an entry for every error code that problem `type` links point to (decisions §4)', async () => {
    const response = await t.service.app.inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    for (const code of ERROR_CODES) expect(response.body).toContain(`id="error-${code}"`);
    for (const path of Object.keys(document.paths)) expect(response.body).toContain(path);
  });

  it('is where the type of a real problem answer leads', async () => {
    const problem = (await t.get('/v1/guides')).json();
    const link = new URL(problem.type);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/docs`);
    const page = await t.service.app.inject({ method: 'GET', url: link.pathname });
    expect(page.body).toContain(`id="${link.hash.slice(1)}"`);
  });
});

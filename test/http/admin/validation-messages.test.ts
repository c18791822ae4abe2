// Refusals are written for people (issue 14, items 5 and 9): every validation failure names the field
// and says what would be accepted, in plain words, never a regular expression or a validator's phrase;
// a name or description of nothing but spaces is refused like an empty one.
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationWithTeams, useTestService } from '../../support/service.js';

const t = useTestService();
let teamId: string;
let key: string;

beforeAll(async () => {
  const fixture = await organizationWithTeams(t);
  teamId = fixture.teams[0].id;
  key = fixture.key;
});

const home = () => ({ type: 'team', id: teamId });

describe('every validation failure says what would be accepted, in plain words', () => {
  const cases: Array<[string, string, () => Record<string, unknown> | unknown[], string]> = [
    ['POST', '/webhook-endpoints', () => ({ home: home(), url: 'ftp://example.com/x', events: ['guide.created'] }), "Field 'url' must be an http:// or https:// URL"],
    ['POST', '/webhook-endpoints', () => ({ home: home(), url: 'https://example.com/x', events: [] }), "Field 'events' must list at least 1 item"],
    ['POST', '/webhook-endpoints', () => ({ home: home(), url: 'https://example.com/x', events: ['guide.created'], description: '  ' }), "Field 'description' must be text with at least one character that is not a space"],
    ['POST', '/api-keys', () => ({ home: home(), name: '   ', scopes: ['guides:read'], expires_in_days: 3 }), "Field 'name' must be text with at least one character that is not a space"],
    ['POST', '/api-keys', () => ({ home: home(), name: '', scopes: ['guides:read'], expires_in_days: 3 }), "Field 'name' must not be empty"],
    ['POST', '/api-keys', () => ({ home: home(), name: 'k', scopes: ['everything'], expires_in_days: 3 }), 'Field \'scopes.0\' must be one of "guides:read", "teams:read", "members:read", "webhooks:manage"'],
    ['POST', '/api-keys', () => ({ home: { type: 'team', id: 'abc' }, name: 'k', scopes: ['guides:read'], expires_in_days: 3 }), "Field 'home.id' must be a UUID"],
    ['POST', '/teams', () => ({ name: 5 }), "Field 'name' must be text or null"],
    ['POST', '/teams', () => ({ name: ' \t ' }), "Field 'name' must be text with at least one character that is not a space"],
    ['POST', '/organizations', () => ({ name: 'x'.repeat(201) }), "Field 'name' must be at most 200 characters long"],
    ['POST', '/organizations', () => [1], 'The request body must be an object'],
    ['POST', '/guides', () => ({ team_id: teamId, language: 'english!' }), "Field 'language' must be a language tag such as en, pt-BR or zh-Hant"],
    ['POST', '/guides', () => ({ team_id: teamId, permalink: 'Not A Slug' }), "Field 'permalink' must be a slug of lowercase letters, digits and hyphens"],
    ['POST', '/guides', () => ({ team_id: teamId, tags: 'x' }), "Field 'tags' must be a list or null"],
    ['POST', '/guides', () => ({ team_id: teamId, is_public: 'yes' }), "Field 'is_public' must be true or false"],
  ];
  for (const [method, path, body, detail] of cases) {
    it(`${method} ${path}: ${detail}`, async () => {
      const response = await t.adminRaw(method, path, body());
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().detail).toBe(detail);
    });
  }

  it('a team color', async () => {
    const response = await t.adminRaw('PATCH', `/teams/${teamId}`, { brand_color: 'red' });
    expect(response.json().detail).toBe("Field 'brand_color' must be a color written like #1A2B3C");
  });

  it('v1 parameters too', async () => {
    expect((await t.get('/v1/guides?q=a%01b', key)).json().detail).toBe("Parameter 'q' must be text without control characters");
    expect((await t.get('/v1/guides?team_id=xyz', key)).json().detail).toBe("Parameter 'team_id' must be a UUID");
  });

  it('no refusal shows a regular expression or a validator phrase', async () => {
    for (const [method, path, body] of cases) {
      const detail: string = (await t.adminRaw(method, path, body())).json().detail;
      expect(detail).not.toMatch(/must match|must NOT|pattern|\^|\$"/);
    }
  });
});

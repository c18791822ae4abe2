// Entity tags on v1 answers (RFC 9110 §8.8.3, §13.1.2): every 200 answer to GET or HEAD carries a strong
// ETag over its body; If-None-Match naming it (exactly, in a list, weakly with W/, or `*`) is answered 304
// with no body and the headers every answer carries; errors never carry a tag and are never 304. Every
// answer goes through t.get / t.request, so 304s are also checked against the served OpenAPI document.
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateKeySecret } from '../../../src/domain/api-key-secret.js';
import { createGuide, createKey, organizationWithTeams, startTestService, useTestService } from '../../support/service.js';

const t = useTestService();

/** A strong entity tag: a quoted opaque string, no W/ prefix (RFC 9110 §8.8.3). */
const STRONG_TAG = /^"[\x21\x23-\x7e]+"$/;

let fixture: {
  key: string;
  teamId: string;
  otherTeamId: string;
  guideId: string;
  paths: string[];
};

beforeAll(async () => {
  const { teams, key } = await organizationWithTeams(t, 'growth', 2);
  const owner = await t.admin('POST', '/users', { email: `owner-${Math.random().toString(36).slice(2)}@example.com`, name: 'Owner' });
  await t.admin('PUT', `/teams/${teams[0].id}/members/${owner.id}`, { role: 'ADMIN' });
  const guide = await createGuide(t, teams[0].id, { title: 'Tagged guide', owner_id: owner.id, steps: [{ text: 'One' }, { text: 'Two' }] });
  await createGuide(t, teams[1].id, { title: 'Another guide' });
  fixture = {
    key,
    teamId: teams[0].id,
    otherTeamId: teams[1].id,
    guideId: guide.id,
    paths: [
      '/v1/auth/verify',
      '/v1/guides',
      `/v1/guides?team_id=${teams[0].id}&limit=1`,
      `/v1/guides/${guide.id}`,
      `/v1/guides/${guide.permalink}`,
      '/v1/teams',
      `/v1/members?team_id=${teams[0].id}`,
    ],
  };
});

function tagOf(response: LightMyRequestResponse): string {
  expect(response.statusCode, response.body).toBe(200);
  const tag = response.headers.etag;
  expect(typeof tag, 'ETag header').toBe('string');
  expect(tag as string).toMatch(STRONG_TAG);
  return tag as string;
}

function expectNotModified(response: LightMyRequestResponse, tag: string, where: string): void {
  expect(response.statusCode, `${where}: ${response.body}`).toBe(304);
  expect(response.body, where).toBe('');
  expect(response.headers.etag, where).toBe(tag);
  // No body, so no media type: the OpenAPI document lists 304 without content (RFC 9110 §15.4.5).
  expect(response.headers['content-type'], where).toBeUndefined();
  expect(String(response.headers['x-request-id'] ?? ''), where).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
  expect(String(response.headers['ratelimit-limit'] ?? ''), where).toMatch(/^\d+$/);
  expect(String(response.headers['ratelimit-remaining'] ?? ''), where).toMatch(/^\d+$/);
  expect(String(response.headers['ratelimit-reset'] ?? ''), where).toMatch(/^\d+$/);
  expect(response.headers['ratelimit-policy'], where).toEqual(expect.any(String));
  expect(response.headers.ratelimit, where).toEqual(expect.any(String));
}

describe('ETag on 200 answers', () => {
  it('every GET endpoint answers 200 with a strong ETag, the same for identical requests', async () => {
    for (const path of fixture.paths) {
      const first = await t.get(path, fixture.key);
      const second = await t.get(path, fixture.key);
      expect(tagOf(first), path).toBe(tagOf(second));
      expect(second.body, path).toBe(first.body);
    }
  });

  it('different answers carry different tags', async () => {
    const tags = new Set<string>();
    for (const path of ['/v1/auth/verify', '/v1/guides', `/v1/guides/${fixture.guideId}`, '/v1/teams', `/v1/members?team_id=${fixture.teamId}`]) {
      tags.add(tagOf(await t.get(path, fixture.key)));
    }
    expect(tags.size).toBe(5);
    // A one-team page differs from the whole list, so its tag does too.
    expect(tagOf(await t.get(`/v1/guides?team_id=${fixture.teamId}`, fixture.key))).not.toBe(tagOf(await t.get('/v1/guides', fixture.key)));
  });

  it('a client-supplied X-Request-Id does not change the tag (the tag is over the body only)', async () => {
    const path = `/v1/guides/${fixture.guideId}`;
    const a = await t.get(path, fixture.key, { 'x-request-id': 'req-a' });
    const b = await t.get(path, fixture.key, { 'x-request-id': 'req-b' });
    expect(a.headers['x-request-id']).toBe('req-a');
    expect(b.headers['x-request-id']).toBe('req-b');
    expect(tagOf(a)).toBe(tagOf(b));
  });

  it('the tag is the same with the cache off (READ_CACHE=false), for the same bytes', async () => {
    const other = await startTestService({ READ_CACHE: 'false' });
    try {
      const { teams, key } = await organizationWithTeams(other, 'growth', 1);
      const guide = await createGuide(other, teams[0].id, { title: 'Uncached' });
      for (const path of ['/v1/auth/verify', '/v1/guides', `/v1/guides/${guide.id}`, '/v1/teams', `/v1/members?team_id=${teams[0].id}`]) {
        const first = await other.get(path, key);
        const tag = tagOf(first);
        const again = await other.get(path, key);
        expect(tagOf(again), path).toBe(tag);
        expectNotModified(await other.get(path, key, { 'if-none-match': tag }), tag, `${path} (READ_CACHE=false)`);
      }
    } finally {
      await other.close();
    }
  });
});

describe('If-None-Match', () => {
  it('the OpenAPI document (served without a key) is tagged too, and answers 304 on a match', async () => {
    const first = await t.get('/v1/openapi.json');
    const tag = tagOf(first);
    expect(tagOf(await t.get('/v1/openapi.json'))).toBe(tag);
    const conditional = await t.get('/v1/openapi.json', null, { 'if-none-match': `"x", W/${tag}` });
    expect(conditional.statusCode).toBe(304);
    expect(conditional.body).toBe('');
    expect(conditional.headers.etag).toBe(tag);
    expect(conditional.headers['x-request-id']).toEqual(expect.any(String));
    expect(conditional.headers['ratelimit-remaining']).toEqual(expect.any(String));
  });

  it('naming the current tag exactly answers 304 with an empty body, the common headers and the tag', async () => {
    for (const path of fixture.paths) {
      const tag = tagOf(await t.get(path, fixture.key));
      const response = await t.get(path, fixture.key, { 'if-none-match': tag, 'x-request-id': 'conditional-1' });
      expectNotModified(response, tag, path);
      expect(response.headers['x-request-id']).toBe('conditional-1');
    }
  });

  it('a list that contains the tag answers 304', async () => {
    for (const path of fixture.paths) {
      const tag = tagOf(await t.get(path, fixture.key));
      for (const header of [`"x", ${tag}`, `${tag}, "x"`, `"a","b",${tag}`, ` "a" ,   ${tag}  `, `W/"x", ${tag}`]) {
        expectNotModified(await t.get(path, fixture.key, { 'if-none-match': header }), tag, `${path} If-None-Match: ${header}`);
      }
    }
  });

  it('a weak form of the tag (W/) answers 304: If-None-Match compares weakly', async () => {
    for (const path of fixture.paths) {
      const tag = tagOf(await t.get(path, fixture.key));
      expectNotModified(await t.get(path, fixture.key, { 'if-none-match': `W/${tag}` }), tag, `${path} W/`);
      expectNotModified(await t.get(path, fixture.key, { 'if-none-match': `"zzz", W/${tag}` }), tag, `${path} list with W/`);
    }
  });

  it('* answers 304 for any current answer', async () => {
    for (const path of fixture.paths) {
      const tag = tagOf(await t.get(path, fixture.key));
      expectNotModified(await t.get(path, fixture.key, { 'if-none-match': '*' }), tag, `${path} *`);
    }
  });

  it('a tag that is not the current one answers 200 with the body and the current tag', async () => {
    for (const path of fixture.paths) {
      const plain = await t.get(path, fixture.key);
      const tag = tagOf(plain);
      const unquoted = tag.slice(1, -1);
      for (const header of ['"not-the-tag"', `"${unquoted}x"`, unquoted, `"${unquoted.slice(1)}"`, '"a", "b"', '""', ',']) {
        const response = await t.get(path, fixture.key, { 'if-none-match': header });
        expect(response.statusCode, `${path} If-None-Match: ${header}`).toBe(200);
        expect(response.body).toBe(plain.body);
        expect(response.headers.etag).toBe(tag);
      }
    }
  });

  it('a tag of another resource does not match', async () => {
    const guideTag = tagOf(await t.get(`/v1/guides/${fixture.guideId}`, fixture.key));
    const teamsTag = tagOf(await t.get('/v1/teams', fixture.key));
    const response = await t.get('/v1/teams', fixture.key, { 'if-none-match': guideTag });
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe(teamsTag);
    expect(response.json().data.length).toBe(2);
  });

  it('after a write the old tag answers 200 with the new body and a new tag', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 1);
    const teamId = teams[0].id;
    const guide = await createGuide(t, teamId, { title: 'Before' });
    const user = await t.admin('POST', '/users', { email: `m-${Math.random().toString(36).slice(2)}@example.com`, name: 'Member' });

    const paths = ['/v1/guides', `/v1/guides/${guide.id}`, '/v1/teams', `/v1/members?team_id=${teamId}`];
    const old = new Map<string, string>();
    for (const path of paths) old.set(path, tagOf(await t.get(path, key)));

    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'After' });
    await t.admin('PATCH', `/teams/${teamId}`, { name: 'Renamed team' });
    await t.admin('PUT', `/teams/${teamId}/members/${user.id}`, { role: 'VIEWER' });

    for (const path of paths) {
      const response = await t.get(path, key, { 'if-none-match': old.get(path)! });
      expect(response.statusCode, path).toBe(200);
      const tag = tagOf(response);
      expect(tag, path).not.toBe(old.get(path));
      expectNotModified(await t.get(path, key, { 'if-none-match': tag }), tag, `${path} new tag`);
    }
    expect((await t.get(`/v1/guides/${guide.id}`, key)).json().data.title).toBe('After');
    expect((await t.get('/v1/guides', key)).json().data[0].title).toBe('After');
    expect((await t.get('/v1/teams', key)).json().data[0].name).toBe('Renamed team');
    expect((await t.get(`/v1/members?team_id=${teamId}`, key)).json().data.map((m: { id: string }) => m.id)).toEqual([user.id]);
  });
});

describe('errors never carry a tag and are never 304', () => {
  const conditions = ['*', '"x"', 'W/"x"'];

  async function expectUntaggedError(response: LightMyRequestResponse, status: number, code: string, where: string) {
    expect(response.statusCode, `${where}: ${response.body}`).toBe(status);
    expect(response.headers.etag, where).toBeUndefined();
    expect(response.headers['content-type'], where).toMatch(/^application\/problem\+json/);
    expect(response.json().code, where).toBe(code);
  }

  it('404 for an unknown guide', async () => {
    for (const condition of conditions) {
      await expectUntaggedError(await t.get(`/v1/guides/${crypto.randomUUID()}`, fixture.key, { 'if-none-match': condition }), 404, 'not_found', condition);
      await expectUntaggedError(await t.get('/v1/guides/no-such-permalink', fixture.key, { 'if-none-match': condition }), 404, 'not_found', condition);
    }
  });

  it('404 for a team the key does not reach, and for an unknown path', async () => {
    for (const condition of conditions) {
      await expectUntaggedError(await t.get(`/v1/members?team_id=${crypto.randomUUID()}`, fixture.key, { 'if-none-match': condition }), 404, 'not_found', condition);
      await expectUntaggedError(await t.get(`/v1/guides?team_id=${crypto.randomUUID()}`, fixture.key, { 'if-none-match': condition }), 404, 'not_found', condition);
      await expectUntaggedError(await t.get('/v1/nowhere', fixture.key, { 'if-none-match': condition }), 404, 'not_found', condition);
    }
  });

  it('401 without a key, with an unknown key and with a revoked one', async () => {
    const revoked = await createKey(t, { type: 'team', id: fixture.teamId });
    expect((await t.get('/v1/auth/verify', revoked.secret)).statusCode).toBe(200);
    await t.admin('DELETE', `/api-keys/${revoked.id}`);
    for (const condition of conditions) {
      await expectUntaggedError(await t.get('/v1/guides', null, { 'if-none-match': condition }), 401, 'invalid_key', condition);
      await expectUntaggedError(await t.get('/v1/auth/verify', generateKeySecret(), { 'if-none-match': condition }), 401, 'invalid_key', condition);
      await expectUntaggedError(await t.get('/v1/teams', revoked.secret, { 'if-none-match': condition }), 401, 'invalid_key', condition);
    }
  });

  it('400 for a bad cursor and for an unknown parameter', async () => {
    for (const condition of conditions) {
      await expectUntaggedError(await t.get('/v1/guides?cursor=not-a-cursor', fixture.key, { 'if-none-match': condition }), 400, 'invalid_request', condition);
      await expectUntaggedError(await t.get('/v1/teams?x=1', fixture.key, { 'if-none-match': condition }), 400, 'invalid_request', condition);
    }
  });

  it('403 for a missing scope', async () => {
    const narrow = await createKey(t, { type: 'team', id: fixture.teamId }, { scopes: ['teams:read'] });
    for (const condition of conditions) {
      await expectUntaggedError(await t.get('/v1/guides', narrow.secret, { 'if-none-match': condition }), 403, 'scope_missing', condition);
    }
  });

  it('405 for another method', async () => {
    const response = await t.request('DELETE', `/v1/guides/${fixture.guideId}`, fixture.key, { 'if-none-match': '*' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.etag).toBeUndefined();
  });
});

describe('HEAD', () => {
  it('answers like GET without a body: same status, same tag, 304 on a match', async () => {
    for (const path of fixture.paths) {
      const get = await t.get(path, fixture.key);
      const tag = tagOf(get);
      const head = await t.request('HEAD', path, fixture.key);
      expect(head.statusCode, path).toBe(200);
      expect(head.body, path).toBe('');
      expect(head.headers.etag, path).toBe(tag);
      expect(head.headers['content-type'], path).toBe(get.headers['content-type']);

      const conditional = await t.request('HEAD', path, fixture.key, { 'if-none-match': tag });
      expectNotModified(conditional, tag, `HEAD ${path}`);
      const star = await t.request('HEAD', path, fixture.key, { 'if-none-match': '*' });
      expectNotModified(star, tag, `HEAD ${path} *`);
      const other = await t.request('HEAD', path, fixture.key, { 'if-none-match': '"other"' });
      expect(other.statusCode, path).toBe(200);
      expect(other.headers.etag, path).toBe(tag);
    }
  });

  it('an error to HEAD carries no tag, even with If-None-Match: *', async () => {
    const response = await t.request('HEAD', `/v1/guides/${crypto.randomUUID()}`, fixture.key, { 'if-none-match': '*' });
    expect(response.statusCode).toBe(404);
    expect(response.headers.etag).toBeUndefined();
    expect(response.body).toBe('');
  });
});

describe('rate limit', () => {
  it('a 304 counts against the rate limit like any answer', async () => {
    const key = await createKey(t, { type: 'team', id: fixture.teamId });
    const path = `/v1/guides/${fixture.guideId}`;
    const first = await t.get(path, key.secret);
    const tag = tagOf(first);
    let remaining = Number(first.headers['ratelimit-remaining']);
    for (let i = 0; i < 3; i++) {
      const response = await t.get(path, key.secret, { 'if-none-match': tag });
      expectNotModified(response, tag, `conditional ${i}`);
      const now = Number(response.headers['ratelimit-remaining']);
      expect(now, `conditional ${i}`).toBe(remaining - 1);
      remaining = now;
    }
    const head = await t.request('HEAD', path, key.secret, { 'if-none-match': tag });
    expect(head.statusCode).toBe(304);
    expect(Number(head.headers['ratelimit-remaining'])).toBe(remaining - 1);
  });

  it('once the limit is spent, a conditional request is 429, not 304', async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const { teams, key } = await organizationWithTeams(limited, 'growth', 1);
      const path = `/v1/members?team_id=${teams[0].id}`;
      const tag = tagOf(await limited.get(path, key));
      expect((await limited.get(path, key, { 'if-none-match': tag })).statusCode).toBe(304);
      const lastAllowed = await limited.get(path, key, { 'if-none-match': tag });
      expect(lastAllowed.statusCode).toBe(304);
      expect(lastAllowed.headers['ratelimit-remaining']).toBe('0');
      const refused = await limited.get(path, key, { 'if-none-match': tag });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers.etag).toBeUndefined();
      expect(refused.json().code).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});

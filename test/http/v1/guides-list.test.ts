// GET /v1/guides (spec §1, §2.2, §2.6, §4.2, §7, §8; decisions §2, §3, §4): what a key lists, in which
// order, how it pages, how it searches and how each item carries its `locked` flag. Every answer goes
// through t.get, so it is also checked against the OpenAPI document the service serves.
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createGuide,
  createKey,
  organizationWithTeams,
  soloTeam,
  useTestService,
} from '../../support/service.js';
import { LIST_ITEM_FIELDS } from '../../support/spec-fields.js';

const t = useTestService();
afterEach(() => {
  vi.restoreAllMocks();
});


interface Item {
  id: string;
  team_id: string;
  created_at: string;
  title: string | null;
  locked: boolean;
  [field: string]: unknown;
}

interface Page {
  data: Item[];
  next_cursor: string | null;
}

/** A query string from parameters, every value percent-encoded. */
function query(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

async function list(key: string, params: Record<string, string | number | undefined> = {}): Promise<Page> {
  const response = await t.get(`/v1/guides${query(params)}`, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Page;
}

/** A short random slug part, for e-mail addresses and permalinks that must not collide. */
const unique = () => Math.random().toString(36).slice(2, 10);

const ids = (items: { id: string }[]) => items.map((item) => item.id);

/** Newest first: created_at descending, then id descending (decisions §4). */
function newestFirst<T extends { created_at: string; id: string }>(guides: T[]): T[] {
  return [...guides].sort((a, b) =>
    a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0,
  );
}

function expectInvalidRequest(response: LightMyRequestResponse, parameter: string): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json();
  expect(body.code).toBe('invalid_request');
  expect(body.status).toBe(400);
  expect(body.detail).toMatch(new RegExp(`(^|[^a-z_])${parameter}([^a-z_]|$)`));
}

function expectNotFound(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(404);
  expect(response.json().code).toBe('not_found');
}

/**
 * Takes the clock over: creations happen at exactly the instant set here, so that several guides can
 * share one millisecond. Restored after each test.
 */
function frozenClock() {
  let now = t.clock.now().getTime() + 60_000;
  vi.spyOn(t.clock, 'now').mockImplementation(() => new Date(now));
  return {
    advance(ms: number) {
      now += ms;
    },
  };
}

/** Creates guides one after the other, moving the test clock `gapMs` after each. */
async function createSpaced(teamId: string, count: number, fields: (i: number) => Record<string, unknown> = () => ({}), gapMs = 1000) {
  const made = [];
  for (let i = 0; i < count; i++) {
    made.push(await createGuide(t, teamId, { title: `Guide ${i}`, ...fields(i) }));
    t.clock.advance(gapMs);
  }
  return made;
}

interface Walk {
  pages: Item[][];
  items: Item[];
  lastCursor: string | null;
}

/** Follows next_cursor from the first page to the last; `between` runs after each page but the last. */
async function walk(
  key: string,
  params: Record<string, string | undefined>,
  limitOf: (page: number) => number,
  between?: (page: number, items: Item[]) => Promise<void>,
): Promise<Walk> {
  const pages: Item[][] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 200; page++) {
    const answer = await list(key, { ...params, limit: limitOf(page), cursor });
    pages.push(answer.data);
    if (answer.next_cursor === null) return { pages, items: pages.flat(), lastCursor: null };
    expect(answer.data).toHaveLength(limitOf(page));
    cursor = answer.next_cursor;
    if (between) await between(page, answer.data);
  }
  throw new Error('the walk did not end');
}

describe('order', () => {
  it('guides are listed newest first by created_at (spec §4.2, decisions §4)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const made = await createSpaced(team.id, 6, undefined, 1500);
    const page = await list(key);
    expect(ids(page.data)).toEqual(ids(made).reverse());
    const times = page.data.map((item) => item.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(new Set(times).size).toBe(6);
    expect(page.next_cursor).toBeNull();
  });

  it('guides created in the same millisecond are ordered by id descending (decisions §4)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const clock = frozenClock();
    const older = await createGuide(t, team.id, { title: 'older' });
    clock.advance(7);
    const sameMs = [];
    for (let i = 0; i < 8; i++) sameMs.push(await createGuide(t, team.id, { title: `same ${i}` }));
    clock.advance(7);
    const newer = await createGuide(t, team.id, { title: 'newer' });
    expect(new Set(sameMs.map((guide) => guide.created_at)).size).toBe(1);

    const page = await list(key);
    const sameIdsDescending = ids(sameMs).sort().reverse();
    expect(ids(page.data)).toEqual([newer.id, ...sameIdsDescending, older.id]);
  });

  it('an organization key interleaves the guides of its teams in one newest-first order (decisions §4)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 3);
    const made = [];
    for (let i = 0; i < 9; i++) {
      made.push(await createGuide(t, teams[i % 3].id, { title: `Guide ${i}` }));
      t.clock.advance(1000);
    }
    const page = await list(key);
    expect(ids(page.data)).toEqual(ids(made).reverse());
    expect(page.data.map((item) => item.team_id)).toEqual(made.map((guide) => guide.team_id).reverse());
  });
});

describe('which guides are listed', () => {
  it('drafts are listed together with published guides (spec §1, §4.2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const draft = await createGuide(t, team.id, { title: 'Draft', publish_status: 'DRAFT' });
    t.clock.advance(1000);
    const published = await createGuide(t, team.id, { title: 'Published', publish_status: 'PUBLISHED' });
    const page = await list(key);
    expect(page.data.map((item) => [item.id, item.publish_status])).toEqual([
      [published.id, 'PUBLISHED'],
      [draft.id, 'DRAFT'],
    ]);
  });

  it('processing guides are excluded from the list (spec §1, §3.2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const done = await createGuide(t, team.id, { title: 'Done' });
    t.clock.advance(1000);
    await createGuide(t, team.id, { title: 'Still processing', processing: true, steps: [{ text: 'a' }] });
    t.clock.advance(1000);
    await createGuide(t, team.id, { title: 'Processing too', processing: true });
    const page = await list(key);
    expect(ids(page.data)).toEqual([done.id]);
    const search = await list(key, { q: 'processing' });
    expect(search.data).toEqual([]);
    const narrowed = await list(key, { team_id: team.id });
    expect(ids(narrowed.data)).toEqual([done.id]);
  });

  it('a guide whose processing failed stays listed (spec §3.2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const failed = await createGuide(t, team.id, { title: 'Import that failed', processing: true });
    expect(await list(key)).toEqual({ data: [], next_cursor: null });
    await t.admin('POST', `/guides/${failed.id}/processing`, { outcome: 'failed', error: 'bad file' });
    const page = await list(key);
    expect(ids(page.data)).toEqual([failed.id]);
    expect(page.data[0]!.title).toBe('Import that failed');
  });

  it('a guide appears once its processing finishes, in its created_at place (spec §3.2, decisions §4)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const first = await createGuide(t, team.id, { title: 'First' });
    t.clock.advance(1000);
    const recording = await createGuide(t, team.id, { title: 'Recording', processing: true, steps: [{ text: 'Click' }] });
    t.clock.advance(1000);
    const last = await createGuide(t, team.id, { title: 'Last' });
    expect(ids((await list(key)).data)).toEqual([last.id, first.id]);
    t.clock.advance(1000);
    await t.admin('POST', `/guides/${recording.id}/processing`, { outcome: 'finished' });
    expect(ids((await list(key)).data)).toEqual([last.id, recording.id, first.id]);
  });

  it('an organization key lists the guides of every team of its organization and nothing else (spec §1)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 3);
    const other = await organizationWithTeams(t, 'growth', 1);
    const solo = await soloTeam(t, 'growth');
    const mine = [];
    for (const team of teams) {
      mine.push(await createGuide(t, team.id, { title: `In ${team.name}` }));
      t.clock.advance(10);
    }
    await createGuide(t, other.teams[0].id, { title: 'Other organization' });
    await createGuide(t, solo.team.id, { title: 'Solo team' });
    const page = await list(key);
    expect(new Set(ids(page.data))).toEqual(new Set(ids(mine)));
    expect(new Set(page.data.map((item) => item.team_id))).toEqual(new Set(teams.map((team: { id: string }) => team.id)));
  });

  it('an organization key reaches a team that joins the organization later (spec §1)', async () => {
    const { organization, teams, key } = await organizationWithTeams(t, 'growth', 1);
    const before = await createGuide(t, teams[0].id, { title: 'Before' });
    const newcomer = await t.admin('POST', '/teams', { name: 'Newcomer' });
    t.clock.advance(1000);
    const joined = await createGuide(t, newcomer.id, { title: 'From the newcomer' });
    expect(ids((await list(key)).data)).toEqual([before.id]);
    expectNotFound(await t.get(`/v1/guides${query({ team_id: newcomer.id })}`, key));

    await t.admin('PATCH', `/teams/${newcomer.id}`, { organization_id: organization.id });
    expect(ids((await list(key)).data)).toEqual([joined.id, before.id]);
    expect(ids((await list(key, { team_id: newcomer.id })).data)).toEqual([joined.id]);
  });

  it('a team that leaves its organization takes its guides out of the list, and a guide moved between organizations follows its team', async () => {
    const first = await organizationWithTeams(t, 'growth', 2);
    const second = await organizationWithTeams(t, 'growth', 1);
    const [stays, leaves] = first.teams;
    const kept = await createGuide(t, stays.id, { title: 'Stays' });
    t.clock.advance(10);
    const leaving = await createGuide(t, leaves.id, { title: 'Leaves with its team' });
    t.clock.advance(10);
    const moving = await createGuide(t, stays.id, { title: 'Moves to the other organization' });
    expect(ids((await list(first.key)).data)).toEqual([moving.id, leaving.id, kept.id]);

    await t.admin('PATCH', `/teams/${leaves.id}`, { organization_id: null });
    await t.admin('POST', `/guides/${moving.id}/move`, { team_id: second.teams[0].id });
    expect(ids((await list(first.key)).data)).toEqual([kept.id]);
    expect(ids((await list(second.key)).data)).toEqual([moving.id]);

    await t.admin('PATCH', `/teams/${leaves.id}`, { organization_id: second.organization.id });
    expect(ids((await list(second.key)).data)).toEqual([moving.id, leaving.id]);
    expect(ids((await list(second.key, { limit: 1 })).data)).toEqual([moving.id]);
  });

  it('a team key lists only the guides of its own team (spec §1)', async () => {
    const { teams, key: organizationKey } = await organizationWithTeams(t, 'growth', 2);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    const own = await createGuide(t, teams[0].id, { title: 'Own' });
    const sibling = await createGuide(t, teams[1].id, { title: 'Sibling team' });
    const page = await list(teamKey);
    expect(ids(page.data)).toEqual([own.id]);
    expect(page.data[0]!.team_id).toBe(teams[0].id);
    expect(new Set(ids((await list(organizationKey)).data))).toEqual(new Set([own.id, sibling.id]));
  });
});

describe('team_id', () => {
  it('team_id narrows the list to that team (spec §4.2)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 3);
    const byTeam = new Map<string, string[]>();
    for (let i = 0; i < 9; i++) {
      const guide = await createGuide(t, teams[i % 3].id, { title: `Guide ${i}` });
      byTeam.set(guide.team_id, [guide.id, ...(byTeam.get(guide.team_id) ?? [])]);
      t.clock.advance(1000);
    }
    for (const team of teams) {
      const page = await list(key, { team_id: team.id });
      expect(ids(page.data)).toEqual(byTeam.get(team.id));
      expect(page.data.every((item) => item.team_id === team.id)).toBe(true);
    }
  });

  it('a team_id the key does not reach is 404 not_found (decisions §4)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 2);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    const other = await organizationWithTeams(t, 'growth', 1);
    const solo = await soloTeam(t, 'growth');
    await createGuide(t, other.teams[0].id);
    await createGuide(t, solo.team.id);
    await createGuide(t, teams[1].id);
    expectNotFound(await t.get(`/v1/guides${query({ team_id: other.teams[0].id })}`, key));
    expectNotFound(await t.get(`/v1/guides${query({ team_id: solo.team.id })}`, key));
    expectNotFound(await t.get(`/v1/guides${query({ team_id: '00000000-0000-4000-8000-000000000000' })}`, key));
    // A team key reaches its own team only, even inside its organization.
    expectNotFound(await t.get(`/v1/guides${query({ team_id: teams[1].id })}`, teamKey));
    expect((await list(teamKey, { team_id: teams[0].id })).data).toEqual([]);
  });

  it.each([
    ['not a uuid', 'abc'],
    ['a number', '123'],
    ['a uuid without dashes', '0123456789abcdef0123456789abcdef'],
    ['a uuid with a stray character', '01234567-89ab-cdef-0123-456789abcdeg'],
    ['a uuid in braces', '{01234567-89ab-cdef-0123-456789abcdef}'],
    ['an empty value', ''],
  ])('a malformed team_id (%s) is 400 invalid_request naming team_id (spec §4.2)', async (_label, value) => {
    const { key } = await soloTeam(t, 'growth');
    expectInvalidRequest(await t.get(`/v1/guides${query({ team_id: value })}`, key), 'team_id');
  });

  it('a repeated team_id is 400 invalid_request naming team_id (decisions §4)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    expectInvalidRequest(await t.get(`/v1/guides?team_id=${team.id}&team_id=${team.id}`, key), 'team_id');
  });

  it('an uppercase team_id is accepted as the same team (decisions §2)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 2);
    const guide = await createGuide(t, teams[0].id);
    await createGuide(t, teams[1].id);
    const page = await list(key, { team_id: teams[0].id.toUpperCase() });
    expect(ids(page.data)).toEqual([guide.id]);
  });
});

describe('limit', () => {
  let key: string;
  let all: string[];
  beforeAll(async () => {
    const solo = await soloTeam(t, 'growth');
    key = solo.key;
    const made = await createSpaced(solo.team.id, 105, undefined, 5);
    all = ids(made).reverse();
  });

  it('limit defaults to 50 rows per page (spec §4.2, §8)', async () => {
    const page = await list(key);
    expect(ids(page.data)).toEqual(all.slice(0, 50));
    expect(page.next_cursor).not.toBeNull();
  });

  it('limit 1 is accepted and gives one row (spec §4.2)', async () => {
    const page = await list(key, { limit: 1 });
    expect(ids(page.data)).toEqual(all.slice(0, 1));
    expect(page.next_cursor).not.toBeNull();
  });

  it('limit 100 is accepted and gives a hundred rows (spec §4.2)', async () => {
    const page = await list(key, { limit: 100 });
    expect(ids(page.data)).toEqual(all.slice(0, 100));
    const rest = await list(key, { limit: 100, cursor: page.next_cursor! });
    expect(ids(rest.data)).toEqual(all.slice(100));
    expect(rest.next_cursor).toBeNull();
  });

  it.each([
    ['0', 'limit=0'],
    ['101', 'limit=101'],
    ['-1', 'limit=-1'],
    ['1.5', 'limit=1.5'],
    ['abc', 'limit=abc'],
    ['empty', 'limit='],
    ['repeated', 'limit=5&limit=6'],
  ])('limit %s is 400 invalid_request naming limit (spec §4.2, decisions §4)', async (_label, search) => {
    expectInvalidRequest(await t.get(`/v1/guides?${search}`, key), 'limit');
  });

  it('an unknown query parameter is 400 invalid_request naming it (decisions §4)', async () => {
    expectInvalidRequest(await t.get('/v1/guides?page=2', key), 'page');
  });
});

describe('pagination', () => {
  /** ~40 guides over 3 teams, in groups of three that share a millisecond, so ties fall on page edges. */
  async function fortyGuidesOverThreeTeams() {
    const fixture = await organizationWithTeams(t, 'growth', 3);
    const clock = frozenClock();
    const made = [];
    for (let i = 0; i < 40; i++) {
      if (i % 3 === 0) clock.advance(5);
      made.push(await createGuide(t, fixture.teams[(i * 7) % 3].id, { title: `Walk guide ${i}` }));
    }
    vi.restoreAllMocks();
    return { ...fixture, made, expected: ids(newestFirst(made)) };
  }

  it('a walk with limit 7 returns every guide exactly once, newest first (spec §4.2, decisions §4)', async () => {
    const { key, expected } = await fortyGuidesOverThreeTeams();
    const result = await walk(key, {}, () => 7);
    expect(result.pages.map((page) => page.length)).toEqual([7, 7, 7, 7, 7, 5]);
    expect(ids(result.items)).toEqual(expected);
    expect(new Set(ids(result.items)).size).toBe(40);
  });

  it('a walk narrowed by team_id pages through that team only (spec §4.2)', async () => {
    const { key, teams, made } = await fortyGuidesOverThreeTeams();
    for (const team of teams) {
      const expected = ids(newestFirst(made.filter((guide) => guide.team_id === team.id)));
      const result = await walk(key, { team_id: team.id }, () => 4);
      expect(ids(result.items)).toEqual(expected);
    }
  });

  it('guides created between pages do not appear in later pages and nothing is skipped or repeated (decisions §4)', async () => {
    const { key, teams, expected } = await fortyGuidesOverThreeTeams();
    t.clock.advance(120_000);
    const inserted: string[] = [];
    const result = await walk(
      key,
      {},
      () => 7,
      async (page) => {
        for (const team of teams) {
          t.clock.advance(3);
          inserted.push((await createGuide(t, team.id, { title: `Inserted after page ${page}` })).id);
        }
      },
    );
    expect(ids(result.items)).toEqual(expected);
    expect(inserted).toHaveLength(15);
    // The newcomers are newest: a fresh first page starts with them.
    const fresh = await list(key, { limit: 15 });
    expect(new Set(ids(fresh.data))).toEqual(new Set(inserted));
  });

  it('a guide deleted before its page is reached is left out and nothing else is skipped (decisions §4)', async () => {
    const { key, expected } = await fortyGuidesOverThreeTeams();
    const doomed = [expected[10]!, expected[30]!, expected[39]!];
    const result = await walk(
      key,
      {},
      () => 7,
      async (page) => {
        if (page === 0) for (const id of doomed) await t.admin('DELETE', `/guides/${id}`);
      },
    );
    expect(ids(result.items)).toEqual(expected.filter((id) => !doomed.includes(id)));
  });

  it('deleting the guide a cursor ends on does not break the walk (decisions §4)', async () => {
    const { key, expected } = await fortyGuidesOverThreeTeams();
    const result = await walk(
      key,
      {},
      () => 7,
      async (_page, items) => {
        await t.admin('DELETE', `/guides/${items[items.length - 1]!.id}`);
      },
    );
    expect(ids(result.items)).toEqual(expected);
  });

  it('limit may change from page to page (decisions §4)', async () => {
    const { key, expected } = await fortyGuidesOverThreeTeams();
    const sizes = [1, 10, 3, 100];
    const result = await walk(key, {}, (page) => sizes[page]!);
    expect(result.pages.map((page) => page.length)).toEqual([1, 10, 3, 26]);
    expect(ids(result.items)).toEqual(expected);
  });

  it('next_cursor is null on the last page, also when the last page is full (spec §2.6)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const made = await createSpaced(team.id, 14, undefined, 10);
    const first = await list(key, { limit: 7 });
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await list(key, { limit: 7, cursor: first.next_cursor! });
    expect(ids([...first.data, ...second.data])).toEqual(ids(made).reverse());
    expect(second.next_cursor).toBeNull();
    const whole = await list(key, { limit: 14 });
    expect(whole.next_cursor).toBeNull();
    const empty = await list((await soloTeam(t, 'growth')).key);
    expect(empty).toEqual({ data: [], next_cursor: null });
  });
});

describe('cursor', () => {
  async function pagedFixture() {
    const fixture = await organizationWithTeams(t, 'growth', 2);
    for (let i = 0; i < 6; i++) {
      await createGuide(t, fixture.teams[i % 2].id, { title: `Cursor guide ${i}` });
      t.clock.advance(10);
    }
    const first = await list(fixture.key, { limit: 2 });
    return { ...fixture, cursor: first.next_cursor! };
  }

  const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  /** The cursor with its character at `index` replaced by a different base64url character. */
  const alteredAt = (cursor: string, index: number, flip = 1) =>
    cursor.slice(0, index) + B64URL[B64URL.indexOf(cursor[index]!) ^ flip] + cursor.slice(index + 1);

  it('a cursor altered in one character is 400 invalid_request naming cursor (decisions §4)', async () => {
    const { key, cursor } = await pagedFixture();
    expect((await t.get(`/v1/guides${query({ limit: 2, cursor })}`, key)).statusCode).toBe(200);
    const middle = Math.floor(cursor.length / 2);
    const index = cursor[middle] === '.' ? middle + 1 : middle;
    expectInvalidRequest(await t.get(`/v1/guides${query({ limit: 2, cursor: alteredAt(cursor, index, 32) })}`, key), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ limit: 2, cursor: alteredAt(cursor, 3, 32) })}`, key), 'cursor');
  });

  it('a cursor altered at any single character, its last one included, is 400 (decisions §4)', async () => {
    const { key, cursor } = await pagedFixture();
    const accepted: string[] = [];
    for (let index = 0; index < cursor.length; index++) {
      if (cursor[index] === '.') continue;
      const altered = alteredAt(cursor, index);
      const response = await t.get(`/v1/guides${query({ limit: 2, cursor: altered })}`, key);
      if (response.statusCode !== 400) accepted.push(`position ${index} (${cursor[index]}→${altered[index]}): ${response.statusCode}`);
      else expectInvalidRequest(response, 'cursor');
    }
    expect(accepted).toEqual([]);
  });

  it.each([
    ['a word', 'garbage'],
    ['two made-up parts', 'abc.def'],
    ['dots only', '....'],
    ['JSON', '{"created_at":"2026-01-01T00:00:00.000Z"}'],
    ['a bare timestamp and id', '2026-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000'],
    ['an empty value', ''],
    ['a very long value', 'A'.repeat(600)],
    ['unicode', 'écran.ß'],
  ])('a garbage cursor (%s) is 400 invalid_request naming cursor (decisions §4)', async (_label, cursor) => {
    const { key } = await soloTeam(t, 'growth');
    expectInvalidRequest(await t.get(`/v1/guides${query({ cursor })}`, key), 'cursor');
  });

  it('a forged cursor naming a real position without the right signature is 400 naming cursor (decisions §4)', async () => {
    const { key, cursor } = await pagedFixture();
    const [payload] = cursor.split('.');
    expectInvalidRequest(await t.get(`/v1/guides${query({ cursor: payload })}`, key), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ cursor: `${payload}.${'A'.repeat(22)}` })}`, key), 'cursor');
    const decoded = Buffer.from(payload!, 'base64url').toString('utf8');
    const moved = decoded.replace(/^(\d{4})/, (year) => String(Number(year) + 1));
    const forged = `${Buffer.from(moved).toString('base64url')}.${cursor.split('.')[1]}`;
    expectInvalidRequest(await t.get(`/v1/guides${query({ cursor: forged })}`, key), 'cursor');
  });

  it('a cursor used with a different team_id is 400 naming cursor (decisions §4)', async () => {
    const fixture = await organizationWithTeams(t, 'growth', 2);
    for (let i = 0; i < 6; i++) {
      await createGuide(t, fixture.teams[i % 2].id, { title: `Team guide ${i}` });
      t.clock.advance(10);
    }
    const [a, b] = fixture.teams;
    const narrowed = await list(fixture.key, { team_id: a.id, limit: 1 });
    const unfiltered = await list(fixture.key, { limit: 1 });
    // Same filter again: accepted, also when the team_id is written in capitals.
    expect((await t.get(`/v1/guides${query({ team_id: a.id, limit: 1, cursor: narrowed.next_cursor! })}`, fixture.key)).statusCode).toBe(200);
    expect((await t.get(`/v1/guides${query({ team_id: a.id.toUpperCase(), limit: 1, cursor: narrowed.next_cursor! })}`, fixture.key)).statusCode).toBe(200);
    expectInvalidRequest(await t.get(`/v1/guides${query({ team_id: b.id, cursor: narrowed.next_cursor! })}`, fixture.key), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ cursor: narrowed.next_cursor! })}`, fixture.key), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ team_id: a.id, cursor: unfiltered.next_cursor! })}`, fixture.key), 'cursor');
  });

  it('a cursor used with a different q is 400 naming cursor (decisions §4)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    await createSpaced(team.id, 4, (i) => ({ title: `Printer setup ${i}` }), 10);
    const searched = await list(key, { q: 'printer', limit: 1 });
    const unfiltered = await list(key, { limit: 1 });
    expect((await t.get(`/v1/guides${query({ q: 'printer', limit: 1, cursor: searched.next_cursor! })}`, key)).statusCode).toBe(200);
    expectInvalidRequest(await t.get(`/v1/guides${query({ q: 'setup', cursor: searched.next_cursor! })}`, key), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ q: 'PRINTER', cursor: searched.next_cursor! })}`, key), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ cursor: searched.next_cursor! })}`, key), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ q: 'printer', cursor: unfiltered.next_cursor! })}`, key), 'cursor');
  });

  it('a cursor used by another key is 400 naming cursor, even a key with the same reach (decisions §4)', async () => {
    const { organization, teams, key, cursor } = await pagedFixture();
    const twin = (await createKey(t, { type: 'organization', id: organization.id }, { name: 'twin' })).secret;
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    const stranger = (await organizationWithTeams(t, 'growth', 1)).key;
    expect((await t.get(`/v1/guides${query({ limit: 2, cursor })}`, key)).statusCode).toBe(200);
    expectInvalidRequest(await t.get(`/v1/guides${query({ limit: 2, cursor })}`, twin), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ limit: 2, cursor })}`, teamKey), 'cursor');
    expectInvalidRequest(await t.get(`/v1/guides${query({ limit: 2, cursor })}`, stranger), 'cursor');
  });

  it('a repeated cursor is 400 invalid_request naming cursor (decisions §4)', async () => {
    const { key, cursor } = await pagedFixture();
    expectInvalidRequest(await t.get(`/v1/guides?cursor=${cursor}&cursor=${cursor}`, key), 'cursor');
  });
});

describe('search q', () => {
  /** A team with the given titles (plus a few that match nothing) and its key. */
  async function titled(titles: string[]) {
    const { team, key } = await soloTeam(t, 'growth');
    const made = new Map<string, string>();
    for (const title of [...titles, 'Unrelated guide', 'Another one']) {
      made.set(title, (await createGuide(t, team.id, { title })).id);
      t.clock.advance(10);
    }
    const search = async (q: string) => (await list(key, { q })).data.map((item) => item.title);
    return { team, key, made, search };
  }

  it('q of 1 character is 400 invalid_request naming q (spec §4.2, §8)', async () => {
    const { key } = await soloTeam(t, 'growth');
    expectInvalidRequest(await t.get(`/v1/guides${query({ q: 'a' })}`, key), 'q');
    expectInvalidRequest(await t.get(`/v1/guides${query({ q: 'ß' })}`, key), 'q');
    expectInvalidRequest(await t.get(`/v1/guides${query({ q: '' })}`, key), 'q');
  });

  it('q of 201 characters is 400 invalid_request naming q, 200 is accepted (spec §4.2, §8)', async () => {
    const title = 'x'.repeat(150) + 'y'.repeat(60);
    const { key, search } = await titled([title]);
    expectInvalidRequest(await t.get(`/v1/guides${query({ q: 'y'.repeat(201) })}`, key), 'q');
    expect(await search('x'.repeat(140) + 'y'.repeat(60))).toEqual([title]);
    expect(await search('é'.repeat(200))).toEqual([]);
    expectInvalidRequest(await t.get(`/v1/guides${query({ q: 'é'.repeat(201) })}`, key), 'q');
  });

  it('a repeated q is 400 invalid_request naming q (decisions §4)', async () => {
    const { key } = await soloTeam(t, 'growth');
    expectInvalidRequest(await t.get('/v1/guides?q=ab&q=cd', key), 'q');
  });

  it('q matches the title ignoring case, also accented letters: ÉCRAN finds écran (decisions §4)', async () => {
    const { search } = await titled(["Régler l'écran", 'ÉCRAN DE VEILLE', 'Ecran sans accent']);
    expect((await search('ÉCRAN')).sort()).toEqual(["Régler l'écran", 'ÉCRAN DE VEILLE'].sort());
    expect((await search('écran')).sort()).toEqual(["Régler l'écran", 'ÉCRAN DE VEILLE'].sort());
    expect(await search('RÉGLER L')).toEqual(["Régler l'écran"]);
  });

  it('q treats decomposed and precomposed accents alike (decisions §4)', async () => {
    const { search } = await titled(['Café setup']);
    expect(await search('CAFE\u0301')).toEqual(['Café setup']);
  });

  it('q folds ß and SS: straße and STRASSE find each other (decisions §4)', async () => {
    const { search } = await titled(['Hauptstraße öffnen', 'STRASSENKARTE']);
    expect((await search('STRASSE')).sort()).toEqual(['Hauptstraße öffnen', 'STRASSENKARTE'].sort());
    expect((await search('straße')).sort()).toEqual(['Hauptstraße öffnen', 'STRASSENKARTE'].sort());
    expect(await search('ÖFFNEN')).toEqual(['Hauptstraße öffnen']);
  });

  it('q ignores case for Greek letters (decisions §4)', async () => {
    const { search } = await titled(['Οδηγός ρυθμίσεων', 'ΑΛΦΑΒΗΤΟ']);
    expect(await search('ΟΔΗΓΌΣ')).toEqual(['Οδηγός ρυθμίσεων']);
    expect(await search('ΡΥΘΜΊΣΕΩΝ')).toEqual(['Οδηγός ρυθμίσεων']);
    expect(await search('αλφαβητο')).toEqual(['ΑΛΦΑΒΗΤΟ']);
  });

  it('q finds a Greek word from its beginning whatever the case of its sigma: σύσ and ΣΎΣ find Σύστημα (decisions §4)', async () => {
    const { search } = await titled(['Σύστημα πληρωμών']);
    expect(await search('ΣΎΣΤΗΜΑ')).toEqual(['Σύστημα πληρωμών']);
    expect(await search('σύστ')).toEqual(['Σύστημα πληρωμών']);
    // A medial σ typed last (as a user does while typing) must still match, in either case.
    expect(await search('σύσ')).toEqual(['Σύστημα πληρωμών']);
    expect(await search('ΣΎΣ')).toEqual(['Σύστημα πληρωμών']);
  });

  it('q ignores case for Cyrillic letters (decisions §4)', async () => {
    const { search } = await titled(['Настройка принтера', 'ЁЛКА']);
    expect(await search('НАСТРОЙКА')).toEqual(['Настройка принтера']);
    expect(await search('ПРИНТЕР')).toEqual(['Настройка принтера']);
    expect(await search('ёлка')).toEqual(['ЁЛКА']);
  });

  it('q matches a substring in the middle of a word (decisions §4)', async () => {
    const { search } = await titled(['Reconfiguration wizard', 'Figure it out']);
    expect(await search('CONFIGURAT')).toEqual(['Reconfiguration wizard']);
    expect(await search('nfig')).toEqual(['Reconfiguration wizard']);
    expect((await search('FIGUR')).sort()).toEqual(['Figure it out', 'Reconfiguration wizard'].sort());
    expect(await search('ation wiz')).toEqual(['Reconfiguration wizard']);
  });

  it('q of 2 characters works, in any case (spec §4.2)', async () => {
    const { search } = await titled(['Tab order', 'Xy plot', 'Éé accent']);
    expect(await search('ab')).toEqual(['Tab order']);
    expect(await search('AB')).toEqual(['Tab order']);
    expect(await search('xY')).toEqual(['Xy plot']);
    expect(await search('ÉÉ')).toEqual(['Éé accent']);
    expect(await search('zq')).toEqual([]);
  });

  it('% in q is a plain character and does not match everything (decisions §4)', async () => {
    const { search } = await titled(['Save 50% today', 'Save 500 today', '100%% sure']);
    expect(await search('%%')).toEqual(['100%% sure']);
    expect(await search('0%')).toEqual(expect.arrayContaining(['Save 50% today', '100%% sure']));
    expect((await search('0%')).length).toBe(2);
    expect(await search('50%')).toEqual(['Save 50% today']);
    expect(await search('% t')).toEqual(['Save 50% today']);
    expect(await search('%a%')).toEqual([]);
  });

  it('_ in q is a plain character, not a single-character wildcard (decisions §4)', async () => {
    const { search } = await titled(['snake_case names', 'snakeXcase names']);
    expect(await search('e_c')).toEqual(['snake_case names']);
    expect(await search('snake_case')).toEqual(['snake_case names']);
    expect(await search('__')).toEqual([]);
    expect(await search('e_')).toEqual(['snake_case names']);
  });

  it('\\ in q is a plain character, not an escape (decisions §4)', async () => {
    const { search } = await titled(['C:\\Users path', 'C:/Users path', 'Percent 5\\% off']);
    expect(await search(':\\')).toEqual(['C:\\Users path']);
    expect(await search('C:\\USERS')).toEqual(['C:\\Users path']);
    expect(await search('\\%')).toEqual(['Percent 5\\% off']);
    expect(await search('\\\\')).toEqual([]);
  });

  it.each([["' OR 1=1 --"], ['" OR ""="'], ["'); DROP TABLE guides; --"], ['* OR title:*'], ['NEAR(a b)'], ['a" OR "b']])(
    'SQL- or query-looking q %s matches nothing and does not fail (decisions §4)',
    async (q) => {
      const { key, search } = await titled(['Plain title', 'a b c']);
      expect(await search(q)).toEqual([]);
      expect((await list(key)).data.length).toBe(4);
    },
  );

  it('double quotes in q are matched literally (decisions §4)', async () => {
    const { search } = await titled(['Say "hello" world', 'Say hello world', 'Two "" quotes']);
    expect(await search('"hello"')).toEqual(['Say "hello" world']);
    expect(await search('y "H')).toEqual(['Say "hello" world']);
    expect(await search('""')).toEqual(['Two "" quotes']);
    expect(await search('"""')).toEqual([]);
  });

  it('emoji in q are matched literally (decisions §4)', async () => {
    const { search } = await titled(['Deploy 🚀 rocket', '🚀🎉 Launch party', 'No emoji']);
    expect(await search('🚀 R')).toEqual(['Deploy 🚀 rocket']);
    expect(await search('🚀🎉')).toEqual(['🚀🎉 Launch party']);
    expect(await search('🎉 launch')).toEqual(['🚀🎉 Launch party']);
    expect(await search('🎉🚀')).toEqual([]);
  });

  it('q matches the title only, not the description (spec §4.2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    await createGuide(t, team.id, { title: 'Plain', description: 'mentions printer' });
    const titledGuide = await createGuide(t, team.id, { title: 'Printer', description: 'plain' });
    expect(ids((await list(key, { q: 'printer' })).data)).toEqual([titledGuide.id]);
  });

  it('q combines with team_id and pagination (spec §4.2, decisions §4)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 2);
    const made = [];
    for (let i = 0; i < 24; i++) {
      const title = i % 3 === 0 ? `Unrelated ${i}` : `${i % 2 ? 'PRINTER' : 'printer'} setup ${i}`;
      made.push(await createGuide(t, teams[i % 2].id, { title }));
      t.clock.advance(10);
    }
    const matching = made.filter((guide) => /printer/i.test(guide.title));
    const all = await walk(key, { q: 'Printer' }, () => 3);
    expect(ids(all.items)).toEqual(ids(newestFirst(matching)));
    const inTeam = await walk(key, { q: 'rinte', team_id: teams[1].id }, () => 2);
    expect(ids(inTeam.items)).toEqual(ids(newestFirst(matching.filter((guide) => guide.team_id === teams[1].id))));
    const twoLetters = await walk(key, { q: 'PR', team_id: teams[0].id }, () => 2);
    expect(ids(twoLetters.items)).toEqual(ids(newestFirst(matching.filter((guide) => guide.team_id === teams[0].id))));
  });

  it('q follows title edits (decisions §4)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: 'Old name' });
    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Brand NEW name' });
    expect((await list(key, { q: 'old' })).data).toEqual([]);
    expect(ids((await list(key, { q: 'new n' })).data)).toEqual([guide.id]);
  });
});

describe('locked per plan', () => {
  it('a free team with 27 guides lists all 27 with exactly the 2 newest locked (spec §2.2, §4.2, decisions §3)', async () => {
    const { team, key } = await soloTeam(t, 'free');
    const made = await createSpaced(team.id, 27, undefined, 10);
    const page = await list(key);
    expect(page.data).toHaveLength(27);
    expect(page.next_cursor).toBeNull();
    expect(ids(page.data)).toEqual(ids(made).reverse());
    expect(page.data.filter((item) => item.locked).map((item) => item.id)).toEqual([made[26].id, made[25].id]);
    // The flag does not depend on the page the guide is listed on.
    const paged = await walk(key, {}, () => 4);
    expect(paged.items.map((item) => [item.id, item.locked])).toEqual(page.data.map((item) => [item.id, item.locked]));
  });

  it('ties in created_at are broken by id when deciding which guides are locked (decisions §3)', async () => {
    const { team, key } = await soloTeam(t, 'free');
    frozenClock();
    const made = [];
    for (let i = 0; i < 27; i++) made.push(await createGuide(t, team.id, { title: `Tie ${i}` }));
    expect(new Set(made.map((guide) => guide.created_at)).size).toBe(1);
    const page = await list(key);
    const order = ids(newestFirst(made));
    expect(ids(page.data)).toEqual(order);
    expect(page.data.map((item) => item.locked)).toEqual(order.map((_id, i) => i < 2));
  });

  it('processing guides do not count toward the guide limit (decisions §3)', async () => {
    const { team, key } = await soloTeam(t, 'free');
    const early = await createGuide(t, team.id, { title: 'Early recording', processing: true });
    t.clock.advance(10);
    const finished = await createSpaced(team.id, 25, undefined, 10);
    await createGuide(t, team.id, { title: 'Late recording', processing: true });
    let page = await list(key);
    expect(page.data).toHaveLength(25);
    expect(page.data.some((item) => item.locked)).toBe(false);

    // Once settled, the early recording counts: it is the oldest, so the newest finished guide is locked.
    await t.admin('POST', `/guides/${early.id}/processing`, { outcome: 'failed' });
    page = await list(key);
    expect(page.data).toHaveLength(26);
    expect(page.data.filter((item) => item.locked).map((item) => item.id)).toEqual([finished[24].id]);
  });

  it('the guide limit counts per team: a free organization locks past 25 in each team (decisions §3)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'free', 2);
    const newest = [];
    for (const team of teams) {
      const made = await createSpaced(team.id, 26, undefined, 5);
      newest.push(made[25].id);
    }
    const page = await list(key, { limit: 100 });
    expect(page.data).toHaveLength(52);
    expect(new Set(page.data.filter((item) => item.locked).map((item) => item.id))).toEqual(new Set(newest));
  });

  it('a growth team never has locked guides (decisions §3)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    await createSpaced(team.id, 27, undefined, 10);
    const page = await list(key);
    expect(page.data).toHaveLength(27);
    expect(page.data.every((item) => item.locked === false)).toBe(true);
  });

  it('an enterprise organization never has locked guides (decisions §3)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'enterprise', 1);
    await createSpaced(teams[0].id, 26, undefined, 10);
    const page = await list(key);
    expect(page.data).toHaveLength(26);
    expect(page.data.every((item) => item.locked === false)).toBe(true);
  });

  it('a plan change takes effect on the locked flags at once (decisions §3)', async () => {
    const { organization, teams, key } = await organizationWithTeams(t, 'free', 1);
    await createSpaced(teams[0].id, 26, undefined, 10);
    expect((await list(key)).data.filter((item) => item.locked)).toHaveLength(1);
    await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'growth' });
    expect((await list(key)).data.filter((item) => item.locked)).toHaveLength(0);
    await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'free' });
    expect((await list(key)).data.filter((item) => item.locked)).toHaveLength(1);
  });
});

describe('list item shape', () => {
  it('every list item has exactly the fields of spec §2.2, with their values (spec §2.2, decisions §2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const owner = await t.admin('POST', '/users', { email: `owner-${unique()}@example.com`, name: 'Olga Owner' });
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    const full = await createGuide(t, team.id, {
      title: 'Full guide',
      description: 'All fields set',
      owner_id: owner.id,
      icon_url: 'https://cdn.example.com/icon.png',
      permalink: `full-guide-${unique()}`,
      publish_status: 'PUBLISHED',
      language: 'he',
      tags: ['x'],
      is_public: true,
      steps: [{ text: 'Step' }],
    });
    t.clock.advance(10);
    const bare = await t.admin('POST', '/guides', { team_id: team.id });
    const page = await list(key);
    for (const item of page.data) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_FIELDS);
    const [bareItem, fullItem] = page.data;
    expect(fullItem).toEqual({
      id: full.id,
      team_id: team.id,
      created_at: full.created_at,
      updated_at: full.updated_at,
      title: 'Full guide',
      description: 'All fields set',
      owner_name: 'Olga Owner',
      icon_url: 'https://cdn.example.com/icon.png',
      permalink: full.permalink,
      publish_status: 'PUBLISHED',
      locked: false,
    });
    expect(bareItem).toMatchObject({ id: bare.id, title: null, description: null, owner_name: null, icon_url: null, publish_status: 'DRAFT', locked: false });
    expect(bareItem!.permalink).toEqual(expect.any(String));
    const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const item of page.data) {
      expect(item.created_at).toMatch(timestamp);
      expect(item.updated_at).toMatch(timestamp);
      expect(item.id).toMatch(uuid);
      expect(item.team_id).toMatch(uuid);
    }
  });
});

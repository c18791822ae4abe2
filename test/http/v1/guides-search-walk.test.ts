// GET /v1/guides?q= over data sets large enough for both search strategies (decisions §4): for a term of
// a trigram or more the service first walks a bounded window of each team's newest guides
// (max(200, ceil(4000 / teams)) rows per team) and keeps only the rows it can prove are the page; when
// too few are certain it asks the trigram index instead (FTS5 on SQLite, pg_trgm on PostgreSQL). Which
// path answered is not observable, and must not be: every case follows next_cursor from the first page to
// the last and compares the complete sequence of ids with the one computed here from what was created
// (titles containing the term ignoring case, newest first by created_at then id).
//
// Hundreds of guides one by one through the management API would take minutes, so most guides are written
// in bulk with exactly the columns the domain writes on creation (folded title, slug, steps as JSON), as
// the bulk loader does, with explicit created_at values: the order is deterministic, interleaves the teams
// and has runs of guides sharing one millisecond (ordered by id). Guides whose creation path matters
// (processing ones) are made through the management API under a clock set to the instant wanted.
import type { Insertable } from 'kysely';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GuidesTable } from '../../../src/db/schema.js';
import { newId } from '../../../src/domain/ids.js';
import { foldCase } from '../../../src/domain/text-fold.js';
import { createGuide, createKey, organizationWithTeams, soloTeam, useTestService } from '../../support/service.js';

// Many pages are read with one key; the rate limit is not what these tests are about.
const t = useTestService({ RATE_LIMIT_PER_MINUTE: '1000000' });
afterEach(() => {
  vi.restoreAllMocks();
});

/** The walk's window: rows read per team (src/domain/guides/guide-search-walk.ts). */
const windowFor = (teams: number) => Math.max(200, Math.ceil(4000 / teams));

// ---------------------------------------------------------------------------------------------------
// Fixtures

/** A guide as the test knows it: what the expected sequences are computed from. */
interface Made {
  id: string;
  team_id: string;
  created_at: string;
  title: string;
}

interface Spec {
  teamId: string;
  /** A chosen id, for guides whose order among equal created_at values matters; else a random one. */
  id?: string;
  /** Seconds after the base instant; equal ticks share a created_at. */
  tick: number;
  /** Extra milliseconds, for guides close together but not tied. */
  ms?: number;
  title: string;
  processing?: boolean;
}

const BASE = Date.UTC(2031, 0, 1);
const at = (tick: number, ms = 0) => new Date(BASE + tick * 1000 + ms).toISOString();

/**
 * Writes guides in bulk, each row what createGuide writes for a guide with just a team and a title, at
 * the created_at given. Returns the visible ones (processing ones are not listed).
 */
async function insertGuides(specs: Spec[]): Promise<Made[]> {
  // A guide carries its team's organization, as the management API's writes keep it.
  const teamRows = await t.service.ctx.db.selectFrom('teams').select(['id', 'organization_id']).execute();
  const organizationOf = new Map(teamRows.map((team) => [team.id, team.organization_id]));
  const rows: Insertable<GuidesTable>[] = specs.map((spec) => {
    const id = spec.id ?? newId();
    const created = at(spec.tick, spec.ms);
    return {
      id,
      team_id: spec.teamId,
      organization_id: organizationOf.get(spec.teamId) ?? null,
      owner_id: null,
      title: spec.title,
      title_folded: foldCase(spec.title),
      description: null,
      language: 'en',
      text_direction: 'ltr',
      app_version: null,
      icon_url: null,
      thumbnail_url: null,
      tags: null,
      folder_id: null,
      publish_status: 'DRAFT',
      is_public: 0,
      team_role: null,
      permalink: `walk-${id}`,
      steps: '[]',
      step_count: 0,
      processing_state: spec.processing ? 'processing' : 'finished',
      processing_error: null,
      created_at: created,
      updated_at: created,
    };
  });
  const { db } = t.service.ctx;
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    await db.transaction().execute((trx) => trx.insertInto('guides').values(batch).execute());
  }
  return rows
    .filter((row) => row.processing_state !== 'processing')
    .map((row) => ({ id: row.id, team_id: row.team_id, created_at: row.created_at, title: row.title! }));
}

/** Creates a guide through the management API at exactly the instant of `tick`. */
async function createAt(teamId: string, tick: number, fields: Record<string, unknown>) {
  const spy = vi.spyOn(t.clock, 'now').mockImplementation(() => new Date(at(tick)));
  try {
    return await createGuide(t, teamId, fields);
  } finally {
    spy.mockRestore();
  }
}

/** A small deterministic generator, so every run builds the same data. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

// ---------------------------------------------------------------------------------------------------
// Expected sequences

/** Case-insensitive containment for ASCII titles and terms: the oracle of the ASCII data sets. */
const asciiContains = (term: string) => (guide: Made) => guide.title.toLowerCase().includes(term.toLowerCase());

/** Newest first: created_at descending, then id descending (decisions §4). */
function newestFirst(guides: Made[]): Made[] {
  return [...guides].sort((a, b) =>
    a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0,
  );
}

function expected(guides: Made[], matches: (guide: Made) => boolean): Made[] {
  return newestFirst(guides.filter(matches));
}

// ---------------------------------------------------------------------------------------------------
// Reading through the public interface

interface Item {
  id: string;
  team_id: string;
  created_at: string;
  title: string | null;
}

interface Collected {
  items: Item[];
  /** cursors[k] is the next_cursor answered with page k + 1. */
  cursors: string[];
  pages: number;
}

function query(params: Record<string, string | number | undefined>): string {
  return Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
}

/** Follows next_cursor from `cursor` (or the first page) to the last page. */
async function collect(key: string, params: { q: string; team_id?: string }, limit: number, cursor?: string): Promise<Collected> {
  const items: Item[] = [];
  const cursors: string[] = [];
  let next = cursor;
  for (let page = 1; page <= 5000; page++) {
    const response = await t.get(`/v1/guides?${query({ ...params, limit, cursor: next })}`, key);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { data: Item[]; next_cursor: string | null };
    items.push(...body.data);
    if (body.next_cursor === null) {
      expect(body.data.length, `last page ${page} of q=${params.q}`).toBeLessThanOrEqual(limit);
      if (page > 1 || cursor !== undefined) expect(body.data.length, `last page ${page} of q=${params.q} is empty`).toBeGreaterThan(0);
      return { items, cursors, pages: page };
    }
    expect(body.data.length, `page ${page} of q=${params.q} with a next_cursor`).toBe(limit);
    cursors.push(body.next_cursor);
    next = body.next_cursor;
  }
  throw new Error('the pages did not end');
}

const describeGuide = (guide: { id: string; created_at: string; team_id: string; title: string | null } | undefined) =>
  guide ? `${guide.id} ${guide.created_at} team ${guide.team_id.slice(0, 8)} "${guide.title}"` : 'nothing';

/** '' when the ids are the same sequence; else where they first differ, and what is missing or extra. */
function difference(got: Item[], want: Made[]): string {
  const length = Math.max(got.length, want.length);
  for (let i = 0; i < length; i++) {
    if (got[i]?.id === want[i]?.id) continue;
    const gotIds = new Set(got.map((item) => item.id));
    const wantIds = new Set(want.map((guide) => guide.id));
    const missing = want.filter((guide) => !gotIds.has(guide.id));
    const extra = got.filter((item) => !wantIds.has(item.id));
    return (
      `first difference at position ${i} (expected ${want.length} guides, got ${got.length}): ` +
      `expected ${describeGuide(want[i])}, got ${describeGuide(got[i])}; ` +
      `${missing.length} missing (first: ${describeGuide(missing[0])}), ${extra.length} extra (first: ${describeGuide(extra[0])})`
    );
  }
  return '';
}

/** Every page of `q` with `limit`, put together, is exactly `want`. */
async function expectPages(key: string, params: { q: string; team_id?: string }, limit: number, want: Made[]): Promise<Collected> {
  const got = await collect(key, params, limit);
  expect(difference(got.items, want), `q=${JSON.stringify(params.q)} team_id=${params.team_id ?? '-'} limit=${limit}`).toBe('');
  return got;
}

// ---------------------------------------------------------------------------------------------------

describe('a dense term over 3 teams that are all shorter than their window (1,500 guides)', () => {
  let key: string;
  let guides: Made[];
  beforeAll(async () => {
    const org = await organizationWithTeams(t, 'growth', 3);
    key = org.key;
    const specs: Spec[] = [];
    for (let i = 0; i < 1500; i++) {
      const marker = i % 4 === 0 ? [' Printer setup', ' PRINTER jam', ' reprinter'][i % 3] : '';
      // Pairs of guides share one second, in different teams.
      specs.push({ teamId: org.teams[(i + Math.floor(i / 7)) % 3].id, tick: Math.floor((i * 2) / 3), title: `Sheet ${i}${marker}` });
    }
    guides = await insertGuides(specs);
  });

  it('every 4th title matches: all 375 come back in order with limit 50, 7 and 100', async () => {
    const want = expected(guides, asciiContains('printer'));
    expect(want).toHaveLength(375);
    await expectPages(key, { q: 'printer' }, 50, want);
    await expectPages(key, { q: 'printer' }, 7, want);
    await expectPages(key, { q: 'PRINTER' }, 100, want);
  });

  it('a term inside a word, and a term that matches nothing, in any case', async () => {
    await expectPages(key, { q: 'EpRiNt' }, 50, expected(guides, asciiContains('eprint')));
    await expectPages(key, { q: 'nowhere to be found' }, 50, []);
  });
});

describe('3 teams each longer than its window (4,500 guides)', () => {
  let key: string;
  let teams: { id: string }[];
  let guides: Made[];
  beforeAll(async () => {
    const org = await organizationWithTeams(t, 'growth', 3);
    key = org.key;
    teams = org.teams;
    const specs: Spec[] = [];
    for (let i = 0; i < 4500; i++) {
      const words = [`Page ${i}`];
      if (i % 4 === 0) words.push(['Toner refill', 'TONER', 'low toner'][i % 3]!); // dense
      if (i % 100 === 7) words.push('Quasar'); // 1 in 100
      if (i < 30) words.push('Vintage'); // only the 30 oldest
      if (i >= 2250 ? i % 3 === 0 : i % 97 === 0) words.push('Mixed bag'); // dense in the newer half only
      // Pairs share one second; guides 480 to 539 (around the first page's window bounds) all share one.
      const tick = i >= 480 && i < 540 ? 320 : Math.floor((i * 2) / 3);
      specs.push({ teamId: org.teams[(i + Math.floor(i / 7)) % 3].id, tick, title: words.join(' ') });
    }
    guides = await insertGuides(specs);
    const perTeam = teams.map((team) => guides.filter((guide) => guide.team_id === team.id).length);
    for (const count of perTeam) expect(count).toBeGreaterThan(windowFor(3));
  });

  it('a dense term (every 4th title) gives all 1,125 in order with limit 50, 7 and 100', async () => {
    const want = expected(guides, asciiContains('toner'));
    expect(want).toHaveLength(1125);
    await expectPages(key, { q: 'toner' }, 50, want);
    await expectPages(key, { q: 'Toner' }, 7, want);
    await expectPages(key, { q: 'TONER' }, 100, want);
  });

  it('a term found only in the 30 oldest guides, deeper than every window, gives exactly those 30', async () => {
    const want = expected(guides, asciiContains('vintage'));
    expect(want).toHaveLength(30);
    await expectPages(key, { q: 'vintage' }, 50, want);
    await expectPages(key, { q: 'VINTAGE' }, 7, want);
  });

  it('a term that matches nothing gives one empty page', async () => {
    const page = await collect(key, { q: 'no such title' }, 50);
    expect(page).toEqual({ items: [], cursors: [], pages: 1 });
  });

  it('a term matching 1 title in 100 gives all 45', async () => {
    const want = expected(guides, asciiContains('quasar'));
    expect(want).toHaveLength(45);
    await expectPages(key, { q: 'Quasar' }, 50, want);
    await expectPages(key, { q: 'quasar' }, 7, want);
  });

  it('a term dense in the newer half and rare in the older half pages across the change', async () => {
    const want = expected(guides, asciiContains('mixed bag'));
    await expectPages(key, { q: 'MIXED bag' }, 50, want);
    await expectPages(key, { q: 'mixed BAG' }, 7, want);
  });

  it('team_id narrows the search to one team (a window of 4,000 that holds the whole team)', async () => {
    for (const team of teams) {
      const inTeam = guides.filter((guide) => guide.team_id === team.id);
      await expectPages(key, { q: 'toner', team_id: team.id }, 50, expected(inTeam, asciiContains('toner')));
      await expectPages(key, { q: 'vintage', team_id: team.id }, 50, expected(inTeam, asciiContains('vintage')));
    }
  });

  it('starting from the cursor of page 10 gives the same tail as the expected sequence', async () => {
    const want = expected(guides, asciiContains('toner'));
    const first = await expectPages(key, { q: 'toner' }, 50, want);
    const cursor = first.cursors[9]!;
    for (const limit of [50, 7, 100]) {
      const tail = await collect(key, { q: 'toner' }, limit, cursor);
      expect(difference(tail.items, want.slice(500)), `tail from page 10 with limit ${limit}`).toBe('');
    }
    // The same from the middle of a term that turns rare in the older half.
    const mixed = expected(guides, asciiContains('mixed bag'));
    const mixedPages = await expectPages(key, { q: 'mixed bag' }, 50, mixed);
    expect(mixedPages.cursors.length).toBeGreaterThanOrEqual(10);
    const mixedTail = await collect(key, { q: 'mixed bag' }, 50, mixedPages.cursors[9]);
    expect(difference(mixedTail.items, mixed.slice(500)), 'mixed tail from page 10').toBe('');
  });
});

describe('skewed teams (4 teams, a window of 1,000 rows each)', () => {
  let key: string;
  let teams: { id: string }[];
  let guides: Made[];
  beforeAll(async () => {
    const org = await organizationWithTeams(t, 'growth', 4);
    key = org.key;
    teams = org.teams;
    const [a, b, c, d] = teams.map((team) => team.id) as [string, string, string, string];
    const specs: Spec[] = [];
    // A: many new guides, one a second, so its window spans the least time and its bound is the newest;
    // `ledger` dense, `harbor` rare.
    for (let i = 0; i < 4000; i++) {
      const words = [`Alpha ${i}`];
      if (i % 3 === 0) words.push('ledger');
      if (i % 100 === 5) words.push('harbor');
      specs.push({ teamId: a, tick: 19_000 + i, title: words.join(' ') });
    }
    // B: guides spread over the whole time line, so its window reaches far back; `harbor` dense (a page of
    // it reaches below A's bound, where A has matches of its own), `ledger` rare but also newer than A's bound.
    for (let i = 0; i < 1500; i++) {
      const words = [`Bravo ${i}`];
      if (i % 60 === 43) words.push('LEDGER');
      if (i % 2 === 1) words.push('Harbor');
      specs.push({ teamId: b, tick: Math.floor(i * 15.1), ms: 500, title: words.join(' ') });
    }
    // C: fewer guides than the window, so read to its end; old and new.
    for (let i = 0; i < 120; i++) {
      specs.push({ teamId: c, tick: i * 190, title: `Charlie ${i}${i % 5 === 0 ? ' Ledger' : ''}${i % 7 === 0 ? ' harbor' : ''}` });
    }
    // D: exactly as many guides as the window, sharing seconds with A.
    for (let i = 0; i < windowFor(4); i++) {
      specs.push({ teamId: d, tick: 19_000 + i * 3, title: `Delta ${i}${i % 9 === 0 ? ' ledger' : ''}${i % 50 === 0 ? ' harbor' : ''}` });
    }
    guides = await insertGuides(specs);
  });

  /** A's window bound on the first page: its 1,000th newest guide. */
  const boundOfA = () => newestFirst(guides.filter((guide) => guide.team_id === teams[0]!.id))[windowFor(4) - 1]!;

  it('a term dense in the newest team and rare elsewhere interleaves every team', async () => {
    const want = expected(guides, asciiContains('ledger'));
    const bound = boundOfA();
    expect(want.some((guide) => guide.team_id !== teams[0]!.id && guide.created_at > bound.created_at)).toBe(true);
    await expectPages(key, { q: 'ledger' }, 50, want);
    await expectPages(key, { q: 'Ledger' }, 100, want);
  });

  it('a term dense in a team whose window reaches far back, with matches of the newest team below its bound', async () => {
    const want = expected(guides, asciiContains('harbor'));
    const bound = boundOfA();
    // The first 100 matches reach below A's bound, and A has a match between.
    expect(want[99]!.created_at < bound.created_at).toBe(true);
    expect(want.slice(0, 100).some((guide) => guide.team_id === teams[0]!.id && guide.created_at < bound.created_at)).toBe(true);
    await expectPages(key, { q: 'harbor' }, 50, want);
    await expectPages(key, { q: 'HARBOR' }, 7, want);
    await expectPages(key, { q: 'Harbor' }, 100, want);
  });

  it('each team alone, through team_id and through a team key', async () => {
    for (const team of teams) {
      const inTeam = guides.filter((guide) => guide.team_id === team.id);
      await expectPages(key, { q: 'ledger', team_id: team.id }, 50, expected(inTeam, asciiContains('ledger')));
      const teamKey = (await createKey(t, { type: 'team', id: team.id })).secret;
      await expectPages(teamKey, { q: 'harbor' }, 50, expected(inTeam, asciiContains('harbor')));
    }
  });
});

describe('guides sharing the millisecond of a window bound', () => {
  it('matches of another team in that millisecond are ordered by id against the unread ones', async () => {
    // Two teams, a window of 2,000 each. Team Y: 1,999 newer guides that do not match, then 30 matches
    // all at one instant T, so its window bound is the first of them (the greatest id). Team Z: 30
    // matches at T with ids between Y's, and many older guides, so its bound is far older. Only the
    // matches of T with ids above Y's bound are certain; the page is Y's and Z's matches of T by id.
    const org = await organizationWithTeams(t, 'growth', 2);
    const [y, z] = org.teams.map((team: { id: string }) => team.id) as [string, string];
    const prefix = newId().slice(0, 8);
    const clusterId = (k: number) => `${prefix}-0000-4000-8000-${k.toString(16).padStart(12, '0')}`;
    const T = 10_000;
    const specs: Spec[] = [];
    for (let i = 0; i < 1999; i++) specs.push({ teamId: y, tick: T + 1 + i, title: `Newer ${i}` });
    for (let k = 0; k < 60; k++) specs.push({ teamId: k % 2 === 0 ? y : z, tick: T, title: `Cluster ${k}`, id: clusterId(k) });
    for (let i = 0; i < 100; i++) specs.push({ teamId: y, tick: T - 1 - i, title: `Older y ${i}${i % 10 === 0 ? ' cluster' : ''}` });
    for (let i = 0; i < 2100; i++) specs.push({ teamId: z, tick: T - 1 - i, title: `Older z ${i}${i % 10 === 0 ? ' cluster' : ''}` });
    const guides = await insertGuides(specs);
    const want = expected(guides, asciiContains('cluster'));
    expect(want.slice(0, 4).map((guide) => guide.id)).toEqual([clusterId(59), clusterId(58), clusterId(57), clusterId(56)]);
    for (const limit of [1, 7, 20, 50]) await expectPages(org.key, { q: 'cluster' }, limit, want);
    const cursor = (await collect(org.key, { q: 'cluster' }, 3)).cursors[0];
    const tail = await collect(org.key, { q: 'cluster' }, 20, cursor);
    expect(difference(tail.items, want.slice(3)), 'from inside the instant T').toBe('');
  }, 60_000);
});

describe('one team key: a window of 4,000 over 5,000 guides', () => {
  let key: string;
  let guides: Made[];
  beforeAll(async () => {
    const solo = await soloTeam(t, 'growth');
    key = solo.key;
    const specs: Spec[] = [];
    for (let i = 0; i < 5000; i++) {
      const words = [`Note ${i}`];
      if (i % 100 === 42) words.push('Scarce');
      if (i % 3 === 1) words.push('Plenty');
      specs.push({ teamId: solo.team.id, tick: Math.floor(i / 4), title: words.join(' ') }); // four guides a second
    }
    guides = await insertGuides(specs);
  });

  it('a term matching 1 title in 100 gives all 50 with limit 50 and 7', async () => {
    const want = expected(guides, asciiContains('scarce'));
    expect(want).toHaveLength(50);
    await expectPages(key, { q: 'scarce' }, 50, want);
    await expectPages(key, { q: 'SCARCE' }, 7, want);
  });

  it('a term matching 1 title in 3 gives all 1,667 with limit 50 and 100', async () => {
    const want = expected(guides, asciiContains('plenty'));
    expect(want).toHaveLength(1667);
    await expectPages(key, { q: 'plenty' }, 50, want);
    await expectPages(key, { q: 'PLENTY' }, 100, want);
  });
});

describe('windows of 200 rows: 25 teams of uneven sizes and time spans', () => {
  let key: string;
  let guides: Made[];
  beforeAll(async () => {
    const org = await organizationWithTeams(t, 'growth', 25);
    key = org.key;
    const random = generator(20_260_101);
    const sizes = org.teams.map((_team: unknown, i: number) => [199, 200, 201, 40][i] ?? 100 + Math.floor(random() * 500));
    const specs: Spec[] = [];
    org.teams.forEach((team: { id: string }, n: number) => {
      // Each team has its own span of time and pace; some are recent, some old, some all along.
      const start = Math.floor(random() * 8000);
      const pace = 1 + Math.floor(random() * 12);
      const density = [2, 3, 10, 40][n % 4]!;
      for (let i = 0; i < sizes[n]!; i++) {
        const words = [`Row ${n}-${i}`];
        if (i % density === 0) words.push('kestrel');
        if (random() < 0.02) words.push('Osprey');
        if (n === 7 && i % 2 === 0) words.push('wombat');
        const tick = start + Math.floor(i * pace * 0.5);
        // Dense among recent guides, rare among older ones: pages change from one path to the other.
        if (tick > 7000 ? i % 2 === 1 : random() < 0.01) words.push('Heron');
        specs.push({ teamId: team.id, tick, title: words.join(' ') });
      }
    });
    guides = await insertGuides(specs);
  });

  it('terms of every density give the complete sequence', async () => {
    await expectPages(key, { q: 'kestrel' }, 100, expected(guides, asciiContains('kestrel')));
    await expectPages(key, { q: 'kestrel' }, 50, expected(guides, asciiContains('kestrel')));
    await expectPages(key, { q: 'osprey' }, 50, expected(guides, asciiContains('osprey')));
    await expectPages(key, { q: 'osprey' }, 7, expected(guides, asciiContains('osprey')));
    await expectPages(key, { q: 'WOMBAT' }, 50, expected(guides, asciiContains('wombat')));
    await expectPages(key, { q: 'heron' }, 50, expected(guides, asciiContains('heron')));
    await expectPages(key, { q: 'HERON' }, 7, expected(guides, asciiContains('heron')));
  });
});

describe('more teams than the walk merges (70 teams)', () => {
  it('a dense term gives the complete sequence', async () => {
    const org = await organizationWithTeams(t, 'growth', 70);
    const specs: Spec[] = [];
    for (let i = 0; i < 4200; i++) {
      specs.push({ teamId: org.teams[(i * 13) % 70].id, tick: Math.floor(i / 2), title: `Entry ${i}${i % 3 === 0 ? ' Pelican' : ''}` });
    }
    const guides = await insertGuides(specs);
    await expectPages(org.key, { q: 'pelican' }, 50, expected(guides, asciiContains('pelican')));
  }, 60_000);
});

describe('processing guides', () => {
  it('processing guides with matching titles never appear, on either path', async () => {
    const org = await organizationWithTeams(t, 'growth', 2);
    const [a, b] = org.teams.map((team: { id: string }) => team.id) as [string, string];
    const specs: Spec[] = [];
    for (let i = 0; i < 6000; i++) {
      const team = i % 2 === 0 ? a : b;
      // The newest 600 of team A are still processing, every one a match of both terms; A still has more
      // visible guides than its window (2,000).
      const processing = team === a && i >= 4800;
      const words = [`Clip ${i}`];
      if (processing || i % 6 === 0) words.push('Recording');
      if (processing || i < 40) words.push('Archive');
      specs.push({ teamId: team, tick: i, title: words.join(' '), processing });
    }
    const guides = await insertGuides(specs);
    // And some made the public way, between and after the bulk ones.
    const madeWhileProcessing = [];
    for (const tick of [5_999, 6_000, 6_001, 3_000, 10]) {
      madeWhileProcessing.push(await createAt(b, tick, { title: `Recording archive ${tick}`, processing: true }));
    }
    const visibleRecording = await createAt(b, 6_002, { title: 'Recording archive, visible' });
    guides.push({ id: visibleRecording.id, team_id: b, created_at: visibleRecording.created_at, title: visibleRecording.title });
    expect(visibleRecording.created_at).toBe(at(6_002));
    for (const team of [a, b]) expect(guides.filter((guide) => guide.team_id === team).length).toBeGreaterThan(windowFor(2));

    await expectPages(org.key, { q: 'recording' }, 50, expected(guides, asciiContains('recording')));
    await expectPages(org.key, { q: 'ARCHIVE' }, 50, expected(guides, asciiContains('archive')));
    await expectPages(org.key, { q: 'archive', team_id: b }, 7, expected(guides.filter((guide) => guide.team_id === b), asciiContains('archive')));

    // A failed one is listed again, in its created_at place.
    const failed = madeWhileProcessing[3];
    await t.admin('POST', `/guides/${failed.id}/processing`, { outcome: 'failed', error: 'bad file' });
    guides.push({ id: failed.id, team_id: b, created_at: failed.created_at, title: failed.title });
    await expectPages(org.key, { q: 'archive' }, 50, expected(guides, asciiContains('archive')));
    await expectPages(org.key, { q: 'recording' }, 100, expected(guides, asciiContains('recording')));
  }, 60_000);
});

describe('Unicode case folding and literal characters', () => {
  let key: string;
  /** Each guide with the kinds of title it was given. */
  let guides: (Made & { kinds: Set<string> })[];
  beforeAll(async () => {
    const solo = await soloTeam(t, 'growth');
    key = solo.key;
    const specs: (Spec & { kinds: string[] })[] = [];
    for (let i = 0; i < 4400; i++) {
      const words = [`Eintrag ${i}`];
      const kinds: string[] = [];
      // Dense, so that a walk finds its page: straße in many spellings.
      if (i % 3 === 0) {
        words.push(['Hauptstraße', 'HAUPTSTRASSE', 'Ringstrasse'][i % 9 === 0 ? 0 : i % 9 === 3 ? 1 : 2]!);
        kinds.push('strasse');
      }
      // Only among the oldest, deeper than the window: école, in any case and composed or not.
      if (i < 24) {
        words.push(['École primaire', 'ÉCOLE', 'e\u0301cole decomposed', 'l’école'][i % 4]!);
        kinds.push('ecole');
      } else if (i % 50 === 0) words.push('Ecole sans accent'); // not a match of ÉCOLE
      // Literal % and _: dense matches and, everywhere, titles a wildcard would match too.
      if (i % 5 === 0) {
        words.push('Rabatt 50%_off');
        kinds.push('percent');
      } else if (i % 5 === 2) words.push('Rabatt 50 % X off'); // 50%_o as a LIKE pattern matches this
      // A literal pattern only among the oldest guides, with wildcard look-alikes among the newest.
      if (i < 20) {
        words.push('a_b%c');
        kinds.push('underscore');
      } else if (i % 7 === 0) words.push('aXbYYc axb%c a_bc%');
      specs.push({ teamId: solo.team.id, tick: Math.floor(i / 3), title: words.join(' '), kinds });
    }
    const made = await insertGuides(specs);
    guides = made.map((guide, i) => ({ ...guide, kinds: new Set(specs[i]!.kinds) }));
  });

  const of = (kind: string) => (guide: Made) => (guide as Made & { kinds: Set<string> }).kinds.has(kind);

  it("STRASSE finds straße and strasse in any case, walked and through the index (decisions §4)", async () => {
    const want = expected(guides, of('strasse'));
    expect(want.length).toBeGreaterThan(1400);
    await expectPages(key, { q: 'STRASSE' }, 50, want);
    await expectPages(key, { q: 'straße' }, 100, want);
    await expectPages(key, { q: 'tStRaSsE' }, 7, want.filter((guide) => /tstra(ss|ß)e/i.test(guide.title)));
  });

  it('ÉCOLE finds école only among the oldest guides, composed or decomposed, and not Ecole', async () => {
    const want = expected(guides, of('ecole'));
    expect(want).toHaveLength(24);
    await expectPages(key, { q: 'ÉCOLE' }, 50, want);
    await expectPages(key, { q: 'école' }, 7, want);
    await expectPages(key, { q: 'E\u0301COLE' }, 50, want);
  });

  it('% and _ are plain characters on both paths', async () => {
    const percent = expected(guides, of('percent'));
    await expectPages(key, { q: '50%_OFF' }, 50, percent);
    await expectPages(key, { q: '0%_' }, 100, percent);
    await expectPages(key, { q: 'A_B%C' }, 50, expected(guides, of('underscore')));
    await expectPages(key, { q: '%_%' }, 50, []);
  });
});

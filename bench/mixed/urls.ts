// The mixed benchmark's requests: thousands of distinct v1 URLs, gathered through the API itself before
// anything is measured. Ids, permalinks and cursors can only be had from it (cursors are signed and bound
// to their key). Production traffic is many different URLs rather than one URL over and over: a read cache
// that serves one answer well may still miss on most of these. Two kinds of traffic (issue 36):
// - `four-keys`: four keys on two kinds of plan, each with its lists, deep pages, searches, teams and members;
// - `one-key`: all of it from one organization key, as an integration that reads one organization whole
//   sends it. Every request then counts against the same key's rate-limit window, which on a shared store
//   (PostgreSQL, Redis) is one row or one Redis key that every request of every process counts in.
import { writeFileSync } from 'node:fs';
import { listPages } from '../reads/deep-cursor.js';
import { COMMON_TERM, RARE_TERM } from '../reads/scenarios.js';
import { MIXED_URL_KINDS, type MixedTraffic, type MixedUrlKind, type MixedUrls } from '../results.js';
import type { Admin } from '../services.js';
import type { LoadedIds } from '../store.js';
import { inParallel } from '../webhooks/bench-services.js';

/** Words of the bulk loader's titles (src/cli/bulk-data.ts): six common, four rare, and two of its verbs. */
const SEARCH_WORDS = [COMMON_TERM, 'guide', 'setup', 'invoice', 'billing', 'export', RARE_TERM, 'zephyr', 'kumquat', 'xylem', 'set up', 'review'];
/** The shape of each kind of URL, per key. */
interface UrlShape {
  searchWords: readonly string[];
  searchLimits: readonly number[];
  deepLimits: readonly number[];
  teamLimits: readonly number[];
  /** Whether one guide in four is also asked for by its permalink. */
  permalinks: boolean;
}

const SHAPES: Record<MixedTraffic, UrlShape> = {
  'four-keys': { searchWords: SEARCH_WORDS, searchLimits: [1, 3, 5, 10, 20, 25, 50, 100], deepLimits: [10, 25, 50, 100], teamLimits: [5, 20, 50], permalinks: true },
  // The loader's ten common words and four rare ones, at five limits; one limit per deep cursor and team.
  'one-key': {
    searchWords: ['guide', 'setup', 'report', 'account', 'export', 'invoice', 'team', 'project', 'settings', 'billing', RARE_TERM, 'zephyr', 'kumquat', 'xylem'],
    searchLimits: [1, 10, 20, 50, 100],
    deepLimits: [50],
    teamLimits: [20],
    permalinks: false,
  },
};
/** Cursors per key for deep pages, picked evenly down its whole list. */
const DEEP_CURSORS = 40;
/** Distinct guides asked for by id over all keys; one in four is also asked for by its permalink. */
const DETAIL_GUIDES = 1500;
/** Pages of 100 walked per key: the organization keys' whole lists at 100,000 guides, and a bound beyond. */
const MAX_PAGES = 200;
const SCOPES = ['guides:read', 'teams:read', 'members:read'];

export interface MixedUrl {
  /** The Authorization header's value. */
  authorization: string;
  path: string;
  kind: MixedUrlKind;
}

/** A guide the writer may edit: one the readers ask for by id, with its title as loaded. */
export interface EditableGuide {
  id: string;
  title: string;
}

export interface UrlList {
  urls: MixedUrl[];
  editable: EditableGuide[];
  summary: Omit<MixedUrls, 'store' | 'loadSeconds'>;
}

interface Key {
  label: string;
  secret: string;
}

interface ListItem {
  id: string;
  title: string | null;
  permalink: string | null;
}

async function v1<T>(baseUrl: string, key: Key, path: string): Promise<T> {
  const response = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${key.secret}` } });
  if (!response.ok) throw new Error(`${path} (${key.label}): ${response.status} ${(await response.text()).slice(0, 300)}`);
  return (await response.json()) as T;
}

/** `count` elements spread evenly over the list, first included. */
function spread<T>(list: readonly T[], count: number): T[] {
  if (count >= list.length) return [...list];
  return Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]!);
}

/**
 * `four-keys`: the loader's three keys (an organization key reaching its organization's 20 teams, a team key
 * in the same organization, a team key on a free plan in another) and one made here: an organization key of
 * that free team's organization, so that both organizations are read whole and on both kinds of plan.
 * `one-key`: the loader's organization key alone.
 */
async function keysOf(baseUrl: string, admin: Admin, ids: LoadedIds, traffic: MixedTraffic): Promise<Key[]> {
  if (traffic === 'one-key') return [{ label: 'organization key', secret: ids.organizationKey }];
  const keys: Key[] = [
    { label: 'organization key', secret: ids.organizationKey },
    { label: 'team key, same organization', secret: ids.teamKey },
    { label: 'team key, free plan', secret: ids.freeTeamKey },
  ];
  const freeTeam = (await v1<{ data: { id: string }[] }>(baseUrl, keys[2]!, '/v1/teams')).data[0]!;
  const { organization_id } = await admin.get<{ organization_id: string | null }>(`/teams/${freeTeam.id}`);
  if (organization_id !== null) {
    const made = await admin.send<{ secret: string }>('POST', '/api-keys', {
      home: { type: 'organization', id: organization_id },
      name: 'mixed bench',
      scopes: SCOPES,
      expires_in_days: null,
    });
    keys.push({ label: 'organization key, free plan', secret: made.secret });
  }
  return keys;
}

/** Gathers the URL list through a running service (its admin API makes the fourth key). */
export async function gatherUrls(baseUrl: string, admin: Admin, ids: LoadedIds, traffic: MixedTraffic): Promise<UrlList> {
  const shape = SHAPES[traffic];
  const keys = await keysOf(baseUrl, admin, ids, traffic);
  const seen = [];
  for (const key of keys) {
    const items: ListItem[] = [];
    const cursors: string[] = [];
    let pages = 0;
    for await (const page of listPages<ListItem>(baseUrl, key.secret)) {
      items.push(...page.data);
      if (page.next_cursor !== null) cursors.push(page.next_cursor);
      if (++pages === MAX_PAGES) break;
    }
    const teams = (await v1<{ data: { id: string }[] }>(baseUrl, key, '/v1/teams')).data.map((team) => team.id);
    seen.push({ key, items, cursors, teams });
  }

  const urls: MixedUrl[] = [];
  const add = (key: Key, kind: MixedUrlKind, path: string) => urls.push({ authorization: `Bearer ${key.secret}`, path, kind });
  for (const { key, cursors, teams } of seen) {
    for (let limit = 1; limit <= 100; limit++) add(key, 'list', `/v1/guides?limit=${limit}`);
    for (const cursor of spread(cursors, DEEP_CURSORS)) {
      for (const limit of shape.deepLimits) add(key, 'deep', `/v1/guides?limit=${limit}&cursor=${encodeURIComponent(cursor)}`);
    }
    for (const word of shape.searchWords) {
      for (const limit of shape.searchLimits) add(key, 'search', `/v1/guides?q=${encodeURIComponent(word)}&limit=${limit}`);
    }
    for (const team of teams) {
      for (const limit of shape.teamLimits) add(key, 'team', `/v1/guides?team_id=${team}&limit=${limit}`);
      add(key, 'members', `/v1/members?team_id=${team}`);
    }
    add(key, 'teams', '/v1/teams');
  }

  // Details: DETAIL_GUIDES distinct guides shared fairly among the keys (the organization keys also reach
  // the team keys' guides, so those with fewest go first), each key's share spread down its whole list.
  const taken = new Set<string>();
  const editable: EditableGuide[] = [];
  const byFewest = [...seen].sort((a, b) => a.items.length - b.items.length);
  let left = DETAIL_GUIDES;
  for (const [index, { key, items }] of byFewest.entries()) {
    const free = items.filter((item) => !taken.has(item.id));
    const share = Math.floor(left / (byFewest.length - index));
    for (const [n, item] of spread(free, share).entries()) {
      taken.add(item.id);
      left--;
      add(key, 'detail', `/v1/guides/${item.id}`);
      if (shape.permalinks && n % 4 === 0 && item.permalink) add(key, 'permalink', `/v1/guides/${encodeURIComponent(item.permalink)}`);
      // A title edited by an earlier run on a reused store is taken back to what the loader wrote.
      editable.push({ id: item.id, title: (item.title ?? '').replace(/ · edit \d+$/, '') });
    }
  }

  const byKind = Object.fromEntries(MIXED_URL_KINDS.map((kind) => [kind, urls.filter((url) => url.kind === kind).length])) as Record<MixedUrlKind, number>;
  const summary = {
    traffic,
    total: urls.length,
    byKind,
    keys: seen.map(({ key, items, teams }) => ({
      label: key.label,
      teams: teams.length,
      guides: items.length,
      urls: urls.filter((url) => url.authorization === `Bearer ${key.secret}`).length,
    })),
    detailGuides: editable.length,
  };
  return { urls, editable, summary };
}

/**
 * Asks for every URL once (8 at a time) and fails unless each answers 200: a wrong URL must not pass as a
 * fast 404. Run before each round, it also fills the caches an edit run left empty.
 */
export async function askEachOnce(baseUrl: string, urls: readonly MixedUrl[]): Promise<void> {
  const failures: string[] = [];
  await inParallel(urls.length, 8, async (n) => {
    const url = urls[n]!;
    const response = await fetch(baseUrl + url.path, { headers: { authorization: url.authorization } });
    await response.arrayBuffer();
    if (response.status !== 200) failures.push(`${url.path}: ${response.status}`);
  });
  if (failures.length > 0) throw new Error(`${failures.length} of ${urls.length} mixed URLs did not answer 200, e.g. ${failures.slice(0, 3).join('; ')}`);
}

/** Writes the list as wrk-mixed.lua reads it, shuffled so that kinds and keys are interleaved. */
export function writeUrlFile(urls: readonly MixedUrl[], file: string): void {
  const lines = urls.map((url) => `${url.authorization}\t${url.path}`);
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

// What the cached answers of the read-only API depend on and what writes change, named alike as tags, so
// that a write drops exactly the answers it could have changed (docs/decisions.md, "The read cache").
//
// Reads say what they depend on where they read (`dependsOn`), writes say what they change where they
// write (`touched`). Neither has to be trusted blindly: every statement of a cached computation is seen,
// and an answer that read a table none of its tags stands for is not kept; a transaction that writes a
// watched table it did not declare drops every cached answer.
import type { Kysely } from 'kysely';
import { ReadRecorder, WriteRecorder } from '../db/change-watch.js';
import type { Database } from '../db/schema.js';
import { titleContains } from './text-fold.js';

/** What reads and writes run on (context.ts's Executor; named here so that this module needs nothing of it). */
type Executor = Kysely<Database>;

/** Each kind of tag, and the tables whose rows it stands for. */
const TAG_TABLES = {
  /** A key, by the hash of its secret. */
  key: ['api_keys'],
  /** A team's own row: name, plan, brand color, organization. */
  team: ['teams'],
  /** An organization's row and which teams it holds. */
  organization: ['organizations', 'teams'],
  /**
   * Which guides a team has and in what order, visible or not, and which permalink names which: what a
   * page holds, where the plan's lock begins, whether an id or permalink is found.
   */
  guides: ['guides'],
  /** One guide's fields as shown: on the pages that hold it and in its detail. */
  guide: ['guides'],
  /** The titles of a team's guides: what a search matches. */
  titles: ['guides'],
  /** A team's memberships. */
  members: ['memberships'],
  /** People's names, e-mails and avatars, shown beside guides and members: one tag for all of them. */
  users: ['users'],
} as const satisfies Record<string, readonly string[]>;

export type TagKind = keyof typeof TAG_TABLES;

/** The tables cached answers come from; a write to one of them is always accounted for. */
export const READ_TABLES: ReadonlySet<string> = new Set(Object.values(TAG_TABLES).flat());

export const tag = {
  key: (secretHash: string) => `key:${secretHash}`,
  team: (teamId: string) => `team:${teamId}`,
  organization: (organizationId: string) => `organization:${organizationId}`,
  teamGuides: (teamId: string) => `guides:${teamId}`,
  guide: (guideId: string) => `guide:${guideId}`,
  teamTitles: (teamId: string) => `titles:${teamId}`,
  /**
   * A title changed from one folded title to another. A search's matches change only if exactly one of
   * the two titles holds its term; when both do, only the pages that show the guide change, and those
   * depend on the guide's own tag.
   */
  retitled: (teamId: string, before: string, after: string) =>
    `titles:${teamId}:${encodeURIComponent(before)}:${encodeURIComponent(after)}` as const,
  members: (teamId: string) => `members:${teamId}`,
  users: () => 'users:',
} satisfies Record<string, (...ids: string[]) => `${TagKind}:${string}`>;

/** What a committed write changed: some tags, or everything (a change nobody described). */
export type Changes = 'all' | readonly string[];

/** The kind of a tag (`guide:…` is a `guide`): what the metrics say dropped an answer. */
export function kindOf(name: string): TagKind {
  return name.slice(0, name.indexOf(':')) as TagKind;
}

// ---- reads ----------------------------------------------------------------------------------------

interface ReadScope {
  tags: Set<string>;
  searchTerm?: string;
}

const readScopes = new WeakMap<object, ReadScope>();

/** Notes that the answer being computed on `db` depends on these tags; nothing happens outside a cached computation. */
export function dependsOn(db: Executor, ...tags: string[]): void {
  const scope = readScopes.get(db);
  if (scope) for (const name of tags) scope.tags.add(name);
}

/** Notes that the answer is a search for `term` (folded) over these teams' titles. */
export function searchesTitles(db: Executor, teamIds: readonly string[], term: string): void {
  dependsOn(db, ...teamIds.map(tag.teamTitles));
  const scope = readScopes.get(db);
  if (scope) scope.searchTerm = term;
}

/** Notes that the answer being computed on `db` depends on all that a part it took depends on. */
export function inherit(db: Executor, dependencies: Dependencies): void {
  const scope = readScopes.get(db);
  if (!scope) return;
  for (const name of dependencies.tags) scope.tags.add(name);
  if (dependencies.searchTerm !== undefined) scope.searchTerm = dependencies.searchTerm;
}

/** What a computed answer depends on. */
export interface Dependencies {
  tags: string[];
  /** For a search, its folded term: a title change drops the answer only if it enters or leaves the matches. */
  searchTerm?: string;
}

export interface Reading<C> {
  /** The context to compute on: its statements are watched and its dependencies collected. */
  ctx: C;
  /** What the computation depended on, and the tables it read that none of its tags stands for. */
  finish(): Dependencies & { uncovered: string[] };
}

export function startReading<C extends { db: Executor }>(ctx: C): Reading<C> {
  const recorder = new ReadRecorder();
  const db = ctx.db.withPlugin(recorder);
  const scope: ReadScope = { tags: new Set() };
  readScopes.set(db, scope);
  return {
    ctx: { ...ctx, db },
    finish() {
      const covered = new Set<string>([...scope.tags].flatMap((name) => TAG_TABLES[kindOf(name)] ?? []));
      const uncovered = [...recorder.read].filter((table) => !covered.has(table));
      return { tags: [...scope.tags], searchTerm: scope.searchTerm, uncovered };
    },
  };
}

/**
 * A changed tag as the cache applies it: the tag whose answers it may drop, and whether it drops a given
 * answer. Only a title change is selective; every other change drops every answer holding its tag.
 */
export function changedTag(name: string): { tag: string; drops: (answer: Dependencies) => boolean } {
  if (kindOf(name) === 'titles') {
    const [kind, teamId, before, after] = name.split(':');
    if (before !== undefined && after !== undefined) {
      const [old, now] = [decodeURIComponent(before), decodeURIComponent(after)];
      return {
        tag: `${kind}:${teamId}`,
        drops: ({ searchTerm }) => searchTerm === undefined || titleContains(old, searchTerm) !== titleContains(now, searchTerm),
      };
    }
  }
  return { tag: name, drops: () => true };
}

// ---- writes ---------------------------------------------------------------------------------------

const writeScopes = new WeakMap<object, Map<string, Set<string>>>();

/**
 * Declares, inside a transaction, what its writes to `table` change. Declaring no tags says that the
 * write changes no answer (a new user, a key's last use).
 */
export function touched(trx: Executor, table: string, tags: readonly string[]): void {
  const scope = writeScopes.get(trx);
  if (!scope) throw new Error('touched() outside a transaction of transact()');
  const declared = scope.get(table) ?? new Set<string>();
  for (const name of tags) declared.add(name);
  scope.set(table, declared);
}

export interface Writing {
  db: Executor;
  /** Registers the transaction the writes run in, so that `touched` finds its declarations. */
  begin(trx: Executor): void;
  /** What the transaction changed: null when it wrote no watched table. */
  changes(): Changes | null;
}

export function startWriting(db: Executor): Writing {
  const recorder = new WriteRecorder(READ_TABLES);
  const declared = new Map<string, Set<string>>();
  return {
    db: db.withPlugin(recorder),
    begin: (trx) => writeScopes.set(trx, declared),
    changes() {
      if (recorder.written.size === 0) return null;
      const tags = new Set<string>();
      for (const table of recorder.written) {
        const declaredTags = declared.get(table);
        if (!declaredTags) return 'all';
        for (const name of declaredTags) tags.add(name);
      }
      return [...tags];
    },
  };
}

// ---- between processes -----------------------------------------------------------------------------

/** PostgreSQL's limit on a notification's payload is 8,000 bytes; a longer list becomes "everything". */
const MAX_PAYLOAD_BYTES = 7900;
const EVERYTHING = '*';

/**
 * A notification's payload: who sent it (a cache that applied the changes itself when they committed
 * ignores its own notification) and what changed. Null when nothing did.
 */
export function encodeChanges(origin: string, changes: Changes): string | null {
  if (changes !== 'all' && changes.length === 0) return null;
  const tags = changes === 'all' ? EVERYTHING : changes.join(' ');
  return `${origin} ${Buffer.byteLength(tags) > MAX_PAYLOAD_BYTES ? EVERYTHING : tags}`;
}

export function decodeChanges(payload: string): { origin: string; changes: Changes } {
  const [origin = '', ...tags] = payload.split(' ');
  return { origin, changes: tags.length === 1 && tags[0] === EVERYTHING ? 'all' : tags.filter(Boolean) };
}

/** The origin of notifications sent by a process without a read cache. */
export const NO_CACHE_ORIGIN = '-';

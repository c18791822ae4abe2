// What the read-only API answers again and again (a key and its policy, a page, a guide, a member list)
// kept in memory between requests. Invalidation is exact and narrow: each answer is kept with the tags
// it depends on (src/domain/read-dependencies.ts), each committed write names the tags it changed, and
// an answer is dropped when one of its tags changes. An answer whose computation overlapped a change to
// one of its tags is not kept, so a read that raced a write never leaves the old answer behind.
//
// An answer may be made of parts that change apart from it (a page's positions, which an edit leaves
// alone; a guide's row, shown on every page that holds it): `rememberPart` and `rememberEach` keep those
// too, and the answer being computed depends on the tags of every part it took, kept or computed. An
// edit still drops each answer that shows the guide, but computing one again reads only the edited
// guide's row; the rest are parts already kept.
//
// Changes reach the cache from this process's writes as they commit, from other processes through the
// store: SQLite's `PRAGMA data_version` (which cannot say what changed: everything goes), or PostgreSQL's
// LISTEN/NOTIFY (src/service.ts). While notifications could be missed the cache is suspended: nothing is
// served from it or kept in it.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type Changes, changedTag, type Dependencies, inherit, kindOf, startReading, type TagKind } from './read-dependencies.js';

/** What the cache needs of a domain context (context.ts's DomainContext is one): its store, and the cache. */
export interface CacheContext {
  db: Kysely<Database>;
  readCache?: ReadCache;
}

/**
 * Why everything was dropped: a write that did not say what it changed (here or in another process),
 * a commit of another process to the embedded store (which cannot say what changed), or the PostgreSQL
 * listener being down (changes may go unseen).
 */
export type EverythingCause = 'undeclared_write' | 'other_process' | 'listener_down';
/** Why an answer was dropped: the kind of tag a write changed, or why everything was. */
export type InvalidationCause = TagKind | EverythingCause;

export interface ReadCacheOptions {
  /** What the entries may weigh together; the least recently used go first. */
  maxWeight: number;
  /** An entry's weight: about the bytes it holds. */
  weigh: (value: unknown) => number;
  /** A number that changes whenever another process commits to the store; checked on every look-up. */
  externalVersion?: () => number;
  /** Told when an answer read tables none of its tags stands for (so it was not kept): a bug to fix. */
  onUncovered?: (key: string, tables: string[]) => void;
  /** Start suspended, until `resume` (a listener not yet connected). */
  suspended?: boolean;
}

interface Entry extends Dependencies {
  value: unknown;
  weight: number;
  /** The count of placements (`placed`) when it was last put at the map's end. */
  placedAt: number;
}

/** A computation's answer, with what it depended on. */
interface Computed {
  value: unknown;
  dependencies: Dependencies & { uncovered: string[] };
}

/** A part computed by `rememberEach`, with the tags it depends on. */
export interface Part<T> {
  value: T;
  tags: string[];
}

export class ReadCache {
  /** Counts changes: a computation remembers the count it started at. */
  private sequence = 0;
  /** Computations that started before this count are stale (everything changed since). */
  private floor = 0;
  /** Per tag, the count of its last change, while a computation that started earlier may still end. */
  private readonly lastChanged = new Map<string, number>();
  private forgottenUpTo = 0;
  private readonly entries = new Map<string, Entry>();
  /** Entries put at the map's end so far, kept or moved there by a hit. */
  private placed = 0;
  private readonly keysByTag = new Map<string, Set<string>>();
  /** Computations under way, oldest first, so that requests that miss together compute once. */
  private readonly computing = new Map<string, { since: number; result: Promise<Computed> }>();
  private weight = 0;
  private externalSeen: number | undefined;
  private suspended: boolean;
  /** Names this cache in the notifications its process sends, so that it can ignore its own. */
  readonly origin = randomUUID();
  /**
   * Answers served from the cache and computed; parts (`rememberEach`) taken from it and read; entries
   * of either kind dropped by changes (not by eviction), per cause.
   */
  readonly stats = { hits: 0, misses: 0, partHits: 0, partMisses: 0, dropped: {} as Partial<Record<InvalidationCause, number>> };

  constructor(private readonly options: ReadCacheOptions) {
    this.suspended = options.suspended ?? false;
  }

  /** Called after a write committed, with what it changed; `everythingBecause` says why when that is everything. */
  invalidate(changes: Changes, everythingBecause: EverythingCause = 'undeclared_write'): void {
    this.sequence += 1;
    if (changes === 'all') {
      this.countDropped(everythingBecause, this.entries.size);
      this.floor = this.sequence;
      this.entries.clear();
      this.keysByTag.clear();
      this.lastChanged.clear();
      this.weight = 0;
      return;
    }
    for (const change of changes) {
      const { tag, drops } = changedTag(change);
      // Re-inserted, so that the map stays in the order of the changes. A computation that overlapped
      // the change is not kept, whether or not the change would have dropped it.
      this.lastChanged.delete(tag);
      this.lastChanged.set(tag, this.sequence);
      const keys = this.keysByTag.get(tag);
      if (!keys) continue;
      for (const key of [...keys]) {
        if (!drops(this.entries.get(key)!)) continue;
        this.countDropped(kindOf(tag), 1);
        this.drop(key);
      }
    }
    this.forgetSettledChanges();
  }

  /** Stops serving and keeping answers: changes may go unseen from now on. */
  suspend(): void {
    this.suspended = true;
    this.invalidate('all', 'listener_down');
  }

  /** Serves and keeps answers again, from nothing: what changed while suspended is unknown. */
  resume(): void {
    this.invalidate('all', 'listener_down');
    this.suspended = false;
  }

  /** False while suspended. */
  get serving(): boolean {
    return !this.suspended;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The kept answer for `key`, or `compute`'s, kept unless one of the tags it depends on changed while it
   * ran. `compute` reads through the context it is given, which collects those tags. Called while another
   * answer is computed on `ctx`, that answer depends on everything this one does, whether it was kept or
   * computed. A `part` (of answers, see `rememberPart`) is counted apart from the API's answers.
   */
  async remember<C extends CacheContext, T>(ctx: C, key: string, compute: (reader: C) => Promise<T>, part = false): Promise<T> {
    this.noteExternalChanges();
    if (this.suspended) return compute(ctx);
    const entry = this.hit(key);
    if (entry) {
      this.stats[part ? 'partHits' : 'hits'] += 1;
      inherit(ctx.db, entry);
      return entry.value as T;
    }
    const under = this.computing.get(key);
    if (under && under.since === this.sequence) {
      const joined = await under.result;
      inherit(ctx.db, joined.dependencies);
      return joined.value as T;
    }

    this.stats[part ? 'partMisses' : 'misses'] += 1;
    const since = this.sequence;
    const reading = startReading(ctx);
    const result = compute(reading.ctx).then((value) => ({ value, dependencies: reading.finish() }));
    this.computing.delete(key);
    this.computing.set(key, { since, result });
    let computed: Computed;
    try {
      computed = await result;
    } finally {
      if (this.computing.get(key)?.result === result) this.computing.delete(key);
    }
    const { uncovered, ...dependencies } = computed.dependencies;
    inherit(ctx.db, dependencies);
    if (uncovered.length > 0) this.options.onUncovered?.(key, uncovered);
    else if (this.unchangedSince(since, dependencies.tags)) this.keep(key, computed.value, dependencies);
    return computed.value as T;
  }

  /**
   * The parts kept under `keys`, and those not kept computed together by `compute`, which answers each
   * with the tags it depends on (a part it leaves out is absent from the answer). Meant for the parts of
   * an answer being computed on `ctx`: that answer depends on the tags of every part it took, kept or not.
   */
  async rememberEach<T>(ctx: CacheContext, keys: readonly string[], compute: (missing: string[]) => Promise<Map<string, Part<T>>>): Promise<Map<string, T>> {
    this.noteExternalChanges();
    const found = new Map<string, T>();
    const missing: string[] = [];
    for (const key of keys) {
      const entry = this.suspended ? undefined : this.hit(key);
      if (!entry) {
        missing.push(key);
        continue;
      }
      this.stats.partHits += 1;
      inherit(ctx.db, entry);
      found.set(key, entry.value as T);
    }
    if (missing.length === 0) return found;
    this.stats.partMisses += missing.length;
    const since = this.sequence;
    for (const [key, part] of await compute(missing)) {
      inherit(ctx.db, part);
      found.set(key, part.value);
      if (this.unchangedSince(since, part.tags)) this.keep(key, part.value, { tags: part.tags });
    }
    return found;
  }

  /** A commit of another process to the embedded store drops everything: it cannot say what it changed. */
  private noteExternalChanges(): void {
    const external = this.options.externalVersion?.();
    if (external !== undefined && external !== this.externalSeen) {
      this.externalSeen = external;
      this.invalidate('all', 'other_process');
    }
  }

  /**
   * The entry kept under `key`. Map order is recency order, nearly: a hit moves its entry to the end only
   * once half the map has been placed after it. Moving it on every hit (a delete and a set) makes V8
   * rebuild the whole map every few hundred hits once it holds tens of thousands of entries (40 µs a hit
   * at 20,000; bench/CHANGES.md). An entry used since then is still in the newer half, so eviction, which
   * takes the oldest first, reaches it only after every entry not used for longer.
   */
  private hit(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.placed - entry.placedAt > this.entries.size / 2) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.placedAt = this.placed++;
    }
    return entry;
  }

  private countDropped(cause: InvalidationCause, count: number): void {
    if (count > 0) this.stats.dropped[cause] = (this.stats.dropped[cause] ?? 0) + count;
  }

  private unchangedSince(since: number, tags: readonly string[]): boolean {
    if (this.suspended || since < this.floor || since < this.forgottenUpTo) return false;
    return tags.every((tag) => (this.lastChanged.get(tag) ?? 0) <= since);
  }

  private keep(key: string, value: unknown, dependencies: Dependencies): void {
    this.drop(key);
    const weight = key.length + this.options.weigh(value);
    this.entries.set(key, { value, weight, ...dependencies, placedAt: this.placed++ });
    this.weight += weight;
    for (const tag of dependencies.tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) this.keysByTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    for (const oldest of this.entries.keys()) {
      if (this.weight <= this.options.maxWeight) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }

  /**
   * A change matters only to computations that started before it. Those the map no longer holds (a newer
   * one took their key) are not kept at all once changes they might have missed are forgotten.
   */
  private forgetSettledChanges(): void {
    const oldest = this.computing.values().next().value?.since ?? this.sequence;
    for (const [tag, at] of this.lastChanged) {
      if (at > oldest) break;
      this.lastChanged.delete(tag);
      this.forgottenUpTo = Math.max(this.forgottenUpTo, at);
    }
  }
}

/** Through the context's cache when it has one; computed every time otherwise. */
export function remember<C extends CacheContext, T>(ctx: C, key: string, compute: (reader: C) => Promise<T>): Promise<T> {
  return ctx.readCache ? ctx.readCache.remember(ctx, key, compute) : compute(ctx);
}

/**
 * A part of answers (a page's positions, a team's lock cutoffs) through the context's cache when it has
 * one: kept and dropped like an answer, and the answer being computed on `ctx`, if any, depends on
 * everything the part does. Computed every time otherwise.
 */
export function rememberPart<C extends CacheContext, T>(ctx: C, key: string, compute: (reader: C) => Promise<T>): Promise<T> {
  return ctx.readCache ? ctx.readCache.remember(ctx, key, compute, true) : compute(ctx);
}

/** Parts through the context's cache when it has one (see `ReadCache.rememberEach`); all computed otherwise. */
export async function rememberEach<T>(
  ctx: CacheContext,
  keys: readonly string[],
  compute: (missing: string[]) => Promise<Map<string, Part<T>>>,
): Promise<Map<string, T>> {
  if (ctx.readCache) return ctx.readCache.rememberEach(ctx, keys, compute);
  return new Map([...(await compute([...keys]))].map(([key, part]) => [key, part.value]));
}

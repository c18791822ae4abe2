// What the read-only API answers again and again (a key and its policy, a page, a guide, a member list)
// kept in memory between requests. Invalidation is exact and narrow: each answer is kept with the tags
// it depends on (src/domain/read-dependencies.ts), each committed write names the tags it changed, and
// an answer is dropped when one of its tags changes. An answer whose computation overlapped a change to
// one of its tags is not kept, so a read that raced a write never leaves the old answer behind.
//
// Changes reach the cache from this process's writes as they commit, from other processes through the
// store: SQLite's `PRAGMA data_version` (which cannot say what changed: everything goes), or PostgreSQL's
// LISTEN/NOTIFY (src/service.ts). While notifications could be missed the cache is suspended: nothing is
// served from it or kept in it.
import { randomUUID } from 'node:crypto';
import type { DomainContext } from './context.js';
import { type Changes, changedTag, type Dependencies, kindOf, startReading, type TagKind } from './read-dependencies.js';

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
  private readonly keysByTag = new Map<string, Set<string>>();
  /** Computations under way, oldest first, so that requests that miss together compute once. */
  private readonly computing = new Map<string, { since: number; value: Promise<unknown> }>();
  private weight = 0;
  private externalSeen: number | undefined;
  private suspended: boolean;
  /** Names this cache in the notifications its process sends, so that it can ignore its own. */
  readonly origin = randomUUID();
  /** Answers served from the cache, computed, and dropped by changes (not by eviction) per cause. */
  readonly stats = { hits: 0, misses: 0, dropped: {} as Partial<Record<InvalidationCause, number>> };

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
   * ran. `compute` reads through the context it is given, which collects those tags.
   */
  async remember<T>(ctx: DomainContext, key: string, compute: (reader: DomainContext) => Promise<T>): Promise<T> {
    const external = this.options.externalVersion?.();
    if (external !== undefined && external !== this.externalSeen) {
      this.externalSeen = external;
      this.invalidate('all', 'other_process');
    }
    if (this.suspended) return compute(ctx);
    const entry = this.entries.get(key);
    if (entry) {
      // Map order is recency order: move the entry to the end.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.stats.hits += 1;
      return entry.value as T;
    }
    const under = this.computing.get(key);
    if (under && under.since === this.sequence) return under.value as Promise<T>;

    this.stats.misses += 1;
    const since = this.sequence;
    const reading = startReading(ctx);
    const computation = compute(reading.ctx);
    this.computing.delete(key);
    this.computing.set(key, { since, value: computation });
    let value: T;
    try {
      value = await computation;
    } finally {
      if (this.computing.get(key)?.value === computation) this.computing.delete(key);
    }
    const { uncovered, ...dependencies } = reading.finish();
    if (uncovered.length > 0) this.options.onUncovered?.(key, uncovered);
    else if (this.unchangedSince(since, dependencies.tags)) this.keep(key, value, dependencies);
    return value;
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
    this.entries.set(key, { value, weight, ...dependencies });
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
export function remember<T>(ctx: DomainContext, key: string, compute: (reader: DomainContext) => Promise<T>): Promise<T> {
  return ctx.readCache ? ctx.readCache.remember(ctx, key, compute) : compute(ctx);
}

// What the read-only API answers again and again (a key and its policy, the teams it reaches, a page, a
// guide, a member list) kept in memory between requests. Invalidation is exact and coarse: every
// committed write to the tables those answers come from starts a new generation, and an entry of an older
// generation is never served. Writes are rare next to reads, so a whole generation is cheap to refill.
//
// Only the embedded store caches. There one connection carries every statement of the process in turn,
// so a write's new generation begins before any later read runs, and `PRAGMA data_version` reports
// commits made by other processes on the same file. Several processes on PostgreSQL would need each
// other's writes announced, so there the cache is off (docs/decisions.md).

export interface ReadCacheOptions {
  /** Entries kept at most; the least recently used go first. */
  maxEntries: number;
  /** A number that changes whenever another process commits to the store; checked on every look-up. */
  externalVersion?: () => number;
}

interface Entry {
  generation: number;
  value: unknown;
}

export class ReadCache {
  private generation = 0;
  private externalSeen: number | undefined;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: ReadCacheOptions) {}

  /** Called after a write to any table that answers come from. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** The cached answer for `key`, or `compute`'s, kept unless a write happened while it ran. */
  async remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const external = this.options.externalVersion?.();
    if (external !== undefined && external !== this.externalSeen) {
      this.externalSeen = external;
      this.invalidate();
    }
    const entry = this.entries.get(key);
    if (entry && entry.generation === this.generation) {
      // Map order is recency order: move the entry to the end.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value as T;
    }
    const generation = this.generation;
    const value = await compute();
    if (generation === this.generation) {
      this.entries.set(key, { generation, value });
      if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }
}

/** Through the context's cache when it has one; computed every time otherwise. */
export function remember<T>(cache: ReadCache | undefined, key: string, compute: () => Promise<T>): Promise<T> {
  return cache ? cache.remember(key, compute) : compute();
}

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
  /** What the entries may weigh together; the least recently used go first. */
  maxWeight: number;
  /** An entry's weight: about the bytes it holds. */
  weigh: (value: unknown) => number;
  /** A number that changes whenever another process commits to the store; checked on every look-up. */
  externalVersion?: () => number;
}

interface Entry {
  generation: number;
  value: unknown;
  weight: number;
}

export class ReadCache {
  private generation = 0;
  private externalSeen: number | undefined;
  private readonly entries = new Map<string, Entry>();
  /** Computations under way, so that requests that miss together compute once. */
  private readonly computing = new Map<string, { generation: number; value: Promise<unknown> }>();
  private weight = 0;

  constructor(private readonly options: ReadCacheOptions) {}

  /** Called after a write to any table that answers come from. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.weight = 0;
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
    const under = this.computing.get(key);
    if (under && under.generation === generation) return under.value as Promise<T>;
    const computation = compute();
    this.computing.set(key, { generation, value: computation });
    let value: T;
    try {
      value = await computation;
    } finally {
      if (this.computing.get(key)?.value === computation) this.computing.delete(key);
    }
    if (generation === this.generation) {
      const weight = key.length + this.options.weigh(value);
      const previous = this.entries.get(key);
      if (previous) this.weight -= previous.weight;
      this.entries.delete(key);
      this.entries.set(key, { generation, value, weight });
      this.weight += weight;
      for (const [oldest, entry] of this.entries) {
        if (this.weight <= this.options.maxWeight) break;
        this.entries.delete(oldest);
        this.weight -= entry.weight;
      }
    }
    return value;
  }
}

/** Through the context's cache when it has one; computed every time otherwise. */
export function remember<T>(cache: ReadCache | undefined, key: string, compute: () => Promise<T>): Promise<T> {
  return cache ? cache.remember(key, compute) : compute();
}

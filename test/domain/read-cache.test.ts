// The read cache's rules, on a small in-memory store: answers are kept with the tags they depend on and
// dropped when one of those tags changes; an answer that raced a change to its tags, or that read a table
// none of its tags stands for, is not kept.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DomainContext } from '../../src/domain/context.js';
import { ReadCache, type ReadCacheOptions } from '../../src/domain/read-cache.js';
import { dependsOn, searchesTitles, tag } from '../../src/domain/read-dependencies.js';

function context(): DomainContext {
  const sqlite = new SQLite(':memory:');
  sqlite.exec('create table guides (id text); create table service_secrets (name text); create table delivery_attempts (id text)');
  return { db: new Kysely({ dialect: new SqliteDialect({ database: sqlite }) }) } as unknown as DomainContext;
}

const ctx = context();
const TEAM_A = tag.teamGuides('a');
const TEAM_B = tag.teamGuides('b');

function cacheWith(options: Partial<ReadCacheOptions> = {}): ReadCache {
  return new ReadCache({ maxWeight: 1e6, weigh: () => 1, ...options });
}

/** A computation that depends on `tags` and counts its runs. */
function counting(...tags: string[]) {
  let calls = 0;
  return {
    compute: async (reader: DomainContext) => {
      dependsOn(reader.db, ...tags);
      return ++calls;
    },
    calls: () => calls,
  };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A computation of `key` that depends on `tagName` and answers `value` once `held` opens. */
function heldUntil(cache: ReadCache, key: string, tagName: string, held: ReturnType<typeof gate>, value: string) {
  return cache.remember(ctx, key, async (reader) => {
    dependsOn(reader.db, tagName);
    await held.opened;
    return value;
  });
}

describe('read cache', () => {
  it('a change drops the answers that depend on its tags and no others', async () => {
    const cache = cacheWith();
    const a = counting(TEAM_A);
    const b = counting(TEAM_B);
    const both = counting(TEAM_A, TEAM_B);
    for (let i = 0; i < 2; i++) {
      await cache.remember(ctx, 'a', a.compute);
      await cache.remember(ctx, 'b', b.compute);
      await cache.remember(ctx, 'both', both.compute);
    }
    expect([a.calls(), b.calls(), both.calls()]).toEqual([1, 1, 1]);
    cache.invalidate([TEAM_A]);
    await cache.remember(ctx, 'a', a.compute);
    await cache.remember(ctx, 'b', b.compute);
    await cache.remember(ctx, 'both', both.compute);
    expect([a.calls(), b.calls(), both.calls()]).toEqual([2, 1, 2]);
    cache.invalidate('all');
    await cache.remember(ctx, 'b', b.compute);
    expect(b.calls()).toBe(2);
    // Counted by the kind of tag that changed, and everything by why (the metrics' cause label).
    expect(cache.stats.dropped).toEqual({ guides: 2, undeclared_write: 3 });
  });

  it('a title change drops the searches over its team it enters or leaves, and every other answer on its titles', async () => {
    const cache = cacheWith();
    const search = (term: string) => {
      let calls = 0;
      return {
        compute: async (reader: DomainContext) => {
          searchesTitles(reader.db, ['a'], term);
          return ++calls;
        },
        calls: () => calls,
      };
    };
    const before = search('fjord');
    const after = search('harbour');
    const neither = search('zebra');
    const both = search('guide'); // the guide stays a match: only pages showing it change (its own tag)
    const untermed = counting(tag.teamTitles('a'));
    const reads = [before, after, neither, both, untermed];
    for (let i = 0; i < 2; i++) for (const [n, read] of reads.entries()) await cache.remember(ctx, `k${n}`, read.compute);
    cache.invalidate([tag.retitled('a', 'the fjord: a guide', 'the harbour guide')]);
    for (const [n, read] of reads.entries()) await cache.remember(ctx, `k${n}`, read.compute);
    expect(reads.map((read) => read.calls())).toEqual([2, 2, 1, 1, 2]);
    // Another team's title change drops nothing here.
    cache.invalidate([tag.retitled('b', 'zebra', 'zebra crossing')]);
    await cache.remember(ctx, 'k2', neither.compute);
    expect(neither.calls()).toBe(1);
  });

  it('does not keep an answer computed while one of its tags changed, but keeps one whose tags did not', async () => {
    const cache = cacheWith();
    const changedGate = gate();
    const otherGate = gate();
    const raced = heldUntil(cache, 'a', TEAM_A, changedGate, 'before the write');
    const untouched = heldUntil(cache, 'b', TEAM_B, otherGate, 'b');
    cache.invalidate([TEAM_A]);
    changedGate.open();
    otherGate.open();
    expect(await raced).toBe('before the write');
    expect(await untouched).toBe('b');
    expect(await cache.remember(ctx, 'a', async () => 'after the write')).toBe('after the write');
    expect(await cache.remember(ctx, 'b', async () => 'recomputed')).toBe('b');
  });

  it('a computation that outlived many later changes is still not kept when one of them was its own', async () => {
    const cache = cacheWith();
    const slow = gate();
    const first = heldUntil(cache, 'a', TEAM_A, slow, 'stale');
    cache.invalidate([TEAM_A]);
    // A newer computation takes the key, and many changes come and go meanwhile.
    expect(await cache.remember(ctx, 'a', async (reader) => (dependsOn(reader.db, TEAM_A), 'fresh'))).toBe('fresh');
    for (let i = 0; i < 50; i++) cache.invalidate([tag.teamGuides(`other-${i}`)]);
    slow.open();
    expect(await first).toBe('stale');
    expect(await cache.remember(ctx, 'a', async () => 'recomputed')).toBe('fresh');
  });

  it('an answer that read a table none of its tags stands for is never kept, and is reported', async () => {
    const reported: string[][] = [];
    const cache = cacheWith({ onUncovered: (_key, tables) => reported.push(tables) });
    let calls = 0;
    const compute = async (reader: DomainContext) => {
      dependsOn(reader.db, TEAM_A);
      await reader.db.selectFrom('guides').select('id').execute();
      await (reader.db as unknown as Kysely<{ service_secrets: { name: string } }>).selectFrom('service_secrets').select('name').execute();
      return ++calls;
    };
    await cache.remember(ctx, 'a', compute);
    await cache.remember(ctx, 'a', compute);
    expect(calls).toBe(2);
    expect(reported).toEqual([['service_secrets'], ['service_secrets']]);
    // The same reads with nothing declared: guides is uncovered too.
    await cache.remember(ctx, 'b', async (reader) => reader.db.selectFrom('guides').select('id').execute());
    expect(reported.at(-1)).toEqual(['guides']);
  });

  it('drops everything when another process commits (the external version changes)', async () => {
    let version = 1;
    const cache = cacheWith({ externalVersion: () => version });
    const source = counting(TEAM_A);
    await cache.remember(ctx, 'a', source.compute);
    await cache.remember(ctx, 'a', source.compute);
    version = 2;
    expect(await cache.remember(ctx, 'a', source.compute)).toBe(2);
    expect(source.calls()).toBe(2);
    expect(cache.stats.dropped).toEqual({ other_process: 1 });
  });

  it('while suspended nothing is served or kept; resuming starts from nothing', async () => {
    const cache = cacheWith({ suspended: true });
    const source = counting(TEAM_A);
    await cache.remember(ctx, 'a', source.compute);
    await cache.remember(ctx, 'a', source.compute);
    expect(source.calls()).toBe(2);
    cache.resume();
    await cache.remember(ctx, 'a', source.compute);
    await cache.remember(ctx, 'a', source.compute);
    expect(source.calls()).toBe(3);
    cache.suspend();
    expect(cache.stats.dropped).toEqual({ listener_down: 1 });
    cache.resume();
    // A computation that began before a suspension is not kept.
    const slow = gate();
    const during = heldUntil(cache, 'b', TEAM_B, slow, 'unseen changes may have happened');
    cache.suspend();
    cache.resume();
    slow.open();
    await during;
    expect(await cache.remember(ctx, 'b', async () => 'recomputed')).toBe('recomputed');
  });

  it('evicts the least recently used entries once their weight passes the budget', async () => {
    // Each entry weighs its key's length (1) plus 10.
    const cache = cacheWith({ maxWeight: 33, weigh: () => 10 });
    const kept = new Map<string, ReturnType<typeof counting>>();
    const read = (key: string) => {
      if (!kept.has(key)) kept.set(key, counting(TEAM_A));
      return cache.remember(ctx, key, kept.get(key)!.compute);
    };
    await read('a');
    await read('b');
    await read('c');
    await read('a'); // a is now the most recently used
    await read('d'); // 44 > 33: b, the least recently used, goes
    await read('a');
    await read('c');
    await read('b');
    expect(kept.get('a')!.calls()).toBe(1);
    expect(kept.get('b')!.calls()).toBe(2);
    // An evicted entry leaves no trace under its tags: a change to them drops what is kept, nothing else.
    cache.invalidate([TEAM_A]);
    expect(cache.size).toBe(0);
  });

  it('in a full cache of many entries, one that is used keeps its place while the entries not used since are evicted', async () => {
    // 250 entries fill the budget (each weighs its key's length, 4); `hot`, the first of them, is read
    // once they are all in, and again after every new one.
    const cache = cacheWith({ maxWeight: 1000, weigh: () => 0 });
    const key = (n: number) => `e${String(n).padStart(3, '0')}`;
    const hot = counting(TEAM_A);
    await cache.remember(ctx, key(0), hot.compute);
    for (let n = 1; n < 250; n++) await cache.remember(ctx, key(n), async () => n);
    expect(await cache.remember(ctx, key(0), hot.compute)).toBe(1);
    // Every new entry from here on evicts the oldest one; 2,000 of them turn the cache over twice.
    for (let n = 250; n < 2250; n++) {
      await cache.remember(ctx, `new${n}`, async () => n);
      expect(await cache.remember(ctx, key(0), hot.compute)).toBe(1);
    }
    expect(hot.calls()).toBe(1);
    // The others were not used again: all of them are gone, and the cache holds what fits.
    for (const n of [1, 125, 249]) expect(await cache.remember(ctx, key(n), async () => 'again')).toBe('again');
    expect(cache.size).toBeLessThanOrEqual(250);
  });

  it('keeps nothing heavier than the whole budget, and still answers', async () => {
    const cache = cacheWith({ maxWeight: 5, weigh: () => 100 });
    const source = counting(TEAM_A);
    expect(await cache.remember(ctx, 'a', source.compute)).toBe(1);
    expect(await cache.remember(ctx, 'a', source.compute)).toBe(2);
  });

  it('does not keep a failed computation', async () => {
    const cache = cacheWith();
    await expect(cache.remember(ctx, 'a', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.remember(ctx, 'a', async () => 'yes')).toBe('yes');
  });

  it('requests that miss together compute once, and share a failure', async () => {
    const cache = cacheWith();
    const source = counting(TEAM_A);
    const slow = async (reader: DomainContext) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return source.compute(reader);
    };
    expect(await Promise.all([cache.remember(ctx, 'a', slow), cache.remember(ctx, 'a', slow), cache.remember(ctx, 'a', slow)])).toEqual([1, 1, 1]);
    expect(source.calls()).toBe(1);
    const failing = async () => Promise.reject(new Error('no'));
    const results = await Promise.allSettled([cache.remember(ctx, 'b', failing), cache.remember(ctx, 'b', async () => 'other')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('a computation begun before a change is not joined by requests after it', async () => {
    const cache = cacheWith();
    const slow = gate();
    const before = cache.remember(ctx, 'a', async () => {
      await slow.opened;
      return 'before';
    });
    cache.invalidate([TEAM_B]);
    const after = cache.remember(ctx, 'a', async () => 'after');
    slow.open();
    expect(await before).toBe('before');
    expect(await after).toBe('after');
  });
});

describe('parts of answers', () => {
  /** An answer under `key` made of the part `part` (which depends on `tagName`), counting its runs. */
  function withPart(cache: ReadCache, part: ReturnType<typeof counting>) {
    let calls = 0;
    return {
      compute: async (reader: DomainContext) => {
        calls++;
        return `made of ${await cache.remember(reader, 'part', part.compute, true)}`;
      },
      calls: () => calls,
    };
  }

  it('an answer depends on the tags of a part it took, whether the part was kept or computed', async () => {
    const cache = cacheWith();
    const part = counting(TEAM_A);
    const first = withPart(cache, part);
    const second = withPart(cache, part);
    await cache.remember(ctx, 'first', first.compute); // computes the part
    await cache.remember(ctx, 'second', second.compute); // takes the kept part
    expect(part.calls()).toBe(1);
    await cache.remember(ctx, 'first', first.compute);
    await cache.remember(ctx, 'second', second.compute);
    expect([first.calls(), second.calls()]).toEqual([1, 1]);
    // Counted apart: the answers' hits and misses stay those of the API's answers.
    expect(cache.stats).toMatchObject({ hits: 2, misses: 2, partHits: 1, partMisses: 1 });

    cache.invalidate([TEAM_B]);
    await cache.remember(ctx, 'second', second.compute);
    expect(second.calls()).toBe(1);
    cache.invalidate([TEAM_A]);
    await cache.remember(ctx, 'first', first.compute);
    await cache.remember(ctx, 'second', second.compute);
    expect([first.calls(), second.calls(), part.calls()]).toEqual([2, 2, 2]);
  });

  it("a search's term passes from its part to the answer, so a title change that leaves its matches alone keeps both", async () => {
    const cache = cacheWith();
    let partCalls = 0;
    const answer = async (reader: DomainContext) =>
      cache.remember(
        reader,
        'positions',
        async (inner) => {
          searchesTitles(inner.db, ['a'], 'fjord');
          return ++partCalls;
        },
        true,
      );
    await cache.remember(ctx, 'search', answer);
    cache.invalidate([tag.retitled('a', 'harbour', 'harbour guide')]);
    expect(await cache.remember(ctx, 'search', async () => -1)).toBe(1);
    cache.invalidate([tag.retitled('a', 'harbour', 'the fjord')]);
    expect(await cache.remember(ctx, 'search', answer)).toBe(2);
  });

  it('rememberEach serves the kept parts and computes the others together; the answer depends on each', async () => {
    const cache = cacheWith();
    const asked: string[][] = [];
    const rows = (reader: DomainContext, keys: string[]) =>
      cache.rememberEach(reader, keys, async (missing) => {
        asked.push(missing);
        return new Map(missing.map((key) => [key, { value: key.toUpperCase(), tags: [tag.guide(key)] }]));
      });
    const page = (keys: string[]) => async (reader: DomainContext) => [...(await rows(reader, keys)).values()].join();

    expect(await cache.remember(ctx, 'page 1', page(['x', 'y']))).toBe('X,Y');
    expect(await cache.remember(ctx, 'page 2', page(['y', 'z']))).toBe('Y,Z');
    expect(asked).toEqual([['x', 'y'], ['z']]);
    expect(cache.stats).toMatchObject({ partHits: 1, partMisses: 3 });

    cache.invalidate([tag.guide('y')]);
    expect(await cache.remember(ctx, 'page 1', page(['x', 'y']))).toBe('X,Y');
    expect(await cache.remember(ctx, 'page 2', page(['y', 'z']))).toBe('Y,Z');
    expect(asked).toEqual([['x', 'y'], ['z'], ['y']]);
    cache.invalidate([tag.guide('z')]);
    expect(await cache.remember(ctx, 'page 1', async () => 'not computed')).toBe('X,Y');
  });

  it('a part computed while its tag changed is not kept, and neither is the answer', async () => {
    const cache = cacheWith();
    const held = gate();
    let computed = 0;
    const answer = (reader: DomainContext) =>
      cache.rememberEach(reader, ['x'], async () => {
        computed++;
        await held.opened;
        return new Map([['x', { value: computed, tags: [tag.guide('x')] }]]);
      });
    const racing = cache.remember(ctx, 'page', answer);
    cache.invalidate([tag.guide('x')]);
    held.open();
    await racing;
    await cache.remember(ctx, 'page', answer);
    expect(computed).toBe(2);
  });
});

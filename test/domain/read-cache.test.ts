import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/domain/read-cache.js';

const counting = () => {
  let calls = 0;
  return { compute: async () => ++calls, calls: () => calls };
};

describe('read cache', () => {
  it('serves a kept answer until a write starts a new generation', async () => {
    const cache = new ReadCache({ maxWeight: 1e6, weigh: () => 1 });
    const source = counting();
    expect(await cache.remember('a', source.compute)).toBe(1);
    expect(await cache.remember('a', source.compute)).toBe(1);
    cache.invalidate();
    expect(await cache.remember('a', source.compute)).toBe(2);
  });

  it('does not keep an answer computed while a write happened', async () => {
    const cache = new ReadCache({ maxWeight: 1e6, weigh: () => 1 });
    let release!: () => void;
    const slow = cache.remember('a', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return 'before the write';
    });
    cache.invalidate();
    release();
    expect(await slow).toBe('before the write');
    expect(await cache.remember('a', async () => 'after the write')).toBe('after the write');
  });

  it('drops everything when another process commits (the external version changes)', async () => {
    let version = 1;
    const cache = new ReadCache({ maxWeight: 1e6, weigh: () => 1, externalVersion: () => version });
    const source = counting();
    await cache.remember('a', source.compute);
    await cache.remember('a', source.compute);
    version = 2;
    expect(await cache.remember('a', source.compute)).toBe(2);
    expect(source.calls()).toBe(2);
  });

  it('evicts the least recently used entries once their weight passes the budget', async () => {
    // Each entry weighs its key's length (1) plus 10.
    const cache = new ReadCache({ maxWeight: 33, weigh: () => 10 });
    const kept = new Map<string, ReturnType<typeof counting>>();
    const read = (key: string) => {
      if (!kept.has(key)) kept.set(key, counting());
      return cache.remember(key, kept.get(key)!.compute);
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
  });

  it('keeps nothing heavier than the whole budget, and still answers', async () => {
    const cache = new ReadCache({ maxWeight: 5, weigh: () => 100 });
    const source = counting();
    expect(await cache.remember('a', source.compute)).toBe(1);
    expect(await cache.remember('a', source.compute)).toBe(2);
  });

  it('does not keep a failed computation', async () => {
    const cache = new ReadCache({ maxWeight: 1e6, weigh: () => 1 });
    await expect(cache.remember('a', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.remember('a', async () => 'yes')).toBe('yes');
  });

  it('requests that miss together compute once, and share a failure', async () => {
    const cache = new ReadCache({ maxWeight: 1e6, weigh: () => 1 });
    const source = counting();
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return source.compute();
    };
    expect(await Promise.all([cache.remember('a', slow), cache.remember('a', slow), cache.remember('a', slow)])).toEqual([1, 1, 1]);
    expect(source.calls()).toBe(1);
    const failing = async () => Promise.reject(new Error('no'));
    const results = await Promise.allSettled([cache.remember('b', failing), cache.remember('b', async () => 'other')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('a computation begun before a write is not joined by requests after it', async () => {
    const cache = new ReadCache({ maxWeight: 1e6, weigh: () => 1 });
    let release!: () => void;
    const before = cache.remember('a', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return 'before';
    });
    cache.invalidate();
    const after = cache.remember('a', async () => 'after');
    release();
    expect(await before).toBe('before');
    expect(await after).toBe('after');
  });
});

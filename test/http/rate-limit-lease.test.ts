// Rate limits leased in blocks from a shared counter (src/http/rate-limit-lease.ts, docs/decisions.md):
// never more than the limit over all processes, exact for one process, one store round trip for many
// requests of a busy key, small leases near the end of a window and for quiet keys. The shared counter
// here is a fixed window on a clock the test moves, as PostgreSQL's and Redis's are on theirs.
import { RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { LEASE_AT_MOST, LEASE_SHARE, LeasingRateLimit } from '../../src/http/rate-limit-lease.js';
import type { RequestCounter } from '../../src/http/rate-limit.js';

const WINDOW_MS = 60_000;

/** One shared fixed window per bucket, as rate-limiter-flexible keeps them; records each count asked for. */
class SharedWindows implements RequestCounter {
  now = 1_000_000;
  readonly asked: number[] = [];
  failing = false;
  private readonly windows = new Map<string, { points: number; endsAt: number }>();

  async count(bucket: string, points: number): Promise<RateLimiterRes> {
    await Promise.resolve();
    if (this.failing) throw new Error('the store is unavailable');
    this.asked.push(points);
    let window = this.windows.get(bucket);
    const first = window === undefined || window.endsAt <= this.now;
    if (first) this.windows.set(bucket, (window = { points: 0, endsAt: this.now + WINDOW_MS }));
    window!.points += points;
    return new RateLimiterRes(0, window!.endsAt - this.now, window!.points, first);
  }
}

function processOn(shared: SharedWindows, limit: number): LeasingRateLimit {
  return new LeasingRateLimit(shared, limit, () => shared.now);
}

async function admitted(rateLimit: LeasingRateLimit, n: number, bucket = 'key:a'): Promise<number> {
  const states = await Promise.all(Array.from({ length: n }, () => rateLimit.take(bucket)));
  return states.filter((state) => state.allowed).length;
}

describe('rate limits leased in blocks from a shared counter', () => {
  it('one process is exact: RateLimit-Remaining falls by one a request, the limit is admitted and the next refused', async () => {
    const shared = new SharedWindows();
    const rateLimit = processOn(shared, 600);
    for (let n = 1; n <= 600; n++) {
      const state = await rateLimit.take('key:a');
      expect(state).toMatchObject({ allowed: true, remaining: 600 - n, limit: 600 });
    }
    const refused = await rateLimit.take('key:a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60 });
  });

  it('never more than the limit over several processes, whatever order their requests come in', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const shared = new SharedWindows();
      const processes = [0, 1, 2].map(() => processOn(shared, 1000));
      let random = seed;
      const next = () => ((random = (random * 48271) % 2147483647) / 2147483647);
      let total = 0;
      for (let i = 0; i < 1500; i++) {
        const process = processes[Math.floor(next() * processes.length)]!;
        total += await admitted(process, 1 + Math.floor(next() * 4));
      }
      expect(total).toBeLessThanOrEqual(1000);
      // Refused early by at most what the others held unused, at most a lease each.
      expect(total).toBeGreaterThanOrEqual(1000 - 2 * LEASE_AT_MOST);
    }
  });

  it('requests shared evenly between two processes get the whole limit, and then both refuse', async () => {
    const shared = new SharedWindows();
    const [a, b] = [processOn(shared, 600), processOn(shared, 600)];
    let total = 0;
    for (let i = 0; i < 30; i++) total += (await admitted(a!, 10)) + (await admitted(b!, 10));
    expect(total).toBe(600);
    expect((await a!.take('key:a')).allowed).toBe(false);
    expect((await b!.take('key:a')).allowed).toBe(false);
  });

  it('a busy key asks the shared store once for many requests; a lease is at most 100 points and 1/16 of what was left', async () => {
    const shared = new SharedWindows();
    const rateLimit = processOn(shared, 1_000_000);
    for (let i = 0; i < 100; i++) expect(await admitted(rateLimit, 100)).toBe(100);
    expect(shared.asked.length).toBeLessThan(10_000 / 50);
    expect(Math.max(...shared.asked)).toBe(LEASE_AT_MOST);
    // Concurrent requests wait for one lease rather than each asking.
    expect(shared.asked.slice(0, 3)).toEqual([1, 2, 4]);
  });

  it('leases shrink as the window runs out: under 32 points left each lease is one point', async () => {
    const shared = new SharedWindows();
    const rateLimit = processOn(shared, 600);
    await admitted(rateLimit, 600);
    let counted = 0;
    for (const size of shared.asked) {
      expect(size).toBeLessThanOrEqual(Math.max(1, Math.floor((600 - counted) / LEASE_SHARE)));
      counted += size;
    }
    expect(counted).toBe(600);
    expect(shared.asked.slice(-2 * LEASE_SHARE + 1).every((size) => size === 1)).toBe(true);
  });

  it('a spent window is refused without asking the store until it ends; the next window admits again', async () => {
    const shared = new SharedWindows();
    const rateLimit = processOn(shared, 10);
    expect(await admitted(rateLimit, 12)).toBe(10);
    const asked = shared.asked.length;
    shared.now += 30_000;
    const refused = await rateLimit.take('key:a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 30 });
    expect(shared.asked.length).toBe(asked);
    shared.now += 30_000;
    expect(await rateLimit.take('key:a')).toMatchObject({ allowed: true, remaining: 9, resetSeconds: 60 });
  });

  it('a lease never outlives its window: points left when the window ends are not given out', async () => {
    const shared = new SharedWindows();
    const rateLimit = processOn(shared, 1000);
    await admitted(rateLimit, 8); // leases of 1, 2, 4 and 8 points: 7 left
    shared.now += WINDOW_MS;
    const state = await rateLimit.take('key:a');
    expect(state).toMatchObject({ allowed: true, remaining: 999, resetSeconds: 60 });
    expect(shared.asked.at(-1)).toBe(1);
  });

  it('keys are counted apart', async () => {
    const shared = new SharedWindows();
    const rateLimit = processOn(shared, 5);
    expect(await admitted(rateLimit, 7, 'key:a')).toBe(5);
    expect(await admitted(rateLimit, 7, 'key:b')).toBe(5);
  });

  it('a store that fails fails every request waiting for the lease, and the next request asks again', async () => {
    const shared = new SharedWindows();
    const rateLimit = processOn(shared, 600);
    shared.failing = true;
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => rateLimit.take('key:a')));
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    shared.failing = false;
    expect(await rateLimit.take('key:a')).toMatchObject({ allowed: true, remaining: 599 });
  });
});

// Rate limits counted in Redis, with the database counter (PostgreSQL, or memory on the embedded store)
// standing in while Redis cannot be reached, and one window per key across the switch and back (docs/
// decisions.md, "Rate limits across a Redis outage"). Neither store can see the other's counts, so they
// are moved at each switch:
// - While Redis counts, this process remembers how many requests of each key it counted there in the
//   key's current window. When Redis goes, it adds them to the key's window in the database, opened to
//   end when Redis's would have, so the database goes on from the count of every process together.
// - While the database counts, Redis is probed every second. Once it answers, every window open in the
//   database is copied into Redis, raising Redis's count to the database's, never lowering it (a Redis
//   that kept its counts through the outage also holds requests the database never saw).
// Requests wait while the counts move (a few queries), so that none is counted in a window being moved.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { counterOf, type RequestCounter } from './rate-limit.js';

/** A key's window: its count and when it ends (ms since the epoch). */
export interface Window {
  bucket: string;
  points: number;
  endsAt: number;
}

/** The counter that stands in for Redis, and its windows that are still open. */
export interface FallbackCounter {
  limiter: RateLimiterAbstract;
  openWindows(now: number): Promise<Window[]>;
}

/** How often Redis is probed: while it counts, to notice a Redis that stopped answering; otherwise, to come back. */
const PROBE_EVERY_MS = 1000;
/** Keys raised in Redis per round trip when the counts move back. */
const RAISE_BATCH = 500;

// KEYS: the keys; ARGV: per key, its count and the ms left in its window. A key is raised, never lowered.
const RAISE_SCRIPT = `
for i, key in ipairs(KEYS) do
  local points = tonumber(ARGV[2 * i - 1])
  if tonumber(redis.call('get', key) or '0') < points then
    redis.call('set', key, points, 'px', ARGV[2 * i])
  end
end
return 0`;

export class RedisCounterWithFallback implements RequestCounter {
  private inRedis = false;
  /** The move of counts under way, if any; it never fails. */
  private moving: Promise<void> = Promise.resolve();
  private probing = false;
  /** Closing: the connection's end is not an outage. */
  private closed = false;
  /** Per key, the requests this process counted in Redis in the key's current window. */
  private readonly countedHere = new Map<string, { points: number; endsAt: number }>();
  private readonly redisCounter: RequestCounter;
  private readonly fallbackCounter: RequestCounter;
  private readonly timer: NodeJS.Timeout;
  /** Settles when counting first starts in Redis. */
  private readonly firstInRedis: Promise<void>;
  private markInRedis: () => void = () => undefined;

  constructor(
    private readonly redis: Redis,
    private readonly redisLimiter: RateLimiterAbstract,
    private readonly fallback: FallbackCounter,
    private readonly log: FastifyBaseLogger,
  ) {
    this.firstInRedis = new Promise((resolve) => (this.markInRedis = resolve));
    this.redisCounter = counterOf(redisLimiter);
    this.fallbackCounter = counterOf(fallback.limiter);
    redis.on('error', (error: Error) => this.toFallback(error));
    redis.on('close', () => this.toFallback(undefined));
    redis.on('ready', () => void this.backToRedis());
    this.timer = setInterval(() => this.probe(), PROBE_EVERY_MS).unref();
  }

  /** Waits, at most `waitMs`, for counting to start in Redis. */
  async start(waitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.firstInRedis, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    if (!this.inRedis) this.log.warn('Redis is unreachable; rate limits count in the database meanwhile');
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.redis.disconnect();
  }

  async count(bucket: string, points: number): Promise<RateLimiterRes> {
    await this.moving;
    if (this.inRedis) {
      let res: RateLimiterRes;
      try {
        res = await this.redisCounter.count(bucket, points);
      } catch (error) {
        this.toFallback(error);
        await this.moving;
        return this.fallbackCounter.count(bucket, points);
      }
      await this.remember(bucket, points, res);
      return res;
    }
    return this.fallbackCounter.count(bucket, points);
  }

  private async remember(bucket: string, points: number, res: RateLimiterRes): Promise<void> {
    const now = Date.now();
    const endsAt = now + res.msBeforeNext;
    // Counted in Redis after this process switched (the request was under way): the counts have moved
    // to the database, so this one follows them.
    if (!this.inRedis) return this.carry([{ bucket, points, endsAt }]);
    const known = this.countedHere.get(bucket);
    const sameWindow = known !== undefined && known.endsAt > now && !res.isFirstInDuration;
    this.countedHere.set(bucket, { points: (sameWindow ? known.points : 0) + points, endsAt });
  }

  private toFallback(cause: unknown): void {
    if (!this.inRedis || this.closed) return;
    this.inRedis = false;
    this.log.warn({ err: cause }, 'Redis is unreachable; rate limits count in the database meanwhile');
    const windows = [...this.countedHere].map(([bucket, counted]) => ({ bucket, ...counted }));
    this.countedHere.clear();
    this.moving = this.moving.then(async () => {
      await this.carry(windows);
      this.log.info({ keys: windows.length }, 'the rate-limit counts of this process moved from Redis to the database');
    });
  }

  /** Adds counts to the fallback's windows; a window not open there yet is opened to end when Redis's would have. */
  private async carry(windows: Window[]): Promise<void> {
    const now = Date.now();
    const open = windows.filter((window) => window.endsAt > now);
    // The library takes the time left in seconds (and PostgreSQL keeps whole milliseconds): rounded up, a
    // window may end up to a second late, never early.
    const added = await Promise.allSettled(
      open.map((window) => this.fallback.limiter.penalty(window.bucket, window.points, { customDuration: Math.ceil((window.endsAt - now) / 1000) })),
    );
    const failed = added.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed.length > 0) {
      this.log.error({ keys: failed.length, err: failed[0]!.reason }, 'could not move rate-limit counts to the database; those keys may get more requests in this window');
    }
  }

  private async backToRedis(): Promise<void> {
    if (this.inRedis || this.probing || this.closed) return;
    this.probing = true;
    try {
      // Only a Redis that answers makes requests wait for the move.
      await this.redis.ping();
      this.moving = this.moving.then(() => this.moveToRedis());
      await this.moving;
    } catch {
      // Not answering yet: the next probe tries again.
    } finally {
      this.probing = false;
    }
  }

  private async moveToRedis(): Promise<void> {
    try {
      const windows = await this.fallback.openWindows(Date.now());
      for (let i = 0; i < windows.length; i += RAISE_BATCH) {
        const batch = windows.slice(i, i + RAISE_BATCH);
        const now = Date.now();
        const keys = batch.map((window) => this.redisLimiter.getKey(window.bucket));
        const counts = batch.flatMap((window) => [window.points, Math.max(1, window.endsAt - now)]);
        await this.redis.eval(RAISE_SCRIPT, keys.length, ...keys, ...counts);
      }
      this.inRedis = true;
      this.markInRedis();
      this.log.info({ keys: windows.length }, 'Redis is reachable; rate limits count in Redis');
    } catch (error) {
      this.log.warn({ err: error }, 'could not move the rate-limit counts back to Redis; the database keeps counting');
    }
  }

  private probe(): void {
    if (!this.inRedis) {
      if (this.redis.status === 'ready') void this.backToRedis();
      return;
    }
    const now = Date.now();
    for (const [bucket, counted] of this.countedHere) if (counted.endsAt <= now) this.countedHere.delete(bucket);
    // A Redis that stopped answering but kept the connection open shows here, so that the counts move
    // even while this process has no request.
    this.redis.ping().catch((error: unknown) => this.toFallback(error));
  }
}

// Where request counts are kept (decisions §4, §8): in memory for the embedded single-process store; in
// PostgreSQL for several replicas; in Redis when REDIS_URL is set, with the PostgreSQL (or memory) counter
// standing in while Redis cannot be reached (rate-limit-failover.ts), so that requests are still answered
// and every key keeps one window across the switch. The shared stores are taken from in leases of several
// requests (rate-limit-lease.ts), not asked per request.
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Store } from '../db/database.js';
import { RATE_LIMIT_TABLE } from '../db/migrations/0003_shared_rate_limits.js';
import { CountingRateLimit, counterOf, RATE_WINDOW_SECONDS, type RequestRateLimit } from './rate-limit.js';
import { LeasingRateLimit } from './rate-limit-lease.js';
import { claimCountingPlace } from './rate-limit-claim.js';
import { type FallbackCounter, RedisCounterWithFallback } from './rate-limit-failover.js';

export interface RateLimitBackend {
  rateLimit: RequestRateLimit;
  close(): Promise<void>;
}

export interface RateLimitOptions {
  redisUrl: string | null;
  /** Requests per key per window. */
  points: number;
  /** Whether this process serves the APIs; a worker-only process counts no request. */
  serveApi: boolean;
}

function databaseCounter(store: Store, points: number): FallbackCounter {
  const options = { points, duration: RATE_WINDOW_SECONDS };
  const pool = store.pool;
  if (pool === null) {
    const limiter = new RateLimiterMemory(options);
    const openWindows = async (now: number) =>
      limiter
        .dump()
        .storage.flatMap((record) => (record.expiresAt !== null && record.expiresAt > now ? [{ bucket: String(record.key), points: record.value, endsAt: record.expiresAt }] : []));
    return { limiter, openWindows };
  }
  const limiter = new RateLimiterPostgres({ ...options, storeClient: pool, tableName: RATE_LIMIT_TABLE, tableCreated: true });
  const openWindows = async (now: number) => {
    const { rows } = await pool.query<{ key: string; points: number; expire: number }>(`SELECT key, points, expire FROM ${RATE_LIMIT_TABLE} WHERE expire > $1`, [now]);
    return rows.map((row) => ({ bucket: limiter.parseKey(row.key), points: row.points, endsAt: row.expire }));
  };
  return { limiter, openWindows };
}

/** How long start-up waits for Redis before counting in the fallback store. */
const REDIS_READY_WAIT_MS = 3000;
/** How long a request waits for Redis's answer before the database counts it. */
const REDIS_COMMAND_TIMEOUT_MS = 1000;
/** The longest pause between two attempts to reconnect: after an outage, every process is back within it. */
const REDIS_RECONNECT_AT_MOST_MS = 1000;

export async function openRateLimit(store: Store, options: RateLimitOptions, log: FastifyBaseLogger): Promise<RateLimitBackend> {
  const { redisUrl, points } = options;
  const claim = options.serveApi && store.pool !== null ? await claimCountingPlace(store.pool, redisUrl === null ? 'database' : 'redis', log) : null;
  const fallback = databaseCounter(store, points);
  if (redisUrl === null) {
    // Memory counts for nothing; a shared store is asked for leases of several requests (rate-limit-lease.ts).
    const counter = counterOf(fallback.limiter);
    const rateLimit = store.pool === null ? new CountingRateLimit(counter, points) : new LeasingRateLimit(counter, points);
    return { rateLimit, close: async () => claim?.release() };
  }

  // No offline queue: while Redis is away a count fails at once and the fallback counter takes it.
  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_RECONNECT_AT_MOST_MS),
  });
  const redisLimiter = new RateLimiterRedis({
    storeClient: redis,
    points,
    duration: RATE_WINDOW_SECONDS,
    keyPrefix: `guide-service:${store.name}:rate`,
    rejectIfRedisNotReady: true,
  });
  const counter = new RedisCounterWithFallback(redis, redisLimiter, fallback, log);
  await counter.start(REDIS_READY_WAIT_MS);
  return {
    rateLimit: new LeasingRateLimit(counter, points),
    close: async () => {
      counter.close();
      await claim?.release();
    },
  };
}

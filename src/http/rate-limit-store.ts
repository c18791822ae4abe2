// Where request counts are kept (decisions §4, §8): in memory for the embedded single-process store; in
// PostgreSQL for several replicas; in Redis when REDIS_URL is set, with the PostgreSQL (or memory) counter
// standing in while Redis cannot be reached, so that requests are still answered.
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Store } from '../db/database.js';
import { RATE_LIMIT_TABLE } from '../db/migrations/0003_shared_rate_limits.js';
import { RATE_WINDOW_SECONDS, RequestRateLimit } from './rate-limit.js';

export interface RateLimitBackend {
  rateLimit: RequestRateLimit;
  close(): Promise<void>;
}

function databaseLimiter(store: Store, points: number): RateLimiterAbstract {
  const options = { points, duration: RATE_WINDOW_SECONDS };
  if (store.pool === null) return new RateLimiterMemory(options);
  return new RateLimiterPostgres({ ...options, storeClient: store.pool, tableName: RATE_LIMIT_TABLE, tableCreated: true });
}

/** How long start-up waits for Redis before counting in the fallback store. */
const REDIS_READY_WAIT_MS = 3000;

export async function openRateLimit(store: Store, redisUrl: string | null, points: number, log: FastifyBaseLogger): Promise<RateLimitBackend> {
  const fallback = databaseLimiter(store, points);
  if (redisUrl === null) return { rateLimit: new RequestRateLimit(fallback, points), close: async () => undefined };

  // No offline queue: while Redis is away a count fails at once and the fallback counter takes it.
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  let reachable = true;
  redis.on('ready', () => {
    if (!reachable) log.info('Redis is reachable again; rate limits count in Redis');
    reachable = true;
  });
  redis.on('error', (error: Error) => {
    if (reachable) log.warn({ err: error }, 'Redis is unreachable; rate limits count in the database meanwhile');
    reachable = false;
  });
  // Counting starts in Redis when it can: requests counted in two stores would each see half.
  await new Promise<void>((resolve) => {
    if (redis.status === 'ready') return resolve();
    const timer = setTimeout(resolve, REDIS_READY_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    points,
    duration: RATE_WINDOW_SECONDS,
    keyPrefix: `guide-service:${store.name}:rate`,
    rejectIfRedisNotReady: true,
    insuranceLimiter: fallback,
  });
  return {
    rateLimit: new RequestRateLimit(limiter, points),
    close: async () => {
      redis.disconnect();
    },
  };
}

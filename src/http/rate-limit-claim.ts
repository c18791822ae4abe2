// The processes on one PostgreSQL database must count rate limits in one place: one with REDIS_URL counts
// in Redis, one without it in the database, and each would see only its own requests. So every process
// that answers requests holds, for its lifetime, a shared advisory lock that says where it counts, and a
// process that finds the other lock held refuses to start, naming REDIS_URL. PostgreSQL drops a lock with
// its connection, so only running processes count: once the others have stopped, a changed REDIS_URL
// starts. The lock has a connection of its own, taken again (and checked again) when it drops.
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { ConfigError } from '../config.js';

export type CountingPlace = 'database' | 'redis';

// Two-key advisory locks in a space of their own ("rate"); migrations and the demo take one-key locks.
const LOCK_SPACE = 0x72617465;
const LOCK_OF: Record<CountingPlace, number> = { database: 1, redis: 2 };
const RECONNECT_AFTER_MS = 1000;
/** How the lock's connection shows in pg_stat_activity. */
const CONNECTION_NAME = 'guide-service-rate-limits';

const HELD_ELSEWHERE = `
  SELECT 1 FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2 AND objsubid = 2
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
  LIMIT 1`;

function refusal(place: CountingPlace): string {
  return place === 'redis'
    ? 'is set here, but a process without REDIS_URL is running on this database and counts rate limits in it; every process on one database needs the same REDIS_URL (stop the others first, or set it on them)'
    : 'is not set here, but a process with REDIS_URL is running on this database and counts rate limits in Redis; every process on one database needs the same REDIS_URL';
}

export interface CountingClaim {
  release(): Promise<void>;
}

/** Takes the lock of `place`; throws a ConfigError naming REDIS_URL when a running process counts elsewhere. */
export async function claimCountingPlace(pool: pg.Pool, place: CountingPlace, log: FastifyBaseLogger): Promise<CountingClaim> {
  const other: CountingPlace = place === 'redis' ? 'database' : 'redis';
  let client: pg.Client | null = null;
  let released = false;

  const lost = (lostClient: pg.Client) => {
    if (client !== lostClient || released) return;
    client = null;
    void lostClient.end().catch(() => undefined);
    setTimeout(retake, RECONNECT_AFTER_MS).unref();
  };
  // A running process cannot refuse to start any more; it says so instead. A failure tries again later.
  const retake = () => {
    if (released) return;
    take().then(
      (conflict) => conflict && log.error(`REDIS_URL ${refusal(place)}`),
      () => undefined,
    );
  };

  // Answers whether a process counting elsewhere holds the other lock.
  const take = async (): Promise<boolean> => {
    const next = new pg.Client({ connectionString: pool.options.connectionString, application_name: CONNECTION_NAME });
    client = next;
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query('SELECT pg_advisory_lock_shared($1, $2)', [LOCK_SPACE, LOCK_OF[place]]);
      // Taken before looking: of two processes starting together, at least one sees the other.
      return ((await next.query(HELD_ELSEWHERE, [LOCK_SPACE, LOCK_OF[other]])).rowCount ?? 0) > 0;
    } catch (error) {
      lost(next);
      throw error;
    }
  };

  const release = async () => {
    released = true;
    await client?.end().catch(() => undefined);
  };

  try {
    if (await take()) throw new ConfigError('REDIS_URL', refusal(place));
  } catch (error) {
    await release();
    throw error;
  }
  return { release };
}

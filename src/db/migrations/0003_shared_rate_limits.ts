// The rate-limit counters that PostgreSQL keeps for every replica when no Redis is configured (or while
// Redis is unreachable), in the layout rate-limiter-flexible reads. SQLite runs one process and counts in
// memory, so it has no such table.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

export const RATE_LIMIT_TABLE = 'rate_limits';

export function sharedRateLimits(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE TABLE rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`.execute(db);
      await sql`CREATE INDEX rate_limits_expire ON rate_limits (expire)`.execute(db);
    },
  };
}

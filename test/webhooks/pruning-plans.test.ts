// Pruning finds old attempts endpoint by endpoint through the Deliveries list's (endpoint_id, created_at,
// id) index (issue 46: an index of its own on created_at cost every outcome an entry, and only pruning read
// it). On either store a plan that scans the table instead would read every attempt there is each minute.
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { pruneOldDeliveries } from '../../src/webhooks/pruning.js';
import { planOf, statementsSent } from '../support/query-plans.js';
import { soloTeam, useTestService } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';

const DAY_MS = 86_400_000;
const RETENTION_MS = 30 * DAY_MS;

/** Runs `work` with the database it is given, and answers the statements it sent that delete attempts, compiled. */
async function attemptDeletesSent(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<void>): Promise<CompiledQuery[]> {
  return (await statementsSent(db, work)).filter((query) => query.sql.startsWith('delete from "webhook_attempts"'));
}

describe('pruning old attempts', () => {
  const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

  /** `count` endpoints made through the API, then no attempt at all; answers an event for attempts to name. */
  async function endpointsWithoutAttempts(count: number): Promise<string> {
    for (let i = 0; i < count; i++) {
      const { team } = await soloTeam(t);
      await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    }
    const db = t.service.ctx.db;
    const { event_id } = await db.selectFrom('webhook_attempts').select('event_id').limit(1).executeTakeFirstOrThrow();
    await db.deleteFrom('webhook_attempts').execute();
    return event_id;
  }

  /** `count` attempts in `status` made at `at` for each endpoint that `which` picks, ids tagged with `tag`. */
  const addAttempts = (eventId: string, status: string, count: number, at: Date, tag: string, which = sql<boolean>`1 = 1`) =>
    sql`INSERT INTO webhook_attempts (id, event_id, endpoint_id, attempt_number, auto_retry, status, due_at, created_at)
      WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${count})
      SELECT ep.id || '-' || ${tag} || '-' || g.n, ${eventId}, ep.id, 1, 0, ${status}, ${at.toISOString()}, ${at.toISOString()}
      FROM g CROSS JOIN (SELECT id FROM webhook_endpoints WHERE ${which}) ep ORDER BY g.n, ep.id`.execute(t.service.ctx.db);

  it('reads each endpoint’s range of its (endpoint_id, created_at) index, never the whole table, and takes only sent attempts older than the retention', async () => {
    const db = t.service.ctx.db;
    const eventId = await endpointsWithoutAttempts(10);
    // Per endpoint 1,000 attempts 40 days old (nine in ten delivered, the rest missed) and 1,000 of today;
    // one endpoint has 1,500 old ones more, more than one batch.
    const now = t.clock.now();
    const old = new Date(now.getTime() - 40 * DAY_MS);
    await addAttempts(eventId, 'delivered', 900, old, 'old-sent');
    await addAttempts(eventId, 'missed', 100, old, 'old-missed');
    await addAttempts(eventId, 'delivered', 1000, now, 'new');
    await addAttempts(eventId, 'delivered', 1500, old, 'old-more', sql<boolean>`id = (SELECT max(id) FROM webhook_endpoints)`);
    // Statistics on PostgreSQL, as autovacuum takes them; nothing runs ANALYZE on the embedded store.
    if (usingPostgres) await sql`ANALYZE webhook_attempts`.execute(db);

    const deletes = await attemptDeletesSent(db, (pruning) => pruneOldDeliveries({ ...t.service.ctx, db: pruning }, RETENTION_MS, RETENTION_MS));
    const plan = await planOf(db, deletes[0]!);
    if (usingPostgres) {
      // Each endpoint's range of the index (by an index scan, or a bitmap of it when the planner knows of
      // few endpoints, as here), and the rows to delete by their seq, not a hash of the batch against the
      // whole table.
      expect(plan).toMatch(/Index Scan using webhook_attempts_endpoint on webhook_attempts a\b|Bitmap Index Scan on webhook_attempts_endpoint\b/);
      expect(plan).toMatch(/Index Cond: \(\(endpoint_id = ep\.id\) AND \(created_at < /);
      expect(plan).toMatch(/Index Scan using webhook_attempts_pkey on webhook_attempts\b/);
      expect(plan).not.toMatch(/Seq Scan on webhook_attempts\b/);
    } else {
      expect(plan).toMatch(/SEARCH a USING INDEX webhook_attempts_endpoint \(.*created_at<\?\)/);
      expect(plan).not.toMatch(/^SCAN a\b/m);
    }

    const left = await db.selectFrom('webhook_attempts').select(['status', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('status').orderBy('status').execute();
    expect(left.map((row) => [row.status, Number(row.count)])).toEqual([
      ['delivered', 10 * 1000],
      ['missed', 10 * 100],
    ]);
  });

  it('walks every endpoint, however many there are, a few hundred at a time, each batch starting where the last one stopped', async () => {
    const db = t.service.ctx.db;
    const eventId = await endpointsWithoutAttempts(1);
    // 1,200 more endpoints, copies of the first (ids that sort before and after the others).
    await sql`INSERT INTO webhook_endpoints (id, home_type, home_id, url, events, signing_key, status, created_at, updated_at)
      WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1200)
      SELECT CASE WHEN g.n % 2 = 0 THEN '0' ELSE 'z' END || '-copy-' || g.n, home_type, home_id, url, events, signing_key, status, created_at, updated_at
      FROM g CROSS JOIN (SELECT * FROM webhook_endpoints ORDER BY id LIMIT 1) first`.execute(db);
    const endpoints = new Set((await db.selectFrom('webhook_endpoints').select('id').execute()).map((row) => row.id));
    // Three old ones per endpoint: a look at a few hundred endpoints holds more than one batch.
    const now = t.clock.now();
    await addAttempts(eventId, 'delivered', 3, new Date(now.getTime() - 40 * DAY_MS), 'old');
    await addAttempts(eventId, 'delivered', 1, now, 'new');

    const deletes = await attemptDeletesSent(db, (pruning) => pruneOldDeliveries({ ...t.service.ctx, db: pruning }, RETENTION_MS, RETENTION_MS));
    const left = await db.selectFrom('webhook_attempts').select('id').execute();
    expect(endpoints.size).toBeGreaterThan(1200);
    expect(left).toHaveLength(endpoints.size);
    expect(left.filter((row) => !row.id.includes('-new-'))).toEqual([]);
    // Each statement names the first and the last endpoint it looks at. Had every batch started from its
    // look's first endpoint, there would be as many different first ones as looks.
    const bounds = deletes.map((query) => query.parameters.filter((value): value is string => typeof value === 'string' && endpoints.has(value)));
    expect(bounds.every((pair) => pair.length === 2)).toBe(true);
    const looks = new Set(bounds.map(([, to]) => to)).size;
    expect(looks).toBeGreaterThan(1);
    expect(new Set(bounds.map(([from]) => from)).size).toBeGreaterThan(looks);
  });
});

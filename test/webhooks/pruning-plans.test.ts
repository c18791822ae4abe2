// Pruning finds old attempts endpoint by endpoint through the Deliveries list's (endpoint_id, created_at,
// id) index (issue 46: an index of its own on created_at cost every outcome an entry, and only pruning read
// it). On either store a plan that scans the table instead would read every attempt there is each minute.
import { CompiledQuery, type Kysely, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { pruneOldDeliveries } from '../../src/webhooks/pruning.js';
import { soloTeam, useTestService } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';

const DAY_MS = 86_400_000;

/** Runs `work` with the database it is given, and answers the plan of the first DELETE it sent. */
async function planOfFirstDelete(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<void>): Promise<string> {
  const sent: RootOperationNode[] = [];
  const capture: KyselyPlugin = { transformQuery: ({ node }) => (sent.push(node), node), transformResult: async ({ result }) => result };
  await work(db.withPlugin(capture));
  const query = db.getExecutor().compileQuery(sent.find((node) => node.kind === 'DeleteQueryNode')!, { queryId: 'planned' });
  const explain = usingPostgres ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
  const plan = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]));
  return plan.rows.map((row) => row['QUERY PLAN'] ?? row.detail).join('\n');
}

describe('pruning old attempts', () => {
  const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

  it('reads each endpoint’s range of its (endpoint_id, created_at) index, never the whole table, and takes only sent attempts older than the retention', async () => {
    const db = t.service.ctx.db;
    const endpoints: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { team } = await soloTeam(t);
      endpoints.push((await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] })).id);
    }
    const { event_id } = await db.selectFrom('webhook_attempts').select('event_id').limit(1).executeTakeFirstOrThrow();
    await db.deleteFrom('webhook_attempts').execute();
    // Per endpoint 1,000 attempts 40 days old (nine in ten delivered, the rest missed) and 1,000 of today.
    const add = async (status: string, count: number, at: Date, tag: string) =>
      sql`INSERT INTO webhook_attempts (id, event_id, endpoint_id, attempt_number, auto_retry, status, due_at, created_at)
        WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${count})
        SELECT ep.id || '-' || ${tag} || '-' || g.n, ${event_id}, ep.id, 1, 0, ${status}, ${at.toISOString()}, ${at.toISOString()}
        FROM g CROSS JOIN (SELECT id FROM webhook_endpoints) ep ORDER BY g.n, ep.id`.execute(db);
    const now = t.clock.now();
    const old = new Date(now.getTime() - 40 * DAY_MS);
    await add('delivered', 900, old, 'old-sent');
    await add('missed', 100, old, 'old-missed');
    await add('delivered', 1000, now, 'new');
    await sql`ANALYZE webhook_attempts`.execute(db);

    const plan = await planOfFirstDelete(db, (pruning) => pruneOldDeliveries({ ...t.service.ctx, db: pruning }, 30 * DAY_MS, 30 * DAY_MS));
    expect(plan).toContain('webhook_attempts_endpoint');
    // (The DELETE around it finds the rows it is given by their seq as it likes: at 20,000 rows, a hash of them.)
    expect(plan).not.toMatch(usingPostgres ? /Seq Scan on webhook_attempts a\b/ : /^SCAN a\b/m);

    const left = await db.selectFrom('webhook_attempts').select(['status', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('status').orderBy('status').execute();
    expect(left.map((row) => [row.status, Number(row.count)])).toEqual([
      ['delivered', 10 * 1000],
      ['missed', 10 * 100],
    ]);
    expect(endpoints).toHaveLength(10);
  });

  it('walks every endpoint, however many there are, a look at a few hundred at a time', async () => {
    const db = t.service.ctx.db;
    // 1,200 more endpoints, copies of the first (ids that sort before and after the others).
    await sql`INSERT INTO webhook_endpoints (id, home_type, home_id, url, events, signing_key, status, created_at, updated_at)
      WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1200)
      SELECT CASE WHEN g.n % 2 = 0 THEN '0' ELSE 'z' END || '-copy-' || g.n, home_type, home_id, url, events, signing_key, status, created_at, updated_at
      FROM g CROSS JOIN (SELECT * FROM webhook_endpoints ORDER BY id LIMIT 1) first`.execute(db);
    const { event_id } = await db.selectFrom('webhook_attempts').select('event_id').limit(1).executeTakeFirstOrThrow();
    await db.deleteFrom('webhook_attempts').execute();
    const now = t.clock.now();
    for (const [tag, at] of [['old', new Date(now.getTime() - 40 * DAY_MS)], ['new', now]] as const) {
      await sql`INSERT INTO webhook_attempts (id, event_id, endpoint_id, attempt_number, auto_retry, status, due_at, created_at)
        SELECT ep.id || '-' || ${tag}, ${event_id}, ep.id, 1, 0, 'delivered', ${at.toISOString()}, ${at.toISOString()} FROM webhook_endpoints ep`.execute(db);
    }

    await pruneOldDeliveries(t.service.ctx, 30 * DAY_MS, 30 * DAY_MS);
    const left = await db.selectFrom('webhook_attempts').select('id').execute();
    const endpointCount = (await db.selectFrom('webhook_endpoints').select('id').execute()).length;
    expect(endpointCount).toBeGreaterThan(1200);
    expect(left).toHaveLength(endpointCount);
    expect(left.every((row) => row.id.endsWith('-new'))).toBe(true);
  });
});

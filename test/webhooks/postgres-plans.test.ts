// PostgreSQL's plans for the worker's hot statements, under statistics taken at the wrong moment (before a
// drain, while endpoints had few attempts): autovacuum analyzes when it gets round to it, so a bad day
// meets whatever it last saw. Each statement is written so that no such plan walks an endpoint's sent
// attempts (bench/CHANGES.md). Each block has a service and database of its own, so its statistics are its own.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { recordSent } from '../../src/domain/delivery-attempts.js';
import { claimBatches, nextAttempts } from '../../src/webhooks/attempt-claims.js';
import { planOf, statementsSent } from '../support/query-plans.js';
import { soloTeam, useTestService } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';

type TestService = ReturnType<typeof useTestService>;
/** A service of its own (its own database and statistics) for the describe block that calls this. */
const ownService = () => useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

/** Ten endpoints, each with its ping waiting. */
async function tenEndpoints(t: TestService) {
  const endpoints = [];
  for (let i = 0; i < 10; i++) {
    const { team } = await soloTeam(t);
    endpoints.push(await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] }));
  }
  return endpoints as { id: string }[];
}

/** Adds `count` attempts in `status` to each endpoint `which` picks, interleaved as a stream makes them. */
function attemptAdder(t: TestService) {
  const db = t.service.ctx.db;
  let added = 0;
  return async (count: number, status: string, which: RawBuilder<boolean>) => {
    const { event_id } = await db.selectFrom('webhook_attempts').select('event_id').limit(1).executeTakeFirstOrThrow();
    const at = t.clock.now().toISOString();
    await sql`INSERT INTO webhook_attempts (id, event_id, endpoint_id, attempt_number, auto_retry, status, due_at, created_at)
      SELECT md5(g || ep.id || ${++added}), ${event_id}, ep.id, 1, 0, ${status}, ${at}, ${at}
      FROM generate_series(1, ${count}) g CROSS JOIN (SELECT id FROM webhook_endpoints WHERE ${which}) ep
      ORDER BY g, ep.id`.execute(db);
  };
}

/** Runs `work` with the database it is given, and answers the plan of the first statement it sent. */
async function planOfFirst(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<void>): Promise<string> {
  return planOf(db, (await statementsSent(db, work))[0]!);
}

describe.runIf(usingPostgres)('PostgreSQL: reading a queue’s front', () => {
  const t = ownService();
  it('reads the endpoint’s waiting index, even with statistics taken before most attempts were delivered', async () => {
    const endpoints = await tenEndpoints(t);
    const db = t.service.ctx.db;
    const add = attemptAdder(t);
    // 3,000 waiting attempts per endpoint; statistics then; then a drain delivers the oldest nine in ten.
    await add(3000, 'scheduled', sql<boolean>`id IN (${sql.join(endpoints.map((e) => e.id))})`);
    await sql`ANALYZE webhook_attempts`.execute(db);
    await sql`UPDATE webhook_attempts SET status = 'delivered' WHERE seq IN (SELECT seq FROM webhook_attempts ORDER BY seq LIMIT 27000)`.execute(db);

    const claim = { endpointId: endpoints[0]!.id, token: 'read-only', failures: 0, proven: true };
    const plan = await planOfFirst(db, async (reading) => {
      const next = await nextAttempts({ ...t.service.ctx, db: reading }, [{ claim, afterSeq: 0, count: 100 }]);
      expect(next.get(endpoints[0]!.id)!.attempts).toHaveLength(100);
    });
    expect(plan).toContain('webhook_attempts_waiting');
    // The primary key only finds the front's rows by their seq, never walks in order testing each.
    expect(plan).not.toMatch(/webhook_attempts_pkey on webhook_attempts\b[^\n]*\n\s*Index Cond: \(seq > /);
  });
});

describe.runIf(usingPostgres)('PostgreSQL: recording outcomes', () => {
  const t = ownService();
  it('finds each sent attempt by its seq, even with statistics taken while every endpoint had a few attempts', async () => {
    const endpoints = await tenEndpoints(t);
    const db = t.service.ctx.db;
    const held = sql<boolean>`id IN (${sql.join(endpoints.map((e) => e.id))})`;
    // A bad day's failing lane: 2,000 more endpoints, each queue held by a claim of its own.
    await sql`INSERT INTO webhook_endpoints SELECT (jsonb_populate_record(e, jsonb_build_object('id', 'other-' || g))).*
      FROM webhook_endpoints e, generate_series(1, 2000) g WHERE e.id = ${endpoints[0]!.id}`.execute(db);
    await sql`INSERT INTO webhook_queues (endpoint_id, ready_at, claim_token, claimed_until)
      SELECT id, '2999-01-01', md5(id), '2999-01-01' FROM webhook_endpoints WHERE id LIKE 'other-%'`.execute(db);
    // Statistics while every endpoint had four attempts; then the ten deliver 3,000 each and have 20 more due.
    const add = attemptAdder(t);
    await add(3, 'scheduled', sql<boolean>`id LIKE 'other-%'`);
    await add(3, 'scheduled', held);
    await sql`ANALYZE webhook_attempts`.execute(db);
    await sql`ANALYZE webhook_queues`.execute(db);
    await add(3000, 'delivered', held);
    await add(21, 'scheduled', held);

    const lane = { endpoints: 100, perEndpoint: 25 };
    const batches = await claimBatches(t.service.ctx, { healthy: lane, failing: lane, leaseMs: 60_000 });
    expect(batches).toHaveLength(10);
    const at = t.clock.now();
    const records = batches.flatMap((batch) =>
      batch.attempts.map((attempt) => ({ seq: attempt.seq, token: batch.claim.token, delivered: true, sentAt: at, durationMs: 1, requestHeaders: '{}', responseStatus: 204, responseBody: '', error: null, nextAttemptAt: null })),
    );
    expect(records).toHaveLength(250);
    const plan = await planOfFirst(db, async (writing) => {
      expect((await recordSent(writing, 'postgres', records)).size).toBe(250);
    });
    // Not by the queues' claim token, then every attempt of each endpoint (1.5 s for 250 outcomes in the bench).
    expect(plan).not.toContain('webhook_attempts_endpoint');
    expect(plan).toMatch(/webhook_attempts_pkey on webhook_attempts\b[^\n]*\n\s*Index Cond: \(seq = /);
  });
});

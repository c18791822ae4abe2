// A write locks the delivery queues of the endpoints its event goes to, so that their attempts are
// numbered in commit order (src/domain/delivery-queues.ts), and every other write for those endpoints
// waits for the lock. It is held for the write's last statement only: the attempts reach PostgreSQL
// together with the COMMIT, in one message (src/db/commit-with.ts), so that no lock waits for the
// writing process to get round to sending the COMMIT, nor, for a keyed write, for its kept answer. A
// worker's group of outcomes locks the queues it records and lets go of, and its last statement (the
// release, which also tells the workers when a queue it lets go has work ready) goes with its COMMIT too.
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OUTBOX_CHANNEL } from '../../src/domain/context.js';
import { claimBatches } from '../../src/webhooks/attempt-claims.js';
import { OutcomeRecorder } from '../../src/webhooks/outcome-recorder.js';
import { rawAdmin } from '../http/admin/helpers.js';
import { organizationWithTeams, useTestService } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';

// ROLE=api: no worker sends while the test reads what was sent.
const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

/** Every message the service's connections send, by connection, while `work` runs. */
let sent: { connection: number; text: string }[] = [];
beforeEach(() => {
  sent = [];
  const query = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client & { processID: number }, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    sent.push({ connection: this.processID, text: typeof first === 'string' ? first : first.text });
    return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
});
afterEach(() => vi.restoreAllMocks());

/** The messages of the transaction that wrote the attempts, from its BEGIN to the message that wrote them. */
function attemptsTransaction(): string[] {
  const at = sent.findIndex((message) => /INSERT INTO webhook_attempts/.test(message.text));
  expect(at).toBeGreaterThan(-1);
  const connection = sent[at]!.connection;
  const mine = sent.slice(0, at + 1).filter((message) => message.connection === connection).map((message) => message.text);
  return mine.slice(mine.lastIndexOf('begin'));
}

describe.runIf(usingPostgres)('the queues a write locks (PostgreSQL)', () => {
  async function teamWithEndpoints() {
    const team = (await organizationWithTeams(t, 'growth', 1)).teams[0];
    for (const n of [1, 2]) {
      await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `http://127.0.0.1:9/locks-${n}`, events: ['guide.created'] });
    }
    return team.id;
  }

  it('are held for its last statement only: the attempts and the COMMIT are one message, and nothing follows', async () => {
    const team = await teamWithEndpoints();
    sent = [];
    const answer = await rawAdmin(t, 'POST', '/guides', JSON.stringify({ team_id: team, title: 'Locked briefly' }), { 'content-type': 'application/json' });
    expect(answer.statusCode).toBe(201);
    const transaction = attemptsTransaction();
    expect(transaction.at(-1)).toMatch(/INSERT INTO webhook_attempts[\s\S]*;\ncommit$/);
    expect(transaction.some((text) => /insert into "guides"/.test(text))).toBe(true);
    // Kysely's own COMMIT, answered by the pool without sending it.
    const connection = sent.find((message) => /INSERT INTO webhook_attempts/.test(message.text))!.connection;
    expect(sent.filter((message) => message.connection === connection && message.text === 'commit')).toEqual([]);
  });

  it('of a keyed write, after its kept answer: nothing else is written while they are held', async () => {
    const team = await teamWithEndpoints();
    sent = [];
    const answer = await rawAdmin(t, 'POST', '/guides', JSON.stringify({ team_id: team, title: 'Keyed, locked briefly' }), {
      'content-type': 'application/json',
      'idempotency-key': `locks-${Date.now()}`,
    });
    expect(answer.statusCode).toBe(201);
    const transaction = attemptsTransaction();
    expect(transaction.at(-1)).toMatch(/INSERT INTO webhook_attempts[\s\S]*;\ncommit$/);
    const kept = transaction.findIndex((text) => /insert into "idempotency_keys"/.test(text));
    expect(kept).toBeGreaterThan(-1);
    expect(kept).toBe(transaction.length - 2);
    // And the attempts are there, one to each endpoint, as a replay of the key finds the guide.
    const attempts = await t.service.ctx.db.selectFrom('webhook_attempts').innerJoin('events', 'events.id', 'webhook_attempts.event_id').select('webhook_attempts.endpoint_id').where('events.payload', 'like', `%${answer.json().data.id}%`).execute();
    expect(attempts).toHaveLength(2);
  });
});

describe.runIf(usingPostgres)("the queues a worker's group of outcomes locks (PostgreSQL)", () => {
  it('are let go with the COMMIT: the release, which tells the workers that its queue has work ready, is the last statement, in the same message', async () => {
    const team = (await organizationWithTeams(t, 'growth', 1)).teams[0];
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/group', events: ['guide.created'] });
    await t.admin('POST', '/guides', { team_id: team.id, title: 'Waits behind the ping' });
    await t.service.ctx.db.updateTable('webhook_queues').set({ proven: 1 }).where('endpoint_id', '=', endpoint.id).execute();
    t.clock.advance(60_000);
    // One attempt a batch, so that the queue still has work when its batch lets it go.
    const batch = (await claimBatches(t.service.ctx, { healthy: { endpoints: 10, perEndpoint: 1 }, leaseMs: 1000 })).find((each) => each.claim.endpointId === endpoint.id)!;
    const recorder = new OutcomeRecorder(t.service.ctx, { retryDelaysMs: [1000], pauseAfterMs: 86_400_000 }, { urgentEveryMs: 0, deliveredEveryMs: 0 });
    const listener = await listening(OUTBOX_CHANNEL);
    try {
      sent = [];
      const delivered = { delivered: true, status: 200, body: '', error: null, durationMs: 5 };
      const recorded = recorder.record(batch.attempts[0]!, { at: t.clock.now(), headers: '{}', outcome: delivered, failuresBefore: 0, proving: false, token: batch.claim.token });
      const released = await recorder.release(batch.claim);
      await recorded;
      expect(released).toEqual({ readyAt: expect.any(Date) });

      const at = sent.findIndex((message) => /UPDATE webhook_queues SET claim_token = NULL/.test(message.text));
      expect(at).toBeGreaterThan(-1);
      const mine = sent.filter((message) => message.connection === sent[at]!.connection).map((message) => message.text);
      const group = mine.slice(mine.lastIndexOf('begin'));
      expect(group.at(-1)).toMatch(/UPDATE webhook_queues SET claim_token = NULL[\s\S]*pg_notify\('guide_service_outbox', ''\)[\s\S]*;\ncommit$/);
      expect(group.some((text) => /UPDATE webhook_attempts/.test(text))).toBe(true);
      // Kysely's own COMMIT is answered by the pool without sending it; the queue is let go for good, and
      // every process's workers hear that it is ready.
      expect(mine.filter((text) => text === 'commit')).toEqual([]);
      const queue = await t.service.ctx.db.selectFrom('webhook_queues').select('claim_token').where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
      expect(queue.claim_token).toBeNull();
      await listener.heard();
    } finally {
      await listener.end();
    }
  });
});

/** A connection of its own to the service's database, listening on `channel`. */
async function listening(channel: string) {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.service.ctx.db);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${rows[0]!.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const notice = new Promise<void>((resolve) => client.once('notification', () => resolve()));
  await client.query(`LISTEN ${channel}`);
  return { heard: () => notice, end: () => client.end() };
}

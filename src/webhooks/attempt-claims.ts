// Claiming due attempts. Each endpoint's attempts form a queue in event order. A claim takes, for up to N
// endpoints that have nothing in flight (those whose queue heads are oldest first), each one's first due
// attempts (a batch), marks them `sending` under a fresh claim token and gives them a lease.
// The worker sends a batch one attempt after another, so first attempts to an endpoint leave in event
// order, and renews the lease of the whole batch before an attempt it might not cover. An attempt whose
// worker died comes back once its lease has run out; every later write by the old claim names its token
// and so changes nothing. The claim is one statement that re-checks each row's state as it updates it, so
// two claims never take the same attempt; on PostgreSQL it first locks the endpoints it picked with FOR
// UPDATE SKIP LOCKED, so concurrent workers pass each other by and never claim one endpoint twice.
import { sql } from 'kysely';
import type { WebhookAttemptsTable } from '../db/schema.js';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import { newId } from '../domain/ids.js';

export type ClaimedAttempt = Omit<WebhookAttemptsTable, 'seq' | 'claim_token'> & { seq: number; claim_token: string };

export interface ClaimLimits {
  /** Endpoints taken at most. */
  endpoints: number;
  /** Attempts taken per endpoint. */
  perEndpoint: number;
  leaseMs: number;
}

interface QueueHead {
  endpointId: string;
  /** The first claimable attempt of the endpoint's queue. */
  seq: number;
}

const inFlight = (nowText: string) =>
  sql<boolean>`EXISTS (SELECT 1 FROM webhook_attempts f
    WHERE f.endpoint_id = e.id AND f.status = 'sending' AND f.claimed_until >= ${nowText})`;

/**
 * The endpoints with something to claim and nothing in flight, oldest work first. One look per endpoint,
 * each an index seek, so a long queue behind an endpoint costs nothing here.
 */
async function queueHeads(ctx: DomainContext, nowText: string, limit: number): Promise<QueueHead[]> {
  const rows = await ctx.db
    .selectFrom('webhook_endpoints as e')
    .select([
      'e.id',
      sql<number | null>`(SELECT s.seq FROM webhook_attempts s
        WHERE s.endpoint_id = e.id AND s.status = 'scheduled' AND s.due_at <= ${nowText} ORDER BY s.seq LIMIT 1)`.as('due_head'),
      sql<number | null>`(SELECT l.seq FROM webhook_attempts l
        WHERE l.endpoint_id = e.id AND l.status = 'sending' AND l.claimed_until < ${nowText} ORDER BY l.seq LIMIT 1)`.as('lapsed_head'),
    ])
    .where(sql<boolean>`NOT ${inFlight(nowText)}`)
    .execute();
  const heads: QueueHead[] = [];
  for (const row of rows) {
    const seqs = [row.due_head, row.lapsed_head].filter((seq): seq is number => seq !== null);
    if (seqs.length > 0) heads.push({ endpointId: row.id, seq: Math.min(...seqs) });
  }
  return heads.sort((a, b) => a.seq - b.seq).slice(0, limit);
}

/** The first `count` claimable attempts of one endpoint's queue, in event order. */
function queueFront(endpointId: string, nowText: string, count: number) {
  return sql`SELECT seq FROM (
      SELECT * FROM (SELECT seq FROM webhook_attempts
        WHERE endpoint_id = ${endpointId} AND status = 'scheduled' AND due_at <= ${nowText} ORDER BY seq LIMIT ${count}) due
      UNION ALL
      SELECT * FROM (SELECT seq FROM webhook_attempts
        WHERE endpoint_id = ${endpointId} AND status = 'sending' AND claimed_until < ${nowText} ORDER BY seq LIMIT ${count}) lapsed
    ) front ORDER BY seq LIMIT ${count}`;
}

/** The claimed attempts grouped by endpoint, each group in event order and under one claim token. */
export async function claimDueAttempts(ctx: DomainContext, limits: ClaimLimits): Promise<ClaimedAttempt[][]> {
  const now = ctx.clock.now();
  const nowText = timestamp(now);
  const heads = await queueHeads(ctx, nowText, limits.endpoints);
  if (heads.length === 0) return [];
  const token = newId();
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    let endpointIds = heads.map((head) => head.endpointId);
    if (ctx.dialect === 'postgres') {
      // Workers that picked the same endpoints pass each other by; the winner's claim is then visible to
      // the in-flight check below, which runs as a new statement.
      const locked = await trx.selectFrom('webhook_endpoints').select('id').where('id', 'in', endpointIds).forUpdate().skipLocked().execute();
      endpointIds = locked.map((row) => row.id);
      if (endpointIds.length === 0) return [];
    }
    const fronts = sql.join(
      endpointIds.map((id) => sql`SELECT seq FROM (${queueFront(id, nowText, limits.perEndpoint)}) q`),
      sql` UNION ALL `,
    );
    return trx
      .updateTable('webhook_attempts')
      .set({ status: 'sending', claimed_until: timestamp(new Date(now.getTime() + limits.leaseMs)), claim_token: token })
      .where(sql<boolean>`seq IN (${fronts})`)
      .where(sql<boolean>`((status = 'scheduled' AND due_at <= ${nowText}) OR (status = 'sending' AND claimed_until < ${nowText}))`)
      .where(
        sql<boolean>`NOT EXISTS (SELECT 1 FROM webhook_attempts f
          WHERE f.endpoint_id = webhook_attempts.endpoint_id AND f.status = 'sending' AND f.claimed_until >= ${nowText})`,
      )
      .returningAll()
      .execute();
  });
  const byEndpoint = new Map<string, ClaimedAttempt[]>();
  for (const attempt of claimed.sort((a, b) => a.seq - b.seq)) {
    const batch = byEndpoint.get(attempt.endpoint_id) ?? [];
    batch.push(attempt as ClaimedAttempt);
    byEndpoint.set(attempt.endpoint_id, batch);
  }
  return [...byEndpoint.values()];
}

/** A claim: its token, and the endpoint whose queue it holds (which finds its attempts by index). */
export interface Claim {
  endpointId: string;
  token: string;
}

/** Extends the lease of a claim's attempts that are still being sent or waiting. */
export async function renewLease(ctx: DomainContext, claim: Claim, leaseMs: number): Promise<void> {
  await ctx.db
    .updateTable('webhook_attempts')
    .set({ claimed_until: timestamp(new Date(ctx.clock.now().getTime() + leaseMs)) })
    .where('endpoint_id', '=', claim.endpointId)
    .where('status', '=', 'sending')
    .where('claim_token', '=', claim.token)
    .execute();
}

/** Gives a claim's unsent attempts back, due at once, for another worker or the next start. */
export async function releaseClaim(ctx: DomainContext, claim: Claim): Promise<void> {
  await ctx.db
    .updateTable('webhook_attempts')
    .set({ status: 'scheduled', claimed_until: null, claim_token: null })
    .where('endpoint_id', '=', claim.endpointId)
    .where('status', '=', 'sending')
    .where('claim_token', '=', claim.token)
    .execute();
}

/**
 * When the next claim could take something: the earliest scheduled attempt of an endpoint with nothing in
 * flight, or the next lease to run out. Attempts queued behind one in flight are left out: the end of
 * that batch wakes the worker.
 */
export async function nextAttemptDue(ctx: DomainContext): Promise<Date | null> {
  const nowText = timestamp(ctx.clock.now());
  const rows = await ctx.db
    .selectFrom('webhook_endpoints as e')
    .select([
      sql<string | null>`CASE WHEN ${inFlight(nowText)} THEN NULL ELSE (SELECT min(s.due_at) FROM webhook_attempts s
        WHERE s.endpoint_id = e.id AND s.status = 'scheduled') END`.as('due'),
      sql<string | null>`(SELECT min(l.claimed_until) FROM webhook_attempts l WHERE l.endpoint_id = e.id AND l.status = 'sending')`.as('lease_ends'),
    ])
    .execute();
  let next: string | null = null;
  for (const row of rows) {
    for (const at of [row.due, row.lease_ends]) if (at !== null && (next === null || at < next)) next = at;
  }
  return next === null ? null : new Date(next);
}

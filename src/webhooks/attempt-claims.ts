// Claiming work for the worker. A claim takes, for one lane, up to N endpoint queues that are ready
// (src/domain/delivery-queues.ts) under one fresh token and a lease, and reads for each the first due
// attempts of its queue in event order (a batch), with what sending them needs: each attempt's event, and
// the endpoint's address, signing key and state as they are now. Only the holder of a queue sends its
// attempts, one after another, so first attempts to an endpoint leave in event order. A holder that
// empties a full batch, or lingers for a busy endpoint, reads the next attempts after the last one it
// sent, without letting go (several holders in one statement); when it is done, its outcomes and the
// release of the queue are written together (outcome-recorder.ts). A holder that died is taken over once
// its lease runs out, and nothing it writes after that is recorded.
import { sql } from 'kysely';
import type { EndpointStatus } from '../db/schema.js';
import { isPostgres } from '../db/sql-functions.js';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import { WAITING } from '../domain/delivery-attempts.js';
import { claimReadyQueues, type Lane, type QueueClaim } from '../domain/delivery-queues.js';
import { testEventFlag } from '../domain/events.js';
import { newId } from '../domain/ids.js';
import type { StoredSigningKeys } from './signing.js';

export interface ClaimedAttempt {
  seq: number;
  id: string;
  event_id: string;
  endpoint_id: string;
  attempt_number: number;
  auto_retry: 0 | 1;
  /** The event's type and its body, the same bytes for every attempt. */
  type: string;
  payload: string;
  /** A test event (a ping, or a test of another type): its deliveries say so (X-Service-Test). */
  test: boolean;
}

export interface ClaimedEndpoint extends StoredSigningKeys {
  url: string;
  status: EndpointStatus;
}

export interface ClaimedBatch extends NextAttempts {
  claim: QueueClaim;
  lane: Lane;
  /** When the claim was made; its lease runs `leaseMs` from here. */
  claimedAt: Date;
}

/** What a claim takes from one lane. */
export interface LaneTake {
  /** Endpoints taken at most. */
  endpoints: number;
  /** Attempts read per endpoint. */
  perEndpoint: number;
}

/** What a claim takes from each lane (a lane left out is not read), in all at most, and for how long. */
export interface ClaimLimits extends Partial<Record<Lane, LaneTake>> {
  /** Endpoints taken from all lanes together at most, the healthy lane's first (no bound when left out). */
  endpoints?: number;
  leaseMs: number;
}

/**
 * An endpoint's first `count` due attempts after `afterSeq`, in event order, from its waiting index. On
 * PostgreSQL the endpoint is an array's member, and the order names it: with an equality the planner
 * orders by `seq` alone, which the primary key gives too, and with statistics taken before a drain (every
 * attempt still waiting) it walks the primary key from `afterSeq` past every attempt delivered since, of
 * every endpoint: 13–145 ms a read at 30,000–100,000 attempts, against under 0.1 ms from the waiting
 * index (bench/CHANGES.md; pinned in test/webhooks/postgres-plans.test.ts).
 */
function queueFront(postgres: boolean, endpointId: string, nowText: string, count: number, afterSeq: number) {
  const endpoint = postgres ? sql`endpoint_id = ANY(ARRAY[CAST(${endpointId} AS TEXT)])` : sql`endpoint_id = ${endpointId}`;
  return sql`SELECT seq FROM (SELECT seq FROM webhook_attempts
    WHERE ${endpoint} AND ${WAITING} AND due_at <= ${nowText} AND seq > ${afterSeq}
    ORDER BY endpoint_id, seq LIMIT ${count}) front`;
}

interface BatchRow extends Omit<ClaimedAttempt, 'test'>, ClaimedEndpoint {
  test: number;
}

/** The attempts of the given queue fronts, with their events and endpoints, in event order. */
async function readFronts(ctx: DomainContext, fronts: { endpointId: string; afterSeq: number; count: number }[], now: Date): Promise<BatchRow[]> {
  const nowText = timestamp(now);
  const postgres = isPostgres(ctx.db);
  return ctx.db
    .selectFrom('webhook_attempts as a')
    .innerJoin('events as ev', 'ev.id', 'a.event_id')
    .innerJoin('webhook_endpoints as ep', 'ep.id', 'a.endpoint_id')
    .select(['a.seq', 'a.id', 'a.event_id', 'a.endpoint_id', 'a.attempt_number', 'a.auto_retry', 'ev.type', 'ev.payload', 'ep.url', 'ep.signing_key', 'ep.old_signing_key', 'ep.old_signing_key_ends_at', 'ep.status'])
    .select(testEventFlag('ev').as('test'))
    .where(sql<boolean>`a.seq IN (${sql.join(
      fronts.map((front) => queueFront(postgres, front.endpointId, nowText, front.count, front.afterSeq)),
      sql` UNION ALL `,
    )})`)
    .orderBy('a.seq')
    .execute();
}

function endpointOf(row: BatchRow): ClaimedEndpoint {
  return { url: row.url, signing_key: row.signing_key, old_signing_key: row.old_signing_key, old_signing_key_ends_at: row.old_signing_key_ends_at, status: row.status };
}

function attemptOf(row: BatchRow): ClaimedAttempt {
  const { seq, id, event_id, endpoint_id, attempt_number, auto_retry, type, payload } = row;
  return { seq, id, event_id, endpoint_id, attempt_number, auto_retry, type, payload, test: Number(row.test) === 1 };
}

/** The rows read for these endpoints, as each endpoint's next attempts (none for an endpoint with no row). */
function byEndpoint(endpointIds: readonly string[], rows: readonly BatchRow[]): Map<string, NextAttempts> {
  const next = new Map<string, NextAttempts>(endpointIds.map((endpointId) => [endpointId, { endpoint: null, attempts: [] }]));
  for (const row of rows) {
    const held = next.get(row.endpoint_id)!;
    held.endpoint ??= endpointOf(row);
    held.attempts.push(attemptOf(row));
  }
  return next;
}

/** Claims, in one statement, up to `limits[lane].endpoints` ready queues of each lane, each with its first due attempts. */
export async function claimBatches(ctx: DomainContext, limits: ClaimLimits): Promise<ClaimedBatch[]> {
  const now = ctx.clock.now();
  const counts = { healthy: limits.healthy?.endpoints ?? 0, failing: limits.failing?.endpoints ?? 0, total: limits.endpoints };
  const claims = await claimReadyQueues(ctx.db, counts, now, new Date(now.getTime() + limits.leaseMs), newId());
  if (claims.length === 0) return [];
  const rows = await readFronts(
    ctx,
    claims.map((claim) => ({ endpointId: claim.endpointId, afterSeq: 0, count: limits[claim.lane]?.perEndpoint ?? 1 })),
    now,
  );
  const fronts = byEndpoint(
    claims.map((claim) => claim.endpointId),
    rows,
  );
  return claims.map(({ lane, ...claim }) => ({ claim, lane, claimedAt: now, ...fronts.get(claim.endpointId)! }));
}

/** What a holder reads on with: its queue's claim and the last attempt it sent. */
export interface ReadOn {
  claim: QueueClaim;
  afterSeq: number;
  count: number;
}

/** A holder's next attempts, with the endpoint as it is now (a rotated key or a pause takes effect from here). */
export interface NextAttempts {
  /** Null when nothing is due (or the endpoint is gone). */
  endpoint: ClaimedEndpoint | null;
  attempts: ClaimedAttempt[];
}

/** The next attempts of several held queues, each after its own last, in one statement; by endpoint id. */
export async function nextAttempts(ctx: DomainContext, holders: readonly ReadOn[]): Promise<Map<string, NextAttempts>> {
  const rows = await readFronts(
    ctx,
    holders.map((holder) => ({ endpointId: holder.claim.endpointId, afterSeq: holder.afterSeq, count: holder.count })),
    ctx.clock.now(),
  );
  return byEndpoint(
    holders.map((holder) => holder.claim.endpointId),
    rows,
  );
}

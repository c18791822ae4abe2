// Every endpoint's delivery queue row (webhook_queues), and the only code that writes it. `ready_at` is
// when a worker may next take the endpoint: never later than its earliest attempt still to be sent, never
// before its circuit breaker's next probe (`probe_at`), and while a worker holds it, the end of that
// worker's lease. A claim reads the ready queues from an index, oldest first, and takes them by writing
// its token and lease; the holder alone sends the endpoint's attempts, so first attempts leave in event
// order. Writes that add waiting attempts (an event, a resend, a redelivery) lower `ready_at`, or leave a
// held queue's lease as it is; when its batch ends the holder works `ready_at` out again from the
// attempts, holding the queue's lock (lockQueues; on SQLite the one writer's turn), so that it sees every
// attempt added before and none is added until it has committed. (The `revision` column counted those
// writes when the holder did not hold the lock; nothing reads it now.)
import { type RawBuilder, sql } from 'kysely';
import { commitWith } from '../db/commit-with.js';
import { greatest, isPostgres, valuesTable } from '../db/sql-functions.js';
import { timestamp } from './clock.js';
import { type Executor, executeLast, markOutboxChanged, notifyWorkersWith } from './context.js';

/**
 * Healthy endpoints are sent to in batches; failing ones one probe at a time, in a lane of their own, and
 * so are endpoints that have never answered 2xx (new ones), until they do: a wave of new endpoints that
 * do not answer then costs the healthy lane nothing.
 */
export const LANES = ['healthy', 'failing'] as const;
export type Lane = (typeof LANES)[number];

// Literal, not bound: each lane has a partial index, which a query uses only when it states the
// index's own condition (src/db/migrations/0013_proven_queues.ts).
const IN_LANE: Record<Lane, RawBuilder<boolean>> = { healthy: sql<boolean>`failures = 0 AND proven = 1`, failing: sql<boolean>`(failures > 0 OR proven = 0)` };

/** The lane of a queue row, as an SQL expression ('healthy' or 'failing'), for a query whose only table with these columns is webhook_queues. */
export const QUEUE_LANE = sql<Lane>`CASE WHEN ${IN_LANE.healthy} THEN 'healthy' ELSE 'failing' END`;

export interface QueueClaim {
  endpointId: string;
  token: string;
  /** Failed attempts in a row when it was claimed. */
  failures: number;
  /** Whether the endpoint had answered 2xx before (a new one has not). */
  proven: boolean;
}

/** An endpoint's queue, made with the endpoint: nothing waits yet, and it has not answered yet. */
export async function openQueue(trx: Executor, endpointId: string): Promise<void> {
  await trx
    .insertInto('webhook_queues')
    .values({ endpoint_id: endpointId, ready_at: null, revision: 0, claim_token: null, claimed_until: null, failures: 0, probe_at: null, proven: 0 })
    .execute();
}

/** When the work added to a queue is due: the earliest of its new waiting attempts. */
export type Dues = ReadonlyMap<string, Date>;

/**
 * Attempts were added to these endpoints' queues (locked by the caller, see lockQueues), each due at its
 * time: each queue becomes ready by then, unless its breaker holds probes back or a worker holds it (its
 * holder looks again when its batch ends).
 */
export async function announceWork(trx: Executor, dues: Dues): Promise<void> {
  if (dues.size === 0) return;
  await sql`WITH ${dueTable(trx, dues)} ${announcing(trx)}`.execute(trx);
}

function dueTable(db: Executor, dues: Dues): RawBuilder<unknown> {
  return valuesTable(db, { v_endpoint: 'TEXT', v_due: 'TEXT' }, [...dues].map(([endpointId, dueAt]) => ({ v_endpoint: endpointId, v_due: timestamp(dueAt) })));
}

/** The UPDATE that announces the work of `v` (dueTable) to its queues; `also` must hold as well. */
function announcing(trx: Executor, also: RawBuilder<boolean> = sql<boolean>`1 = 1`): RawBuilder<unknown> {
  const earliest = greatest(trx, sql<string>`v_due`, sql<string>`coalesce(probe_at, v_due)`, sql<string>`coalesce(claimed_until, v_due)`);
  return sql`UPDATE webhook_queues SET
      ready_at = CASE WHEN ready_at IS NOT NULL AND ready_at <= ${earliest} THEN ready_at ELSE ${earliest} END
    FROM v WHERE endpoint_id = v_endpoint AND ${also}`;
}

/**
 * Adds attempts to endpoints' queues: `insert` writes them, numbering them as it inserts them, and the
 * work is announced (announceWork). Sequence numbers are handed out as rows are inserted, not as their
 * transactions commit, so on PostgreSQL two transactions could commit an endpoint's attempts out of
 * order and a claim take the later one first; `insert` therefore writes no row before `lockedFirst` has
 * locked the queues of `endpointIds` in id order (lockQueues), and those stay held until the commit.
 * On PostgreSQL all of it is one statement, and callers make it their transaction's last (writeLast),
 * which commits with it (executeLast), so that writes for the same endpoints wait for that statement and
 * a commit, not for a whole transaction nor for this process to send the COMMIT.
 */
export async function addToQueues(trx: Executor, endpointIds: readonly string[], dues: Dues, insert: (lockedFirst: RawBuilder<boolean>) => RawBuilder<unknown>): Promise<void> {
  if (!isPostgres(trx)) {
    // One writer at a time: nothing to lock.
    await insert(sql<boolean>`1 = 1`).execute(trx);
    await announceWork(trx, dues);
    return;
  }
  const lockedFirst = queuesLockedFirst(endpointIds);
  if (dues.size === 0) {
    await executeLast(trx, insert(lockedFirst));
    return;
  }
  // The announcement locks no queue before the insert has locked them all, in order.
  await executeLast(
    trx,
    sql`WITH inserted AS (${insert(lockedFirst)} RETURNING seq), ${dueTable(trx, dues)}
    ${announcing(trx, sql<boolean>`(SELECT count(*) FROM inserted) >= 0`)}`,
  );
}

/**
 * Queues to take from each lane (a lane left out, or 0, is not read), and from all lanes together at most
 * `total` (no bound when left out), the lanes in LANES' order first.
 */
export type LaneCounts = Partial<Record<Lane, number>> & { total?: number };

/**
 * Takes, in one statement, up to `counts[lane]` queues of each lane that are ready at `now`, those ready
 * longest first, and up to `counts.total` in all, the healthy lane's first; for `token` until
 * `leaseUntil`. A queue whose holder's lease ran out is ready again and is taken over. On PostgreSQL
 * workers that pick the same queues pass each other by.
 */
export async function claimReadyQueues(trx: Executor, counts: LaneCounts, now: Date, leaseUntil: Date, token: string): Promise<(QueueClaim & { lane: Lane })[]> {
  const nowText = timestamp(now);
  const lease = timestamp(leaseUntil);
  const skipLocked = isPostgres(trx) ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const lanes = LANES.filter((lane) => (counts[lane] ?? 0) > 0);
  const asked = lanes.reduce((sum, lane) => sum + counts[lane]!, 0);
  const total = Math.min(asked, counts.total ?? asked);
  if (total <= 0) return [];
  // Each lane from its own index, in a subquery of its own so that each keeps its order and limit.
  const readiest = lanes.map(
    (lane) => sql`SELECT endpoint_id, ${sql.raw(String(LANES.indexOf(lane)))} AS lane_rank FROM (SELECT endpoint_id FROM webhook_queues
      WHERE ${IN_LANE[lane]} AND ready_at <= ${nowText} ORDER BY ready_at LIMIT ${counts[lane]} ${skipLocked}) ${sql.raw(lane)}`,
  );
  // Fewer places in all than the lanes ask for: the first lanes' queues take them.
  const firstLanesFirst = total < asked ? sql`ORDER BY lane_rank LIMIT ${total}` : sql``;
  const taken = sql`SELECT endpoint_id FROM (${sql.join(readiest, sql` UNION ALL `)}) lanes ${firstLanesFirst}`;
  const rows = await trx
    .updateTable('webhook_queues')
    .set({ claim_token: token, claimed_until: lease, ready_at: lease })
    .where(sql<boolean>`endpoint_id IN (${taken})`)
    .where('ready_at', '<=', nowText)
    .returning(['endpoint_id', 'failures', 'proven'])
    .execute();
  return rows.map((row) => ({ endpointId: row.endpoint_id, token, failures: row.failures, proven: row.proven === 1, lane: laneOf(row) }));
}

/** The lane of a queue (IN_LANE in JavaScript). */
const laneOf = (queue: { failures: number; proven: number }): Lane => (queue.failures === 0 && queue.proven === 1 ? 'healthy' : 'failing');

/** Extends a held queue's lease; false when the claim was lost. */
export async function extendLease(db: Executor, claim: QueueClaim, until: Date): Promise<boolean> {
  const lease = timestamp(until);
  const result = await db
    .updateTable('webhook_queues')
    .set({ claimed_until: lease, ready_at: lease })
    .where('endpoint_id', '=', claim.endpointId)
    .where('claim_token', '=', claim.token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The earliest attempt still to be sent of the queue's endpoint (`endpointId`: a column or a value). */
function earliestWaiting(endpointId: RawBuilder<string> | string): RawBuilder<string | null> {
  return sql<string | null>`(SELECT min(w.due_at) FROM webhook_attempts w WHERE w.endpoint_id = ${endpointId} AND w.status = 'scheduled')`;
}

/**
 * On PostgreSQL, locks the queues of these endpoints in one order (their ids), so that transactions
 * that touch several queues (an event for many endpoints, a group of outcomes) wait for each other
 * instead of deadlocking. Every transaction that writes an endpoint or its attempts as well takes its
 * queue first. SQLite runs one writer at a time.
 */
export async function lockQueues(trx: Executor, endpointIds: readonly string[]): Promise<void> {
  if (!isPostgres(trx) || endpointIds.length === 0) return;
  await queueLocks(endpointIds).execute(trx);
}

/** The statement lockQueues runs: the queues' rows, locked in the order of their ids. */
function queueLocks(endpointIds: readonly string[]): RawBuilder<unknown> {
  return sql`SELECT endpoint_id FROM webhook_queues WHERE endpoint_id IN (${sql.join([...new Set(endpointIds)])}) ORDER BY endpoint_id FOR UPDATE`;
}

/**
 * A condition for a PostgreSQL statement's WHERE that takes lockQueues' locks before the statement
 * writes any row (an uncorrelated subquery is worked out once, before the first row), saving lockQueues'
 * round trip while the locks are held. Only for statements that read nothing the lock should guard: the
 * rest of the statement reads as of its start, from before the lock was granted.
 */
function queuesLockedFirst(endpointIds: readonly string[]): RawBuilder<boolean> {
  return sql<boolean>`(SELECT count(*) FROM (${queueLocks(endpointIds)}) locked) >= 0`;
}

/** What letting go of a queue answers: when it is ready again (null: nothing waits), or false when the claim was lost. */
export type Released = { readyAt: Date | null } | false;

/**
 * Lets go of held queues once their batches' outcomes are written, as the last statement of `trx`, which
 * commits with it (commitWith): each becomes ready at its earliest waiting attempt, not before its next
 * probe. `trx` holds the queues' locks (lockQueues), so the statement sees every attempt added before it
 * and none can be added until it has committed. On PostgreSQL the same statement tells every process's
 * workers (notifyWorkersWith) when a queue it lets go has work due at `now`. A claim that was lost (its
 * lease ran out and another worker took the queue) lets go of nothing: false.
 */
export async function releaseQueuesAndCommit(trx: Executor, claims: readonly QueueClaim[], now: Date): Promise<Map<string, Released>> {
  const v = valuesTable(trx, { v_endpoint: 'TEXT', v_token: 'TEXT' }, claims.map((claim) => ({ v_endpoint: claim.endpointId, v_token: claim.token })));
  const waiting = earliestWaiting(sql<string>`webhook_queues.endpoint_id`);
  const gated = greatest(trx, waiting, sql<string | null>`coalesce(probe_at, ${waiting})`);
  const release = sql`UPDATE webhook_queues SET claim_token = NULL, claimed_until = NULL, ready_at = CASE WHEN ${waiting} IS NULL THEN NULL ELSE ${gated} END
    FROM v WHERE endpoint_id = v_endpoint AND claim_token = v_token
    RETURNING endpoint_id, ready_at`;
  const statement = isPostgres(trx)
    ? sql<ReleasedRow>`WITH ${v}, released AS (${release})
      SELECT endpoint_id, ready_at, ${notifyWorkersWith(sql<boolean>`ready_at <= ${timestamp(now)}`)} FROM released`
    : sql<ReleasedRow>`WITH ${v} ${release}`;
  const released = new Map((await commitWith(trx, statement)).map((row) => [row.endpoint_id, row.ready_at]));
  return new Map(
    claims.map((claim): [string, Released] => {
      const readyAt = released.get(claim.endpointId);
      return [claim.endpointId, readyAt === undefined ? false : { readyAt: readyAt === null ? null : new Date(readyAt) }];
    }),
  );
}

type ReleasedRow = { endpoint_id: string; ready_at: string | null };

/** Endpoints' breakers after their outcomes: failures in a row, and when the next attempt may go (null: at once). A breaker at 0 failures follows a 2xx, which proves the endpoint. */
export interface Breaker {
  endpointId: string;
  failures: number;
  probeAt: Date | null;
}

export async function setBreakers(trx: Executor, breakers: readonly Breaker[]): Promise<void> {
  if (breakers.length === 0) return;
  const v = valuesTable(
    trx,
    { v_endpoint: 'TEXT', v_failures: 'INTEGER', v_probe_at: 'TEXT' },
    breakers.map((b) => ({ v_endpoint: b.endpointId, v_failures: b.failures, v_probe_at: b.probeAt === null ? null : timestamp(b.probeAt) })),
  );
  await sql`WITH ${v}
    UPDATE webhook_queues SET failures = v_failures, probe_at = v_probe_at, proven = CASE WHEN v_failures = 0 THEN 1 ELSE proven END
    FROM v WHERE endpoint_id = v_endpoint`.execute(trx);
}

/** Drops the breaker's hold on the next attempt: the queue is ready at its earliest waiting attempt. */
export async function liftProbeGate(trx: Executor, endpointId: string): Promise<void> {
  markOutboxChanged(trx);
  await trx
    .updateTable('webhook_queues')
    .set({
      probe_at: null,
      ready_at: sql`CASE WHEN claim_token IS NULL THEN ${earliestWaiting(endpointId)} ELSE ready_at END`,
    })
    .where('endpoint_id', '=', endpointId)
    .execute();
}

/** A paused endpoint's queue waits for nothing; a holder's lease still runs out as it would. */
export async function parkQueue(trx: Executor, endpointId: string): Promise<void> {
  await trx.updateTable('webhook_queues').set({ ready_at: sql`claimed_until` }).where('endpoint_id', '=', endpointId).execute();
}

/** When the next queue of each lane becomes ready (possibly already), or null when none waits; one statement. */
export async function nextReady(db: Executor): Promise<Record<Lane, Date | null>> {
  const earliest = (lane: Lane) => sql<string | null>`(SELECT min(ready_at) FROM webhook_queues WHERE ${IN_LANE[lane]})`;
  const { rows } = await sql<{ healthy: string | null; failing: string | null }>`SELECT ${earliest('healthy')} AS healthy, ${earliest('failing')} AS failing`.execute(db);
  const row = rows[0];
  return { healthy: row?.healthy ? new Date(row.healthy) : null, failing: row?.failing ? new Date(row.failing) : null };
}

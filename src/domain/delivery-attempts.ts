// Delivery attempts are rows: one for every endpoint an event goes to, written in the transaction of the
// event, and one for every retry and resend. This module is the only one that writes an attempt's status;
// these are all the transitions there are:
//
//   (new)     -> scheduled | missed    scheduleAttempts   an event's first attempts (scheduleLast), a retry,
//                                                        a resend
//                                                        (missed when the endpoint is paused)
//   scheduled -> delivered | failed    recordSent         the outcome, written only while the writer
//   missed    -> delivered | failed                       still holds the endpoint's queue (missed: the
//                                                        endpoint was paused while it was on its way)
//   scheduled -> missed                missPending        the endpoint is paused
//   missed    -> scheduled             redeliverMissed    the endpoint resumes with redelivery (renumbered
//                                                        in event order)
//   scheduled -> cancelled             cancelSettled      an attempt of the same event to the same endpoint
//   missed    -> cancelled                                was delivered: a delivered event is settled
//                                                        (shared decisions §11), so what waited for it is
//                                                        never sent, nor redelivered
//
// Being sent is not a status of its own: the worker holding the endpoint's queue (delivery-queues.ts)
// sends its due attempts, and the Deliveries list shows those as `sending`. Delivered, failed, cancelled
// and missed attempts that are not redelivered stay as they are until pruned.
import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { AttemptStatus } from '../db/schema.js';
import { valuesList, valuesListTable, valuesTable } from '../db/sql-functions.js';
import { timestamp } from './clock.js';
import { type Executor, markOutboxChanged, writeLast } from './context.js';
import { addToQueues, announceWork } from './delivery-queues.js';
import { newId } from './ids.js';

/** The condition of the partial indexes on waiting attempts, written out so that queries can use them. */
export const WAITING = sql<boolean>`status = 'scheduled'`;

/**
 * Whether attempt `later` was made after attempt `earlier` of the same event to the same endpoint (both
 * aliases of webhook_attempts). Attempts of an event are numbered as they are made (a retry after the
 * attempt it follows, a resend or a recovery above every number in use), but a retry written after a
 * resend can take the resend's number: between equals, the later row (its sequence) is the later attempt.
 */
export function madeAfter(later: string, earlier: string): RawBuilder<boolean> {
  const column = (alias: string, name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`(${column(later, 'event_id')} = ${column(earlier, 'event_id')} AND ${column(later, 'endpoint_id')} = ${column(earlier, 'endpoint_id')}
    AND (${column(later, 'attempt_number')} > ${column(earlier, 'attempt_number')}
      OR (${column(later, 'attempt_number')} = ${column(earlier, 'attempt_number')} AND ${column(later, 'seq')} > ${column(earlier, 'seq')})))`;
}

export interface NewAttempt {
  eventId: string;
  endpointId: string;
  attemptNumber: number;
  autoRetry: boolean;
  /** `missed` for an endpoint that is paused. */
  status: Extract<AttemptStatus, 'scheduled' | 'missed'>;
  dueAt: Date;
  now: Date;
}

/**
 * Writes new attempts and answers their ids. Scheduled ones are announced to their endpoints' queues
 * (addToQueues), unless the caller holds the endpoint's queue (`announce: false`: a retry written by the
 * worker whose batch is running, which works the queue out again when the batch ends).
 */
export async function scheduleAttempts(trx: Executor, attempts: readonly NewAttempt[], options: { announce?: boolean } = {}): Promise<string[]> {
  if (attempts.length === 0) return [];
  const rows = attempts.map((attempt) => ({
    id: newId(),
    event_id: attempt.eventId,
    endpoint_id: attempt.endpointId,
    attempt_number: attempt.attemptNumber,
    auto_retry: attempt.autoRetry ? 1 : 0,
    status: attempt.status,
    due_at: timestamp(attempt.dueAt),
    created_at: timestamp(attempt.now),
  }));
  const scheduled = attempts.filter((attempt) => attempt.status === 'scheduled');
  if (scheduled.length > 0) markOutboxChanged(trx);
  const values = valuesList(
    { id: 'TEXT', event_id: 'TEXT', endpoint_id: 'TEXT', attempt_number: 'INTEGER', auto_retry: 'INTEGER', status: 'TEXT', due_at: 'TEXT', created_at: 'TEXT' },
    rows,
  );
  const insert = (lockedFirst: RawBuilder<boolean>) => sql`INSERT INTO webhook_attempts (id, event_id, endpoint_id, attempt_number, auto_retry, status, due_at, created_at)
    SELECT * FROM (${values}) AS a WHERE ${lockedFirst}`;
  if (options.announce === false) {
    await insert(sql<boolean>`1 = 1`).execute(trx);
  } else {
    const dues = new Map<string, Date>();
    for (const { endpointId, dueAt } of scheduled) {
      const earlier = dues.get(endpointId);
      if (earlier === undefined || dueAt < earlier) dues.set(endpointId, dueAt);
    }
    await addToQueues(trx, attempts.map((attempt) => attempt.endpointId), dues, insert);
  }
  return rows.map((row) => row.id);
}

const lastAttempts = new WeakMap<object, NewAttempt[]>();

/**
 * An event's first attempts, written by scheduleAttempts as the last statement of the transaction when
 * it is one of transact's (after everything else it writes and its notifications), so that the queues
 * they go to are held for as short a time as can be; at once otherwise. Several events' attempts in one
 * transaction are written together, in the order they were asked for.
 */
export async function scheduleLast(trx: Executor, attempts: readonly NewAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const pending = lastAttempts.get(trx);
  if (pending) {
    pending.push(...attempts);
  } else {
    const list = [...attempts];
    if (!writeLast(trx, () => scheduleAttempts(trx, list))) {
      await scheduleAttempts(trx, list);
      return;
    }
    lastAttempts.set(trx, list);
  }
  if (attempts.some((attempt) => attempt.status === 'scheduled')) markOutboxChanged(trx);
}

export interface SentRecord {
  seq: number;
  /** The claim on the attempt's endpoint's queue under which it was sent. */
  token: string;
  delivered: boolean;
  sentAt: Date;
  durationMs: number;
  requestHeaders: string;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** When the retry that follows a failed attempt is due. */
  nextAttemptAt: Date | null;
}

/** Text from a receiver as the store can keep it: no store keeps NUL characters in text. */
function storable(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\u0000', '\uFFFD');
}

/** What a sent attempt's outcome sets, by column. */
function sentValues(r: SentRecord) {
  return {
    v_status: r.delivered ? 'delivered' : 'failed',
    v_sent_at: timestamp(r.sentAt),
    v_duration_ms: r.durationMs,
    v_request_headers: r.requestHeaders,
    v_response_status: r.responseStatus,
    v_response_body: storable(r.responseBody),
    v_error: storable(r.error),
    v_next_attempt_at: r.nextAttemptAt === null ? null : timestamp(r.nextAttemptAt),
  };
}

/** One outcome, on the embedded store: the same rule as recordSent's statement, row by row. */
const RECORD_ONE_SENT = `UPDATE webhook_attempts SET status = ?, sent_at = ?, duration_ms = ?, request_headers = ?,
    response_status = ?, response_body = ?, error = ?, next_attempt_at = ?
  WHERE seq = ? AND status IN ('scheduled', 'missed')
    AND EXISTS (SELECT 1 FROM webhook_queues q WHERE q.endpoint_id = webhook_attempts.endpoint_id AND q.claim_token = ?)
  RETURNING seq`;

/**
 * Records sent attempts' outcomes, each only if its `token` still holds the attempt's endpoint's queue and
 * no outcome was written for it already; answers the seqs it recorded. An attempt that a pause marked
 * missed while it was on its way gets what happened to it: it went out.
 *
 * On PostgreSQL all of them go in one statement: a statement is a round trip. On SQLite a statement is a
 * call into the same process, and one prepared single-row UPDATE per outcome costs far less than one
 * statement carrying them all, which materializes a table of its values, joins it, and is a new text to
 * prepare for each size of group (the group commit's largest cost on the sending thread; issue 36).
 */
export async function recordSent(trx: Executor, dialect: DialectName, records: readonly SentRecord[]): Promise<Set<number>> {
  if (records.length === 0) return new Set();
  if (dialect === 'sqlite') {
    const recorded = new Set<number>();
    for (const r of records) {
      const v = sentValues(r);
      const parameters = [v.v_status, v.v_sent_at, v.v_duration_ms, v.v_request_headers, v.v_response_status, v.v_response_body, v.v_error, v.v_next_attempt_at, r.seq, r.token];
      const { rows } = await trx.executeQuery(CompiledQuery.raw(RECORD_ONE_SENT, parameters));
      if (rows.length > 0) recorded.add(r.seq);
    }
    return recorded;
  }
  const v = valuesTable(
    trx,
    { v_seq: 'BIGINT', v_token: 'TEXT', v_status: 'TEXT', v_sent_at: 'TEXT', v_duration_ms: 'INTEGER', v_request_headers: 'TEXT', v_response_status: 'INTEGER', v_response_body: 'TEXT', v_error: 'TEXT', v_next_attempt_at: 'TEXT' },
    records.map((r) => ({ v_seq: r.seq, v_token: r.token, ...sentValues(r) })),
  );
  // Each attempt is found by its seq first, behind a fence (MATERIALIZED): joined to the queues directly,
  // PostgreSQL may instead find the queues by their claim's token and walk each endpoint's attempts,
  // every one it ever sent, which statistics taken while endpoints had few attempts make look cheap (1.5 s
  // for 250 outcomes of a bad day, holding the queues an event waits for; bench/CHANGES.md).
  const result = await sql<{ seq: number }>`WITH ${v},
    sent AS MATERIALIZED (SELECT v.*, a.endpoint_id AS v_endpoint_id FROM v JOIN webhook_attempts a ON a.seq = v.v_seq)
    UPDATE webhook_attempts SET status = v_status, sent_at = v_sent_at, duration_ms = v_duration_ms, request_headers = v_request_headers,
      response_status = v_response_status, response_body = v_response_body, error = v_error, next_attempt_at = v_next_attempt_at
    FROM sent
    WHERE seq = v_seq AND status IN ('scheduled', 'missed')
      AND EXISTS (SELECT 1 FROM webhook_queues q WHERE q.endpoint_id = v_endpoint_id AND q.claim_token = v_token)
    RETURNING seq`.execute(trx);
  return new Set(result.rows.map((row) => Number(row.seq)));
}

/** An event delivered to an endpoint, and when the 2xx came. */
export interface Settled {
  eventId: string;
  endpointId: string;
  at: Date;
}

/**
 * One settled event, on the embedded store: the same rule as cancelSettled's statement. Its index named:
 * left to choose, SQLite takes (endpoint_id, created_at) for `endpoint_id = ? AND created_at <= ?` and
 * walks every attempt the endpoint was ever sent before the 2xx, for each delivery (a drain of 20,000
 * went from thousands of deliveries a second to 440).
 */
export const CANCEL_ONE_SETTLED = `UPDATE webhook_attempts INDEXED BY webhook_attempts_event SET status = 'cancelled'
  WHERE event_id = ? AND endpoint_id = ? AND status IN ('scheduled', 'missed') AND created_at <= ?`;

/**
 * Events were delivered to endpoints (in this transaction): their attempts still to come there, scheduled
 * or missed, are cancelled (shared decisions §11), those made by the time the 2xx came: one made after it
 * (someone sent the delivered event again, before its outcome was written) is a new request, and goes.
 * The caller holds those endpoints' queues (an outcome is written only under its claim), and their
 * release works out when each is next ready from what is left waiting, so a queue is never held or made
 * ready for a cancelled attempt. Both stores find an event's attempts by the (event_id, endpoint_id)
 * index; on SQLite one prepared statement per event, as recordSent.
 */
export async function cancelSettled(trx: Executor, dialect: DialectName, settled: readonly Settled[]): Promise<void> {
  if (settled.length === 0) return;
  if (dialect === 'sqlite') {
    for (const { eventId, endpointId, at } of settled) await trx.executeQuery(CompiledQuery.raw(CANCEL_ONE_SETTLED, [eventId, endpointId, timestamp(at)]));
    return;
  }
  // A VALUES list, planned for each size (valuesListTable): under the one plan of a fixed text
  // (valuesTable), joined or looked up one event at a time (LATERAL), the drain spent 100 µs a delivery
  // here cancelling nothing, against 10 µs so (bench/CHANGES.md, "Issue 46").
  const v = valuesListTable(
    { v_event: 'TEXT', v_endpoint: 'TEXT', v_at: 'TEXT' },
    settled.map(({ eventId, endpointId, at }) => ({ v_event: eventId, v_endpoint: endpointId, v_at: timestamp(at) })),
  );
  await sql`WITH ${v} UPDATE webhook_attempts SET status = 'cancelled'
    FROM v WHERE event_id = v_event AND endpoint_id = v_endpoint AND status IN ('scheduled', 'missed') AND created_at <= v_at`.execute(trx);
}

/** The endpoint is paused: what was waiting is missed. */
export async function missPending(trx: Executor, endpointId: string): Promise<void> {
  await trx.updateTable('webhook_attempts').set({ status: 'missed' }).where('endpoint_id', '=', endpointId).where(WAITING).execute();
}

// Attempts renumbered by one statement at most (bound parameters stay well under SQLite's limit).
const RENUMBER_CHUNK = 1000;

/** `count` attempt numbers above every one in use, ascending. */
async function freshSeqs(trx: Executor, dialect: DialectName, count: number): Promise<number[]> {
  if (dialect === 'sqlite') {
    // One writer at a time: nobody else takes a number before this transaction commits.
    const top = await trx.selectFrom('webhook_attempts').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
    return Array.from({ length: count }, (_, i) => Number(top?.seq ?? 0) + 1 + i);
  }
  const { rows } = await sql<{ seq: string }>`SELECT nextval(pg_get_serial_sequence('webhook_attempts', 'seq')) AS seq FROM generate_series(1, ${count})`.execute(trx);
  return rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
}

/**
 * Resume with redelivery: every missed attempt is due now, oldest event first (its time, then its id;
 * decisions §6). The queue sends in attempt-number order, and a retry is numbered when it is written,
 * so an older event's missed retry can be numbered after a newer event's attempt: the missed attempts
 * are numbered again, in event order, after every attempt there is. The caller holds the endpoint's
 * queue (lockQueues), as it took it before writing the endpoint.
 */
export async function redeliverMissed(trx: Executor, dialect: DialectName, endpointId: string, now: Date): Promise<void> {
  const missed = await trx
    .selectFrom('webhook_attempts as a')
    .innerJoin('events as ev', 'ev.id', 'a.event_id')
    .select('a.seq')
    .where('a.endpoint_id', '=', endpointId)
    .where('a.status', '=', 'missed')
    .orderBy('ev.created_at')
    .orderBy('ev.id')
    .orderBy('a.seq')
    .execute();
  if (missed.length === 0) return;
  const seqs = await freshSeqs(trx, dialect, missed.length);
  for (let start = 0; start < missed.length; start += RENUMBER_CHUNK) {
    const v = valuesTable(
      trx,
      { v_old: 'BIGINT', v_new: 'BIGINT' },
      missed.slice(start, start + RENUMBER_CHUNK).map((row, i) => ({ v_old: row.seq, v_new: seqs[start + i] })),
    );
    await sql`WITH ${v} UPDATE webhook_attempts SET seq = v_new, status = 'scheduled', due_at = ${timestamp(now)} FROM v WHERE seq = v_old`.execute(trx);
  }
  markOutboxChanged(trx);
  await announceWork(trx, new Map([[endpointId, now]]));
}

// Delivery attempts are rows: one is written for every endpoint an event goes to, in the transaction of
// the event, and one for every retry and resend. The worker sends what is due; nothing else sends.
import { PostgresAdapter, sql } from 'kysely';
import type { AttemptStatus, Flag } from '../db/schema.js';
import { timestamp } from './clock.js';
import { type Executor, markOutboxChanged } from './context.js';
import { newId } from './ids.js';

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

// On PostgreSQL, sequence numbers are handed out as rows are inserted, not as they commit: two
// transactions could commit their first attempts out of order and a worker could claim the later one
// first. Transactions that write first attempts therefore take this lock, so they commit in the order
// they numbered their rows. (SQLite has a single writer already.)
const FIRST_ATTEMPT_ORDER_LOCK = 4_711_002;
const orderedTransactions = new WeakSet<object>();

async function keepFirstAttemptsInOrder(trx: Executor): Promise<void> {
  if (orderedTransactions.has(trx) || !trx.isTransaction || !(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(${FIRST_ATTEMPT_ORDER_LOCK})`.execute(trx);
  orderedTransactions.add(trx);
}

export async function scheduleAttempt(trx: Executor, attempt: NewAttempt): Promise<string> {
  const id = newId();
  if (attempt.status === 'scheduled') markOutboxChanged(trx);
  if (attempt.attemptNumber === 1) await keepFirstAttemptsInOrder(trx);
  await trx
    .insertInto('webhook_attempts')
    .values({
      id,
      event_id: attempt.eventId,
      endpoint_id: attempt.endpointId,
      attempt_number: attempt.attemptNumber,
      auto_retry: (attempt.autoRetry ? 1 : 0) as Flag,
      status: attempt.status,
      due_at: timestamp(attempt.dueAt),
      claimed_until: null,
      claim_token: null,
      sent_at: null,
      duration_ms: null,
      request_headers: null,
      response_status: null,
      response_body: null,
      error: null,
      next_attempt_at: null,
      created_at: timestamp(attempt.now),
    })
    .execute();
  return id;
}

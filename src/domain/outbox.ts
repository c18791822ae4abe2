// Delivery attempts are rows: one is written for every endpoint an event goes to, in the transaction of
// the event, and one for every retry and resend. The worker sends what is due; nothing else sends.
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

export async function scheduleAttempt(trx: Executor, attempt: NewAttempt): Promise<string> {
  const id = newId();
  if (attempt.status === 'scheduled') markOutboxChanged(trx);
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

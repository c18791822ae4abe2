// The outcome classes of delivery attempts that guide_webhook_attempts_total counts, and when an event was
// committed, read from the body every attempt sends.
import type { DeliveryOutcome } from '../webhooks/sender.js';

export const ATTEMPT_OUTCOMES = ['delivered', 'timeout', 'connect', 'blocked', '3xx', '4xx', '410', '5xx'] as const;
export type AttemptOutcomeClass = (typeof ATTEMPT_OUTCOMES)[number];

// sender.ts says so when no answer came within WEBHOOK_TIMEOUT_MS; the network guard when it refused.
const TIMED_OUT = /^no answer within /;
const BLOCKED = /to a public address|not a public address|address not allowed/;

/**
 * delivered: a 2xx within the deadline; timeout: no answer in time; connect: no answer at all (name
 * resolution, refused or reset connection, TLS); blocked: an address the network guard refused; otherwise
 * the class of the status that came (410, which pauses the endpoint, on its own).
 */
export function attemptOutcomeClass(outcome: Pick<DeliveryOutcome, 'delivered' | 'status' | 'error'>): AttemptOutcomeClass {
  if (outcome.delivered) return 'delivered';
  const status = outcome.status;
  if (status === null) {
    const error = outcome.error ?? '';
    if (TIMED_OUT.test(error)) return 'timeout';
    return BLOCKED.test(error) ? 'blocked' : 'connect';
  }
  if (status === 410) return '410';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  return '3xx';
}

// An event's body is its envelope as recordEvent wrote it: `{"id":"…","created_at":"…",…}`.
const CREATED_AT = /^\{"id":"[^"]*","created_at":"([^"]+)"/;

/** When the event was recorded (in the transaction that caused it), in epoch ms; null if the body does not say. */
export function eventCreatedAt(payload: string): number | null {
  const match = CREATED_AT.exec(payload);
  if (!match) return null;
  const at = Date.parse(match[1]!);
  return Number.isNaN(at) ? null : at;
}

// What became of an event sent to an endpoint, in words and numbers, read from its attempts: "Delivered ·
// 204 · 38 ms", "Failed · 500 · retry 3 of 8 at 19:46", "Sending…", "Missed (endpoint paused)",
// "Cancelled · delivered by a later attempt"; and the one time that goes with it: when it was delivered or
// failed, or, while nothing was sent yet, when it is due. A cancelled attempt was never sent (another
// attempt of its event was delivered first): the event's outcome is what its other attempts came to. A failed attempt's retry is written at once as the event's next attempt, due later: the failure
// and its retry are read together. Retries are counted as the service counts them: the retry after
// attempt n is retry n of WEBHOOK_RETRY_DELAYS' count; an attempt sent again by hand is not retried.
import type { Attempt } from './api-types.js';
import { type Child, h, time } from './dom.js';

export type OutcomeKind = 'delivered' | 'retrying' | 'failed' | 'sending' | 'waiting' | 'missed' | 'cancelled';

/** Why an attempt was cancelled, in words (shared decisions §11: a delivered event is settled). */
export const CANCELLED_BECAUSE = 'delivered by a later attempt';

export interface EventOutcome {
  kind: OutcomeKind;
  /** The outcome: a badge with its word, then the numbers. */
  label: HTMLElement;
  /** When it was delivered or failed, or when it is due. */
  when: HTMLElement;
}

/** Each kind's word and the badge colour it is shown in (a retry waiting after a failure is a failure). */
const BADGES: Record<OutcomeKind, [word: string, tone: string]> = {
  delivered: ['Delivered', 'delivered'],
  retrying: ['Failed', 'failed'],
  failed: ['Failed', 'failed'],
  sending: ['Sending…', 'sending'],
  waiting: ['Waiting', 'scheduled'],
  missed: ['Missed', 'missed'],
  cancelled: ['Cancelled', 'cancelled'],
};

const ANSWER_LENGTH = 60;

/** What an attempt got back: its status code, or why it got none ("no answer within 10000 ms"). */
export function answerOf(attempt: Attempt): Child {
  if (attempt.response_status !== null) return String(attempt.response_status);
  if (!attempt.error) return 'no answer';
  // The first clause: a throttled attempt's error goes on to say how long the receiver asked to wait.
  const first = attempt.error.split(';')[0]!;
  const short = first.length > ANSWER_LENGTH ? `${first.slice(0, ANSWER_LENGTH - 1)}…` : first;
  return h('span', { title: attempt.error }, short);
}

/** A time of day as the reader's clock shows it ("19:46"), with the day when it is not today. */
export function clockTime(iso: string): HTMLElement {
  const date = new Date(iso);
  const hours = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const today = date.toDateString() === new Date().toDateString();
  return h('time', { datetime: iso, title: date.toLocaleString() }, today ? hours : `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}, ${hours}`);
}

/** What an event's attempts (oldest first, at least one) came to, with `retries` the service's count. */
export function eventOutcome(attempts: readonly Attempt[], retries: number): EventOutcome {
  // Cancelled attempts were never sent; the newest is one of them only when the list holds nothing else.
  const sent = attempts.filter((attempt) => attempt.status !== 'cancelled');
  const newest = sent[sent.length - 1] ?? attempts[attempts.length - 1]!;
  const before = sent.length > 1 ? sent[sent.length - 2] : undefined;
  // The attempt just before the newest, when the list holds it (a filter may leave it out).
  const previous = before && before.attempt_number === newest.attempt_number - 1 ? before : undefined;
  const retryOf = (failed: Attempt, dueAt: string): Child[] => [answerOf(failed), [`retry ${failed.attempt_number} of ${retries} at `, clockTime(dueAt)]];
  switch (newest.status) {
    case 'delivered':
      return outcome('delivered', [answerOf(newest), newest.duration_ms !== null && `${newest.duration_ms} ms`], time(newest.sent_at));
    case 'sending':
      return outcome('sending', [newest.attempt_number > 1 && `attempt ${newest.attempt_number}`], time(newest.due_at));
    case 'failed':
      // A filtered list may show a failure without the retry it led to.
      if (newest.next_attempt_at) return outcome('retrying', retryOf(newest, newest.next_attempt_at), time(newest.sent_at));
      return outcome('failed', [answerOf(newest), noRetry(newest, retries)], time(newest.sent_at));
    case 'missed':
      return { kind: 'missed', label: h('span', { class: 'outcome-label' }, badge('missed'), ' (endpoint paused)'), when: h('span', { class: 'muted' }, 'not sent') };
    case 'cancelled':
      return outcome('cancelled', [CANCELLED_BECAUSE], h('span', { class: 'muted' }, 'not sent'));
    case 'scheduled':
      if (previous?.status === 'failed' && previous.next_attempt_at !== null) return outcome('retrying', retryOf(previous, newest.due_at), time(previous.sent_at));
      if (previous) return outcome('waiting', ['sent again by hand'], time(newest.due_at));
      return outcome('waiting', [newest.attempt_number === 1 ? 'first attempt' : `attempt ${newest.attempt_number}`], time(newest.due_at));
  }
}

/** Why a failure that ended an event is not retried. */
function noRetry(failed: Attempt, retries: number): string {
  if (failed.attempt_number <= retries) return 'sent again by hand, so not retried';
  return retries === 0 ? 'not retried' : `all ${retries} ${retries === 1 ? 'retry' : 'retries'} used`;
}

function badge(kind: OutcomeKind): HTMLElement {
  const [word, tone] = BADGES[kind];
  return h('span', { class: `badge latest ${tone}` }, word);
}

/** The badge, then each part that is there after a " · ". */
function outcome(kind: OutcomeKind, parts: readonly Child[], when: HTMLElement): EventOutcome {
  const shown = parts.filter((part) => part !== false && part !== null && part !== undefined);
  const label = h('span', { class: 'outcome-label' }, badge(kind), shown.map((part) => [' · ', part]));
  return { kind, label, when };
}

// The Deliveries list of one endpoint: one row per event (newest first) saying in words and numbers what
// became of it (delivery-outcome.ts) and when, its attempts folded under it; filtered (delivery-filters.ts);
// an attempt's details beside it (delivery-detail.ts); "Send again" while the endpoint is active (a paused
// endpoint refuses it). Test events are labelled "Test"; a cancelled attempt says it was never sent because
// another was delivered.
//
// While attempts are on their way it reads itself again: one request each time, every 2 s while one is
// being sent, else less often the longer nothing changes (up to 30 s). Only when the page it read differs
// does it read what goes alongside (the endpoint and its health), and it changes only the rows that
// changed, in place: a keyboard's focus, an unfolded row and the scroll stay where they were.
import { api, query } from './api.js';
import type { Answer, Attempt, AttemptStatus, Endpoint, Page } from './api-types.js';
import type { SectionContext } from './context.js';
import { act, errorBox, fill, h, keepFocus, loading, notice, table, tableRow, time } from './dom.js';
import { CANCELLED_BECAUSE, eventOutcome } from './delivery-outcome.js';
import { deliveryDetail, detailsKey, TEST_EXPLAINED } from './delivery-detail.js';
import { anyFilter, deliveryFilters, readFilters } from './delivery-filters.js';

const IN_FLIGHT: ReadonlySet<AttemptStatus> = new Set(['scheduled', 'sending']);
const REFRESH_MS = 2000;
const LONGEST_WAIT_MS = 30_000;
const HEADINGS = ['Event', 'Type', 'Outcome', 'Attempts', 'When', ''];

/** An event and its attempts in this list, oldest attempt first. */
interface EventGroup {
  eventId: string;
  eventType: string;
  /** A test event: every attempt of it says so. */
  test: boolean;
  attempts: Attempt[];
}

/** Attempts (newest first) grouped by event, in the order of each event's newest attempt. */
function byEvent(attempts: readonly Attempt[]): EventGroup[] {
  const groups = new Map<string, EventGroup>();
  for (const attempt of attempts) {
    const group = groups.get(attempt.event_id) ?? { eventId: attempt.event_id, eventType: attempt.event_type, test: attempt.test, attempts: [] };
    group.attempts.push(attempt);
    groups.set(attempt.event_id, group);
  }
  for (const group of groups.values()) group.attempts.sort((a, b) => a.attempt_number - b.attempt_number);
  return [...groups.values()];
}

/** When an attempt was sent, or is due; a missed or cancelled attempt was never sent, and shows no time. */
function attemptTime(attempt: Attempt): HTMLElement {
  if (attempt.sent_at) return time(attempt.sent_at);
  if (attempt.status === 'missed' || attempt.status === 'cancelled') return h('span', { class: 'muted' }, 'not sent');
  return time(attempt.due_at);
}

/**
 * How long until the list should be read again; null while nothing is on its way. Every 2 s while an
 * attempt is being sent; while attempts only wait for their time, the pause doubles with each read that
 * found nothing new (`unchanged`), up to 30 s. The browser's clock is not compared with the due times:
 * it need not agree with the service's.
 */
export function refreshDelay(attempts: readonly Attempt[], unchanged: number): number | null {
  if (attempts.some((a) => a.status === 'sending')) return REFRESH_MS;
  if (!attempts.some((a) => IN_FLIGHT.has(a.status))) return null;
  return Math.min(REFRESH_MS * 2 ** unchanged, LONGEST_WAIT_MS);
}

export interface DeliveriesOptions {
  endpointId: string;
  /** The endpoint as last read: "Send again" is offered while it is active. */
  endpoint(): Endpoint;
  /** Read with each first page that changed: the endpoint and its health. */
  alongside(): Promise<void>;
  messages: HTMLElement;
  errors: HTMLElement;
}

export interface DeliveriesList {
  element: HTMLElement;
  /** Reads the first page again, and what goes alongside it. */
  load(): Promise<void>;
}

export function deliveriesList(context: SectionContext, options: DeliveriesOptions): DeliveriesList {
  const { home, params, onLeave, session } = context;
  const { endpointId, messages, errors } = options;
  const filters = readFilters(params);
  const pageHash = `#/${home.type}/${home.id}/webhooks/${endpointId}`;
  // Not a live region: rows change while attempts are in flight and would be read out each time. What the
  // person did is told by the status messages.
  const list = h('div', { class: 'deliveries-list' }, loading('Loading deliveries…'));
  const body = h('div', { class: 'deliveries-body' }, list);
  const detail = deliveryDetail((open) => body.classList.toggle('with-detail', open));
  body.append(detail.element);
  let timer: number | undefined;
  let left = false;
  /** Events whose attempts are unfolded; kept across refreshes. */
  const unfolded = new Set<string>();
  let attempts: Attempt[] = [];
  let nextCursor: string | null = null;
  /** Pages after the first were loaded: a refresh keeps them, and their cursor. */
  let loadedMore = false;
  /** The page as last read, to tell a refresh that changed nothing, and how many reads in a row did. */
  let lastRead = '';
  let unchanged = 0;
  /** The drawn rows by event, each with what it was drawn from. */
  const rows = new Map<string, { drawnFrom: string; row: HTMLTableRowElement }>();
  let tbody: HTMLTableSectionElement | null = null;
  const more = h('div');
  onLeave(() => {
    left = true;
    clearTimeout(timer);
  });

  const read = (cursor: string | null = null) =>
    api.get<Page<Attempt>>(`/webhook-endpoints/${endpointId}/deliveries?${query({ limit: 50, ...filters, cursor: cursor ?? undefined })}`);

  /** Reads the first page; what goes alongside too when `always`, or when the page changed. */
  async function load(always: boolean): Promise<void> {
    const [page] = await Promise.all([read(), always ? options.alongside() : undefined]);
    const text = JSON.stringify(page);
    const changed = text !== lastRead;
    unchanged = changed || always ? 0 : unchanged + 1;
    if (changed && !always && lastRead !== '') await options.alongside();
    lastRead = text;
    if (changed || always) {
      const fresh = new Set(page.data.map((attempt) => attempt.id));
      attempts = loadedMore ? [...page.data, ...attempts.filter((attempt) => !fresh.has(attempt.id))] : page.data;
      if (!loadedMore) nextCursor = page.next_cursor;
      renderList();
      detail.update(attempts);
    }
    schedule();
  }

  function schedule(): void {
    clearTimeout(timer);
    const delay = refreshDelay(attempts, unchanged);
    if (!left && delay !== null) timer = setTimeout(() => load(false).catch(showError), delay);
  }

  async function loadMore(): Promise<void> {
    const page = await read(nextCursor);
    attempts = [...attempts, ...page.data];
    nextCursor = page.next_cursor;
    loadedMore = true;
    renderList();
  }

  function showError(error: unknown): void {
    fill(errors, errorBox(error));
  }

  /** Its visible text first in its name, then what it sends (axe: label-content-name-mismatch). */
  function sendAgain(group: EventGroup, attempt: Attempt): HTMLButtonElement {
    const button = h(
      'button',
      { type: 'button', class: 'secondary small', 'data-focus-key': `send:${group.eventId}`, 'aria-label': `Send again: ${group.eventType} ${group.eventId.slice(0, 8)}` },
      'Send again',
    );
    button.addEventListener('click', () =>
      act(button, errors, async () => {
        const answer = await api.post<Answer<Attempt>>(`/deliveries/${attempt.id}/resend`);
        fill(messages, notice(`Sent again as attempt ${answer.data.attempt_number}.`));
        await load(true);
      }),
    );
    return button;
  }

  function attemptItem(a: Attempt): HTMLElement {
    return h(
      'li',
      { class: 'attempt' },
      h('span', {}, `Attempt ${a.attempt_number}`),
      ' ',
      h('span', { class: `badge ${a.status}` }, a.status),
      ' ',
      a.status === 'cancelled' ? `· ${CANCELLED_BECAUSE}` : null,
      a.response_status !== null ? String(a.response_status) : a.error ? h('span', { class: 'muted' }, 'no answer') : null,
      a.duration_ms === null ? null : ` · ${a.duration_ms} ms`,
      ' · ',
      attemptTime(a),
      ' ',
      h(
        'button',
        { type: 'button', class: 'secondary small', 'data-focus-key': detailsKey(a), onclick: () => detail.show(a), 'aria-label': `Details of attempt ${a.attempt_number} of ${a.event_type}` },
        'Details',
      ),
    );
  }

  function eventRow(group: EventGroup): HTMLTableRowElement {
    const newest = group.attempts[group.attempts.length - 1]!;
    const count = group.attempts.length;
    const fold = h(
      'details',
      { class: 'attempts', open: unfolded.has(group.eventId) },
      h(
        'summary',
        { 'data-focus-key': `fold:${group.eventId}`, 'aria-label': `${count} ${count === 1 ? 'attempt' : 'attempts'} of ${group.eventType} ${group.eventId}` },
        `${count} ${count === 1 ? 'attempt' : 'attempts'}`,
      ),
      h('ol', {}, group.attempts.map(attemptItem)),
    );
    fold.addEventListener('toggle', () => (fold.open ? unfolded.add(group.eventId) : unfolded.delete(group.eventId)));
    const outcome = eventOutcome(group.attempts, session.webhook_retries);
    outcome.label.dataset.outcome = outcome.kind;
    const row = tableRow(HEADINGS, [
      h('code', { title: group.eventId }, group.eventId.slice(0, 8)),
      [group.eventType, group.test && [' ', h('span', { class: 'badge test', title: TEST_EXPLAINED }, 'Test')]],
      outcome.label,
      fold,
      outcome.when,
      options.endpoint().status === 'active' ? sendAgain(group, newest) : null,
    ]);
    row.dataset.eventId = group.eventId;
    return row;
  }

  /** Brings the table's rows up to the attempts read: a row whose event changed is drawn again, the rest stay. */
  function drawRows(groups: readonly EventGroup[]): void {
    const body = tbody!;
    const status = options.endpoint().status;
    const seen = new Set<string>();
    let before: Element | null = body.firstElementChild;
    for (const group of groups) {
      seen.add(group.eventId);
      const drawnFrom = JSON.stringify([status, group.attempts]);
      let entry = rows.get(group.eventId);
      if (!entry || entry.drawnFrom !== drawnFrom) {
        const row = eventRow(group);
        if (entry) {
          if (before === entry.row) before = row;
          entry.row.replaceWith(row);
        }
        entry = { drawnFrom, row };
        rows.set(group.eventId, entry);
      }
      // Rows in place are not moved (a moved element loses focus); others go where they belong.
      if (entry.row !== before) body.insertBefore(entry.row, before);
      before = entry.row.nextElementSibling;
    }
    for (const [eventId, entry] of rows) {
      if (seen.has(eventId)) continue;
      entry.row.remove();
      rows.delete(eventId);
    }
  }

  function renderList(): void {
    keepFocus(list, () => {
      if (attempts.length === 0) {
        tbody = null;
        rows.clear();
        fill(list, h('p', { class: 'muted' }, anyFilter(filters) ? 'No deliveries match these filters.' : 'No deliveries yet.'));
        return;
      }
      if (tbody === null) {
        const drawn = table('Deliveries by event', HEADINGS, []);
        tbody = drawn.tBodies[0]!;
        fill(list, drawn, more);
      }
      drawRows(byEvent(attempts));
      fill(more, nextCursor && h('button', { type: 'button', class: 'secondary', 'data-focus-key': 'more', onclick: () => loadMore().catch(showError) }, 'Load more'));
    });
  }

  const element = h(
    'section',
    { class: 'deliveries', 'aria-labelledby': 'deliveries-title' },
    h('h2', { id: 'deliveries-title' }, 'Deliveries'),
    deliveryFilters(context, filters, pageHash),
    body,
  );
  return { element, load: () => load(true) };
}

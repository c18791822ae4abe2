// The Deliveries list of one endpoint: one row per event (newest first) saying in words and numbers what
// became of it (delivery-outcome.ts) and when, its attempts folded under it; filtered by status, event
// type and the time the attempts were written, or found by event id (the filters live in the page's
// address); a detail view of each attempt (request headers and body, the response) and "Send again"
// while the endpoint is active (a paused endpoint refuses it). Test events (pings and test events of any
// type) are labelled "Test"; a cancelled attempt says it was never sent because another was delivered. It reads itself again while attempts are
// on their way, and with it whatever the page reads alongside (the endpoint and its health).
import { api, query } from './api.js';
import type { Answer, Attempt, AttemptStatus, Endpoint, Page } from './api-types.js';
import type { SectionContext } from './context.js';
import { act, actionForm, errorBox, fill, h, loading, localDateTime, notice, table, time } from './dom.js';
import { CANCELLED_BECAUSE, eventOutcome } from './delivery-outcome.js';

const STATUSES: readonly AttemptStatus[] = ['scheduled', 'sending', 'delivered', 'failed', 'missed', 'cancelled'];
/** What the "Test" label says of a test event, where it is read out or hovered. */
const TEST_EXPLAINED = 'A test event (a ping, or a test of any type): sent with X-Service-Test: true';
const IN_FLIGHT: ReadonlySet<AttemptStatus> = new Set(['scheduled', 'sending']);
const REFRESH_MS = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The filters, as the page's address and the API name them. */
const FILTERS = ['status', 'event_type', 'event_id', 'since', 'until'] as const;

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

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

export interface DeliveriesOptions {
  endpointId: string;
  /** The endpoint as last read: "Send again" is offered while it is active. */
  endpoint(): Endpoint;
  /** Read with each new first page: the endpoint and its health. */
  alongside(): Promise<void>;
  messages: HTMLElement;
  errors: HTMLElement;
}

export interface DeliveriesList {
  element: HTMLElement;
  /** Reads the first page again (and what goes alongside it). */
  load(): Promise<void>;
}

export function deliveriesList(context: SectionContext, options: DeliveriesOptions): DeliveriesList {
  const { home, params, onLeave, navigate, session } = context;
  const { endpointId, messages, errors } = options;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const filtered = FILTERS.some((name) => filters[name] !== '');
  const pageHash = `#/${home.type}/${home.id}/webhooks/${endpointId}`;
  // Not a live region: it is redrawn every few seconds while attempts are in flight, and would be read out
  // again each time. What the person did is told by the status messages.
  const list = h('div', {}, loading('Loading deliveries…'));
  const detail = h('section', { id: 'delivery-detail', tabindex: -1, 'aria-label': 'Delivery details' });
  let timer: number | undefined;
  let left = false;
  let shownId: string | null = null;
  /** Events whose attempts are unfolded; kept across refreshes. */
  const unfolded = new Set<string>();
  let attempts: Attempt[] = [];
  let nextCursor: string | null = null;
  onLeave(() => {
    left = true;
    clearTimeout(timer);
  });

  async function load(more = false): Promise<void> {
    const [page] = await Promise.all([
      api.get<Page<Attempt>>(`/webhook-endpoints/${endpointId}/deliveries?${query({ limit: 50, ...filters, cursor: more ? nextCursor : undefined })}`),
      more ? undefined : options.alongside(),
    ]);
    attempts = more ? [...attempts, ...page.data] : page.data;
    nextCursor = page.next_cursor;
    renderList();
    if (shownId) showDetail(attempts.find((a) => a.id === shownId), false);
    clearTimeout(timer);
    if (!left && attempts.some((a) => IN_FLIGHT.has(a.status))) timer = setTimeout(() => load().catch(showError), REFRESH_MS);
  }

  function showError(error: unknown): void {
    fill(errors, errorBox(error));
  }

  /** Its visible text first in its name, then what it sends (axe: label-content-name-mismatch). */
  function sendAgain(group: EventGroup, attempt: Attempt): HTMLButtonElement {
    const button = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Send again: ${group.eventType} ${group.eventId.slice(0, 8)}` }, 'Send again');
    button.addEventListener('click', () =>
      act(button, errors, async () => {
        const answer = await api.post<Answer<Attempt>>(`/deliveries/${attempt.id}/resend`);
        fill(messages, notice(`Sent again as attempt ${answer.data.attempt_number}.`));
        await load();
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
      h('button', { type: 'button', class: 'secondary small', onclick: () => showDetail(a, true), 'aria-label': `Details of attempt ${a.attempt_number} of ${a.event_type}` }, 'Details'),
    );
  }

  function eventRow(group: EventGroup) {
    const newest = group.attempts[group.attempts.length - 1]!;
    const count = group.attempts.length;
    const fold = h(
      'details',
      { class: 'attempts', open: unfolded.has(group.eventId) },
      h('summary', { 'aria-label': `${count} ${count === 1 ? 'attempt' : 'attempts'} of ${group.eventType} ${group.eventId}` }, `${count} ${count === 1 ? 'attempt' : 'attempts'}`),
      h('ol', {}, group.attempts.map(attemptItem)),
    );
    fold.addEventListener('toggle', () => (fold.open ? unfolded.add(group.eventId) : unfolded.delete(group.eventId)));
    const outcome = eventOutcome(group.attempts, session.webhook_retries);
    outcome.label.dataset.outcome = outcome.kind;
    return [
      h('code', { title: group.eventId }, group.eventId.slice(0, 8)),
      [group.eventType, group.test && [' ', h('span', { class: 'badge test', title: TEST_EXPLAINED }, 'Test')]],
      outcome.label,
      fold,
      outcome.when,
      options.endpoint().status === 'active' ? sendAgain(group, newest) : null,
    ];
  }

  function renderList(): void {
    if (attempts.length === 0) return fill(list, h('p', { class: 'muted' }, filtered ? 'No deliveries match these filters.' : 'No deliveries yet.'));
    fill(
      list,
      options.endpoint().status === 'paused' && h('p', { class: 'muted small paused-note' }, 'The endpoint is paused: resume it to send deliveries again.'),
      table('Deliveries by event', ['Event', 'Type', 'Outcome', 'Attempts', 'When', ''], byEvent(attempts).map(eventRow)),
      nextCursor && h('button', { type: 'button', class: 'secondary', onclick: () => load(true).catch(showError) }, 'Load more'),
    );
  }

  function showDetail(attempt: Attempt | undefined, focus: boolean): void {
    if (!attempt) return;
    shownId = attempt.id;
    const headers = attempt.request_headers ? Object.entries(attempt.request_headers).map(([k, v]) => `${k}: ${v}`).join('\n') : 'Not sent yet';
    fill(
      detail,
      h('h2', {}, `Delivery ${attempt.id}`),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Event'),
        h('dd', {}, `${attempt.event_type} · ${attempt.event_id}`),
        h('dt', {}, 'Attempt'),
        h('dd', {}, `${attempt.attempt_number} · ${attempt.status}`, attempt.status === 'cancelled' ? ` (${CANCELLED_BECAUSE}, so never sent)` : ''),
        attempt.test && [h('dt', {}, 'Test'), h('dd', {}, TEST_EXPLAINED)],
        h('dt', {}, 'Response'),
        h('dd', {}, attempt.response_status === null ? '—' : String(attempt.response_status), attempt.duration_ms === null ? '' : ` in ${attempt.duration_ms} ms`),
        attempt.error && [h('dt', {}, 'Error'), h('dd', {}, attempt.error)],
      ),
      h('h3', {}, 'Request headers'),
      h('pre', {}, headers),
      h('h3', {}, 'Request body'),
      h('pre', {}, pretty(attempt.request_body)),
      h('h3', {}, 'Response body'),
      h('pre', {}, attempt.response_body ? attempt.response_body : '(empty)'),
    );
    if (focus) detail.focus();
  }

  // The filters go in the page's address, so a filtered list can be reloaded and shared.
  const filterErrors = h('div');
  const statusSelect: HTMLSelectElement = h(
    'select',
    { id: 'status-filter', 'data-field': 'status', onchange: () => filterForm.requestSubmit() },
    h('option', { value: '' }, 'All'),
    STATUSES.map((s) => h('option', { value: s, selected: s === filters.status }, s)),
  );
  const typeSelect: HTMLSelectElement = h(
    'select',
    { id: 'type-filter', 'data-field': 'event_type', onchange: () => filterForm.requestSubmit() },
    h('option', { value: '' }, 'All'),
    ['ping', ...session.event_types].map((type) => h('option', { value: type, selected: type === filters.event_type }, type)),
  );
  const sinceInput = h('input', { id: 'since-filter', 'data-field': 'since', type: 'datetime-local', value: localDateTime(filters.since) });
  const untilInput = h('input', { id: 'until-filter', 'data-field': 'until', type: 'datetime-local', value: localDateTime(filters.until) });
  const eventInput = h('input', { id: 'event-filter', 'data-field': 'event_id', type: 'search', placeholder: 'A whole event id', value: filters.event_id, autocomplete: 'off' });
  const asIso = (value: string) => (value === '' ? '' : new Date(value).toISOString());

  function apply(): void {
    const eventId = eventInput.value.trim();
    if (eventId !== '' && !UUID.test(eventId)) throw { detail: "Field 'event_id' must be a whole event id (a UUID), as the Details of an attempt show it" };
    const chosen = { status: statusSelect.value, event_type: typeSelect.value, event_id: eventId, since: asIso(sinceInput.value), until: asIso(untilInput.value) };
    if (chosen.since && chosen.until && chosen.until <= chosen.since) throw { detail: "Field 'until' must be later than From" };
    const search = query(Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== '')));
    navigate(`${pageHash}${search ? `?${search}` : ''}`);
  }

  const field = (label: string, control: HTMLElement) => h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
  const filterForm = actionForm(
    { class: 'filters', 'aria-label': 'Filter deliveries' },
    filterErrors,
    async () => apply(),
    filterErrors,
    h(
      'div',
      { class: 'filter-fields' },
      field('Status', statusSelect),
      field('Event type', typeSelect),
      field('From', sinceInput),
      field('To', untilInput),
      field('Event id', eventInput),
    ),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'secondary' }, 'Apply filters'), filtered && h('a', { href: pageHash }, 'Clear filters')),
  );

  const element = h('section', { class: 'deliveries', 'aria-labelledby': 'deliveries-title' }, h('h2', { id: 'deliveries-title' }, 'Deliveries'), filterForm, list, detail);
  return { element, load: () => load() };
}

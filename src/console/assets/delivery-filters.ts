// The Deliveries list's filters: those chosen show as chips above the list (each one a button that takes it
// away), and the form that chooses them opens from a "Filter" button. They live in the page's address, so a
// filtered list can be reloaded and shared. The event id may be the short id the list shows (its first 8
// characters) or any longer start of it; the API looks it up among the endpoint's attempts.
import type { AttemptStatus } from './api-types.js';
import { query } from './api.js';
import type { SectionContext } from './context.js';
import { actionForm, h, localDateTime } from './dom.js';

const STATUSES: readonly AttemptStatus[] = ['scheduled', 'sending', 'delivered', 'failed', 'missed', 'cancelled'];
/** The filters, as the page's address and the API name them, with the words a chip says them in. */
const FILTERS = { status: 'Status', event_type: 'Event type', event_id: 'Event', since: 'From', until: 'To' } as const;
export type FilterName = keyof typeof FILTERS;
export type Filters = Record<FilterName, string>;
const NAMES = Object.keys(FILTERS) as FilterName[];
/** An event id or its start, as the API takes it. */
const EVENT_ID_START = /^[0-9a-f]{8}[0-9a-f-]{0,28}$/i;

export function readFilters(params: URLSearchParams): Filters {
  return Object.fromEntries(NAMES.map((name) => [name, params.get(name) ?? ''])) as Filters;
}

export const anyFilter = (filters: Filters) => NAMES.some((name) => filters[name] !== '');

/** A filter's value as a chip says it: a time in the reader's own words, an event id as the list shows it. */
function said(name: FilterName, value: string): string {
  if (name === 'since' || name === 'until') return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  if (name === 'event_id') return value.slice(0, 8);
  return value;
}

export function deliveryFilters(context: SectionContext, filters: Filters, pageHash: string): HTMLElement {
  const { session, navigate } = context;
  const go = (chosen: Partial<Filters>) => {
    const search = query(Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== '')));
    navigate(`${pageHash}${search ? `?${search}` : ''}`);
  };

  const chips = NAMES.filter((name) => filters[name] !== '').map((name) =>
    h(
      'li',
      {},
      h(
        'button',
        { type: 'button', class: 'chip', title: 'Take this filter away', onclick: () => go({ ...filters, [name]: '' }) },
        `${FILTERS[name]}: ${said(name, filters[name])}`,
        h('span', { class: 'visually-hidden' }, ', remove'),
        h('span', { 'aria-hidden': 'true', class: 'chip-x' }, '×'),
      ),
    ),
  );

  const statusSelect: HTMLSelectElement = h(
    'select',
    { id: 'status-filter', 'data-field': 'status', onchange: () => form.requestSubmit() },
    h('option', { value: '' }, 'All'),
    STATUSES.map((s) => h('option', { value: s, selected: s === filters.status }, s)),
  );
  const typeSelect: HTMLSelectElement = h(
    'select',
    { id: 'type-filter', 'data-field': 'event_type', onchange: () => form.requestSubmit() },
    h('option', { value: '' }, 'All'),
    ['ping', ...session.event_types].map((type) => h('option', { value: type, selected: type === filters.event_type }, type)),
  );
  const sinceInput = h('input', { id: 'since-filter', 'data-field': 'since', type: 'datetime-local', value: localDateTime(filters.since) });
  const untilInput = h('input', { id: 'until-filter', 'data-field': 'until', type: 'datetime-local', value: localDateTime(filters.until) });
  const eventInput = h('input', { id: 'event-filter', 'data-field': 'event_id', type: 'search', placeholder: 'As the list shows it, or whole', value: filters.event_id, autocomplete: 'off' });
  const asIso = (value: string) => (value === '' ? '' : new Date(value).toISOString());

  async function apply(): Promise<void> {
    const eventId = eventInput.value.trim();
    if (eventId !== '' && !EVENT_ID_START.test(eventId)) throw { detail: "Field 'event_id' must be an event id: its first 8 characters, as the list shows it, or more" };
    const chosen = { status: statusSelect.value, event_type: typeSelect.value, event_id: eventId, since: asIso(sinceInput.value), until: asIso(untilInput.value) };
    if (chosen.since && chosen.until && chosen.until <= chosen.since) throw { detail: "Field 'until' must be later than From" };
    go(chosen);
  }

  const field = (label: string, control: HTMLElement) => h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
  const errors = h('div');
  // A status or type applies as soon as it is picked; times and an id when the form is sent.
  const form: HTMLFormElement = actionForm(
    { class: 'filters', 'aria-label': 'Filter deliveries' },
    errors,
    apply,
    errors,
    h('div', { class: 'filter-fields' }, field('Status', statusSelect), field('Event type', typeSelect), field('From', sinceInput), field('To', untilInput), field('Event id', eventInput)),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'secondary' }, 'Apply filters')),
  );
  const chooser = h('details', { class: 'filter-chooser' }, h('summary', {}, 'Filter'), form);
  return h(
    'div',
    { class: 'filter-bar' },
    chooser,
    chips.length > 0 && h('ul', { class: 'chips', 'aria-label': 'Filters in use' }, chips),
    chips.length > 0 && h('a', { href: pageHash }, 'Clear filters'),
  );
}

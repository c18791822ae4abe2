// The audit log of one organization (with its teams) or one team, and the operator's of every tenant: who
// changed what, newest first, grouped by day, each change in words ("Ana revoked the key 'CI' · 2 minutes
// ago · from 203.0.113.7", audit-words.ts). An entry opens to its facts (the exact time, the kind's code,
// the target's id, the request id); a run of identical entries one after another (same actor, change and
// target) is one line that says how many ("The operator pinged the webhook endpoint 'x' · 50 times").
// Filtered by who (the people and keys in the log, by name), by kind of change in words (only those that
// can happen in this log) and by time, in the page's address, so a filtered log can be reloaded and shared.
// Names are the resources' names as they are now; what is gone since shows its short id.
import { api, query } from './api.js';
import type { AuditEvent, Page, Session } from './api-types.js';
import { actorWords, eventWords, kindLabel, kindsAt } from './audit-words.js';
import type { Home, PageContext, SectionContext } from './context.js';
import { actionForm, errorBox, fill, h, loading, localDateTime, time } from './dom.js';

const FILTERS = ['action', 'actor_id', 'since', 'until'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** The log of one home, as its section. */
export function auditPage(context: SectionContext): Promise<void> {
  const { home } = context;
  const intro = home.type === 'organization' ? 'Changes to the organization and its teams, newest first.' : 'Changes to the team, newest first.';
  return drawAuditLog(context, { base: `#/${home.type}/${home.id}/audit`, home, intro });
}

/** The operator's log of every tenant (shared decisions §11 "The operator's console"). */
export function allTenantsAuditPage(context: PageContext & { params: URLSearchParams; session: Session }): Promise<void> {
  return drawAuditLog(context, { base: '#/operator/audit', home: null, intro: 'Changes to every organization and team, and sign-ins, newest first.' });
}

interface AuditView {
  /** The page's own address, which the filters are added to. */
  base: string;
  /** Whose log it is; null for every tenant's. */
  home: Home | null;
  intro: string;
}

/** Entries one after another that say the same: the same actor did the same to the same thing. */
const sameEntry = (a: AuditEvent, b: AuditEvent) =>
  a.actor.type === b.actor.type &&
  a.actor.id === b.actor.id &&
  a.action === b.action &&
  a.target.type === b.target.type &&
  a.target.id === b.target.id &&
  JSON.stringify(a.changed) === JSON.stringify(b.changed) &&
  a.count === b.count;

/** The reader's day of a time, to group by. */
const dayOf = (iso: string) => new Date(iso).toDateString();

/** A day as a heading says it: "Today", "Yesterday", or the date. */
function dayHeading(iso: string, now = new Date()): string {
  const day = dayOf(iso);
  if (day === now.toDateString()) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (day === yesterday.toDateString()) return 'Yesterday';
  return new Date(iso).toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
}

/** Days, newest first, each with its runs of identical entries (newest first within a run). */
function byDayAndRun(events: readonly AuditEvent[]): { day: string; runs: AuditEvent[][] }[] {
  const days: { day: string; runs: AuditEvent[][] }[] = [];
  for (const event of events) {
    let day = days[days.length - 1];
    if (!day || dayOf(day.runs[0]![0]!.at) !== dayOf(event.at)) days.push((day = { day: dayHeading(event.at), runs: [] }));
    const run = day.runs[day.runs.length - 1];
    if (run && sameEntry(run[0]!, event)) run.push(event);
    else day.runs.push([event]);
  }
  return days;
}

async function drawAuditLog(context: PageContext & { params: URLSearchParams; session: Session }, view: AuditView): Promise<void> {
  const { main, params, navigate, session } = context;
  const { base, home } = view;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ''])) as Filters;
  const filtered = FILTERS.some((name) => filters[name] !== '');
  const errors = h('div');
  const list = h('div', {}, loading('Loading the audit log…'));
  let events: AuditEvent[] = [];
  let nextCursor: string | null = null;

  const withFilters = (changes: Partial<Filters>) => {
    const search = query({ ...filters, ...changes });
    return `${base}${search ? `?${search}` : ''}`;
  };

  /** What an entry (or a run of them, newest first) opens to. */
  function facts(run: readonly AuditEvent[]): HTMLElement {
    const event = run[0]!;
    const exact = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long' });
    return h(
      'dl',
      { class: 'facts audit-facts' },
      h('dt', {}, run.length === 1 ? 'When' : 'Times'),
      h('dd', {}, run.length === 1 ? exact(event.at) : h('ul', { class: 'times' }, run.map((each) => h('li', {}, exact(each.at))))),
      h('dt', {}, 'Who'),
      h(
        'dd',
        {},
        actorWords(event),
        event.actor.id && !filters.actor_id && [' · ', h('a', { href: withFilters({ actor_id: event.actor.id }) }, event.actor.type === 'api_key' ? "Only this key's changes" : "Only this person's changes")],
      ),
      h('dt', {}, 'Change'),
      h('dd', {}, kindLabel(event.action), ' ', h('code', {}, event.action)),
      h('dt', {}, 'Of'),
      h('dd', {}, event.target.type.replace('api_key', 'key').replace(/_/g, ' '), event.target.name !== null && ` '${event.target.name}'`, event.target.id && [' ', h('code', {}, event.target.id)]),
      event.changed && [h('dt', {}, 'Fields'), h('dd', {}, event.changed.join(', '))],
      event.address && [h('dt', {}, 'From'), h('dd', {}, event.address)],
      event.request_id && [h('dt', {}, 'Request'), h('dd', {}, h('code', {}, event.request_id))],
    );
  }

  /** One line a run: the newest entry's words, how many times, and when (the newest). */
  function entry(run: readonly AuditEvent[]): HTMLElement {
    const event = run[0]!;
    return h(
      'li',
      { class: 'audit-event' },
      h(
        'details',
        {},
        h(
          'summary',
          {},
          `${actorWords(event)} ${eventWords(event)}`,
          run.length > 1 && ` · ${run.length} times`,
          ' · ',
          time(event.at),
          event.address && h('span', { class: 'muted' }, ` · from ${event.address}`),
        ),
        facts(run),
      ),
    );
  }

  function draw(): void {
    if (events.length === 0) return fill(list, h('p', { class: 'muted' }, filtered ? 'No changes match these filters.' : 'No changes yet.'));
    fill(
      list,
      byDayAndRun(events).map(({ day, runs }, i) =>
        h(
          'section',
          { class: 'audit-day', 'aria-labelledby': `audit-day-${i}` },
          h('h2', { id: `audit-day-${i}` }, day),
          h('ol', { class: 'audit', 'aria-label': `Audit log, ${day}` }, runs.map(entry)),
        ),
      ),
      nextCursor && h('button', { type: 'button', class: 'secondary', onclick: () => load(true).catch((error: unknown) => fill(errors, errorBox(error))) }, 'Load more'),
    );
    drawActors();
  }

  async function load(more = false): Promise<void> {
    const page = await api.get<Page<AuditEvent>>(
      `/audit-events?${query({ limit: 50, home_type: home?.type, home_id: home?.id, ...filters, cursor: more ? nextCursor : undefined })}`,
    );
    events = more ? [...events, ...page.data] : page.data;
    nextCursor = page.next_cursor;
    draw();
  }

  // Who: the people and keys of the entries read so far, by name (a chosen one stays offered).
  const actorSelect: HTMLSelectElement = h('select', { id: 'actor-filter', 'data-field': 'actor_id', onchange: () => filterForm.requestSubmit() });
  function drawActors(): void {
    const actors = new Map<string, string>();
    for (const event of events) if (event.actor.id !== null && !actors.has(event.actor.id)) actors.set(event.actor.id, actorWords(event));
    if (filters.actor_id && !actors.has(filters.actor_id)) actors.set(filters.actor_id, 'The one chosen');
    fill(
      actorSelect,
      h('option', { value: '' }, 'Anyone'),
      [...actors].map(([id, name]) => h('option', { value: id, selected: id === filters.actor_id }, name)),
    );
  }
  const filterErrors = h('div');
  const actionSelect: HTMLSelectElement = h(
    'select',
    { id: 'action-filter', 'data-field': 'action', onchange: () => filterForm.requestSubmit() },
    h('option', { value: '' }, 'All changes'),
    kindsAt(session.audit_actions, home?.type ?? 'operator').map(([action, label]) => h('option', { value: action, selected: action === filters.action }, label)),
  );
  const sinceInput = h('input', { id: 'since-filter', 'data-field': 'since', type: 'datetime-local', value: localDateTime(filters.since) });
  const untilInput = h('input', { id: 'until-filter', 'data-field': 'until', type: 'datetime-local', value: localDateTime(filters.until) });
  const asIso = (value: string) => (value === '' ? '' : new Date(value).toISOString());
  const field = (label: string, control: HTMLElement) => h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
  const filterForm = actionForm(
    { class: 'filters', 'aria-label': 'Filter the audit log' },
    filterErrors,
    async () => {
      const since = asIso(sinceInput.value);
      const until = asIso(untilInput.value);
      if (since && until && until <= since) throw { detail: "Field 'until' must be later than From" };
      navigate(withFilters({ action: actionSelect.value, actor_id: actorSelect.value, since, until }));
    },
    filterErrors,
    h('div', { class: 'filter-fields' }, field('Who', actorSelect), field('Change', actionSelect), field('From', sinceInput), field('To', untilInput)),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'secondary' }, 'Apply filters'), filtered && h('a', { href: base }, 'Clear filters')),
  );
  drawActors();

  fill(main, h('h1', { tabindex: -1 }, 'Audit log'), h('p', { class: 'muted' }, view.intro), filterForm, errors, list);
  await load();
}

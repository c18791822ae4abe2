// The audit log of one organization (with its teams) or one team: who changed what, newest first, each
// event in words ("Ana revoked the key 'CI' · 2 min ago · from 203.0.113.7"), with the service's filters
// (kind of change, person, time range) in the page's address, so a filtered log can be reloaded and
// shared. Names are the resources' names as they are now; what is gone since shows its short id.
import { api, query } from './api.js';
import type { AuditEvent, Page } from './api-types.js';
import type { SectionContext } from './context.js';
import { actionForm, errorBox, fill, h, loading, localDateTime } from './dom.js';

const FILTERS = ['action', 'actor_id', 'since', 'until'] as const;

/** How each kind of event reads after its actor, given how its target is named (and how many things it covered). */
const WORDS: Record<string, (target: string, count: number | null) => string> = {
  'organization.created': (target) => `created the organization ${target}`,
  'organization.updated': (target) => `changed the organization ${target}`,
  'admin.added': (target) => `made ${target} an admin of the organization`,
  'admin.removed': (target) => `removed ${target} from the organization's admins`,
  'team.created': (target) => `created the team ${target}`,
  'team.updated': (target) => `changed the team ${target}`,
  'member.added': (target) => `added ${target} to the team`,
  'member.role_changed': (target) => `changed the role of ${target}`,
  'member.removed': (target) => `removed ${target} from the team`,
  'user.created': (target) => `created the user ${target}`,
  'user.erased': (target) => `erased the user ${target}`,
  'api_key.created': (target) => `created the key ${target}`,
  'api_key.revoked': (target) => `revoked the key ${target}`,
  'webhook_endpoint.created': (target) => `added the webhook endpoint ${target}`,
  'webhook_endpoint.updated': (target) => `changed the webhook endpoint ${target}`,
  'webhook_endpoint.paused': (target) => `paused the webhook endpoint ${target}`,
  'webhook_endpoint.resumed': (target) => `resumed the webhook endpoint ${target}`,
  'webhook_endpoint.deleted': (target) => `deleted the webhook endpoint ${target}`,
  'webhook_endpoint.pinged': (target) => `pinged the webhook endpoint ${target}`,
  'webhook_endpoint.signing_key_revealed': (target) => `revealed the signing key of ${target}`,
  'webhook_endpoint.signing_key_rotated': (target) => `rotated the signing key of ${target}`,
  'webhook_endpoint.recovered': (target, count) => `recovered ${count ?? 'the'} failed ${count === 1 ? 'delivery' : 'deliveries'} of the webhook endpoint ${target}`,
  'delivery.resent': (target) => `sent the delivery ${target} again`,
  'guide.created': (target) => `created the guide ${target}`,
  'guide.updated': (target) => `changed the guide ${target}`,
  'guide.processing_settled': (target) => `settled the processing of the guide ${target}`,
  'guide.moved': (target) => `moved the guide ${target} to this team`,
  'guide.deleted': (target) => `deleted the guide ${target}`,
  'session.signed_in': () => 'signed in to the console',
};

/** The event in words, after its actor: the target by its name, or by its short id once it is gone. */
export function eventWords(event: AuditEvent): string {
  const { name, id } = event.target;
  const target = name !== null ? `'${name}'` : id !== null ? `${id.slice(0, 8)} (no longer there)` : '';
  const words = (WORDS[event.action] ?? ((named: string) => `${event.action} ${named}`))(target, event.count).trim();
  return event.changed ? `${words}: ${event.changed.join(', ')}` : words;
}

/** How long ago, in words a person reads at a glance; the exact time is the element's title. */
export function ago(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export async function auditPage(context: SectionContext): Promise<void> {
  const { main, home, params, navigate, session } = context;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const filtered = FILTERS.some((name) => filters[name] !== '');
  const base = `#/${home.type}/${home.id}/audit`;
  const errors = h('div');
  const list = h('div', {}, loading('Loading the audit log…'));
  let events: AuditEvent[] = [];
  let nextCursor: string | null = null;

  const withFilters = (changes: Partial<Record<(typeof FILTERS)[number], string>>) => {
    const search = query({ ...filters, ...changes });
    return `${base}${search ? `?${search}` : ''}`;
  };

  function row(event: AuditEvent): HTMLElement {
    const who =
      event.actor.type === 'operator'
        ? 'The operator'
        : event.actor.type === 'api_key'
          ? h('a', { href: withFilters({ actor_id: event.actor.id ?? '' }), title: 'Only this key' }, `The key “${event.actor.name ?? 'revoked'}”`)
          : h('a', { href: withFilters({ actor_id: event.actor.id ?? '' }), title: 'Only this person' }, event.actor.name ?? 'An erased person');
    return h(
      'li',
      { class: 'audit-event' },
      h('span', { class: 'audit-words' }, who, ' ', eventWords(event)),
      ' · ',
      h('time', { datetime: event.at, title: new Date(event.at).toLocaleString() }, ago(event.at, Date.now())),
      event.address && [' · ', h('span', { class: 'muted' }, `from ${event.address}`)],
    );
  }

  async function load(more = false): Promise<void> {
    const page = await api.get<Page<AuditEvent>>(
      `/audit-events?${query({ limit: 50, home_type: home.type, home_id: home.id, ...filters, cursor: more ? nextCursor : undefined })}`,
    );
    events = more ? [...events, ...page.data] : page.data;
    nextCursor = page.next_cursor;
    if (events.length === 0) return fill(list, h('p', { class: 'muted' }, filtered ? 'No changes match these filters.' : 'No changes yet.'));
    fill(
      list,
      h('ol', { class: 'audit', 'aria-label': 'Audit log' }, events.map(row)),
      nextCursor && h('button', { type: 'button', class: 'secondary', onclick: () => load(true).catch((error: unknown) => fill(errors, errorBox(error))) }, 'Load more'),
    );
  }

  const filterErrors = h('div');
  const actionSelect: HTMLSelectElement = h(
    'select',
    { id: 'action-filter', 'data-field': 'action', onchange: () => filterForm.requestSubmit() },
    h('option', { value: '' }, 'All changes'),
    session.audit_actions.map((action) => h('option', { value: action, selected: action === filters.action }, action)),
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
      navigate(withFilters({ action: actionSelect.value, since, until }));
    },
    filterErrors,
    h('div', { class: 'filter-fields' }, field('Change', actionSelect), field('From', sinceInput), field('To', untilInput)),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit', class: 'secondary' }, 'Apply filters'),
      filters.actor_id && h('span', { class: 'muted' }, "Only one person's or key's changes."),
      filtered && h('a', { href: base }, 'Clear filters'),
    ),
  );

  fill(
    main,
    h('h1', { tabindex: -1 }, 'Audit log'),
    h(
      'p',
      { class: 'muted' },
      home.type === 'organization' ? 'Changes to the organization and its teams, newest first.' : "Changes to the team, newest first.",
    ),
    filterForm,
    errors,
    list,
  );
  await load();
}

// The Deliveries list of one endpoint: every attempt, newest first, filtered by status, with a detail view
// (request headers and body, the response) and "Send again". It refreshes itself while attempts are on
// their way.
import { api, query } from './api.js';
import type { Answer, Attempt, AttemptStatus, Endpoint, Page } from './api-types.js';
import type { SectionContext } from './context.js';
import { act, errorBox, fill, h, loading, notice, table, time } from './dom.js';

const STATUSES: readonly AttemptStatus[] = ['scheduled', 'sending', 'delivered', 'failed', 'missed'];
const IN_FLIGHT: ReadonlySet<AttemptStatus> = new Set(['scheduled', 'sending']);
const REFRESH_MS = 2000;

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export async function deliveriesPage(context: SectionContext, endpointId: string): Promise<void> {
  const { main, home, params, onLeave, navigate } = context;
  const status = params.get('status') ?? '';
  const errors = h('div');
  const messages = h('div');
  // Not a live region: it is redrawn every few seconds while attempts are in flight, and would be read out
  // again each time. What the person did is told by the status messages.
  const list = h('div', {}, loading('Loading deliveries…'));
  const detail = h('section', { id: 'delivery-detail', tabindex: -1, 'aria-label': 'Delivery details' });
  let timer: number | undefined;
  let left = false;
  let shownId: string | null = null;
  onLeave(() => {
    left = true;
    clearTimeout(timer);
  });

  const endpoint = (await api.get<Answer<Endpoint>>(`/webhook-endpoints/${endpointId}`)).data;
  let attempts: Attempt[] = [];
  let nextCursor: string | null = null;

  async function load(more = false): Promise<void> {
    const page = await api.get<Page<Attempt>>(
      `/webhook-endpoints/${endpointId}/deliveries?${query({ limit: 50, status, cursor: more ? nextCursor : undefined })}`,
    );
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

  function sendAgain(attempt: Attempt): HTMLButtonElement {
    const button = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Send ${attempt.event_type} again` }, 'Send again');
    button.addEventListener('click', () =>
      act(button, errors, async () => {
        const answer = await api.post<Answer<Attempt>>(`/deliveries/${attempt.id}/resend`);
        fill(messages, notice(`Sent again as attempt ${answer.data.attempt_number}.`));
        await load();
      }),
    );
    return button;
  }

  function renderList(): void {
    if (attempts.length === 0) return fill(list, h('p', { class: 'muted' }, status ? `No ${status} deliveries.` : 'No deliveries yet.'));
    fill(
      list,
      table(
        'Deliveries',
        ['Event', 'Type', 'Attempt', 'Status', 'Response', 'Duration', 'Time', 'Next retry', ''],
        attempts.map((a) => [
          h('code', { title: a.event_id }, a.event_id.slice(0, 8)),
          a.event_type,
          String(a.attempt_number),
          h('span', { class: `badge ${a.status}` }, a.status),
          a.response_status ?? (a.error ? h('span', { class: 'muted' }, 'no answer') : '—'),
          a.duration_ms === null ? '—' : `${a.duration_ms} ms`,
          time(a.sent_at ?? a.due_at),
          time(a.next_attempt_at),
          h(
            'div',
            { class: 'row' },
            h('button', { type: 'button', class: 'secondary small', onclick: () => showDetail(a, true), 'aria-label': `Details of attempt ${a.attempt_number} of ${a.event_type}` }, 'Details'),
            sendAgain(a),
          ),
        ]),
      ),
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
        h('dd', {}, `${attempt.attempt_number} · ${attempt.status}`),
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

  const filter: HTMLSelectElement = h(
    'select',
    { id: 'status-filter', onchange: () => navigate(`#/${home.type}/${home.id}/webhooks/${endpointId}${filter.value ? `?status=${filter.value}` : ''}`) },
    h('option', { value: '' }, 'All'),
    STATUSES.map((s) => h('option', { value: s, selected: s === status }, s)),
  );

  fill(
    main,
    h('p', {}, h('a', { href: `#/${home.type}/${home.id}/webhooks` }, '← Webhooks')),
    h('h1', { tabindex: -1 }, 'Deliveries'),
    h('p', { class: 'url' }, endpoint.url, ' ', endpoint.status === 'paused' ? h('span', { class: 'badge paused' }, 'Paused') : h('span', { class: 'badge ok' }, 'Active')),
    h('div', { class: 'field inline' }, h('label', { for: 'status-filter' }, 'Status'), filter),
    errors,
    messages,
    list,
    detail,
  );
  await load();
}

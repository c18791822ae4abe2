// Webhook endpoints of a team or organization, compact: a table of their URLs (each opens the endpoint's
// own page, page-deliveries.ts, with its health, deliveries, signing key and actions), their state (active,
// failing, or paused and why), success rate over the last 24 hours and last delivery; and "Add endpoint",
// which opens the form that adds one. The table reads itself again while a delivery is being sent.
import { api, query } from './api.js';
import type { Answer, Endpoint } from './api-types.js';
import type { SectionContext } from './context.js';
import { actionForm, errorBox, fill, h, loading, notice, table } from './dom.js';
import { endpointFields } from './endpoint-form.js';
import { type HealthView, lastDelivery, loadHealth, statusBadge, successRate } from './health.js';

/** A message the endpoint's page leaves for this one (the endpoint it deleted), shown once. */
export const WEBHOOKS_NOTICE = 'console.webhooks-notice';
const REFRESH_MS = 2000;

export async function webhooksPage(context: SectionContext): Promise<void> {
  const { main, home, session, onLeave } = context;
  const errors = h('div');
  const messages = h('div');
  const list = h('div', { class: 'endpoints' }, loading('Loading endpoints…'));
  const homeQuery = query({ home_type: home.type, home_id: home.id });
  const endpointHash = (endpoint: Endpoint) => `#/${home.type}/${home.id}/webhooks/${endpoint.id}`;
  let timer: number | undefined;
  let left = false;
  onLeave(() => {
    left = true;
    clearTimeout(timer);
  });

  const leftNotice = sessionStorage.getItem(WEBHOOKS_NOTICE);
  sessionStorage.removeItem(WEBHOOKS_NOTICE);
  if (leftNotice) fill(messages, notice(leftNotice));

  async function refresh(): Promise<void> {
    clearTimeout(timer);
    const endpoints = (await api.get<Answer<Endpoint[]>>(`/webhook-endpoints?${homeQuery}`)).data;
    if (endpoints.length === 0) return fill(list, h('p', { class: 'muted' }, 'No endpoints yet. Add one to receive events as they happen.'));
    // Two requests per endpoint (a home has at most a few dozen), all at once.
    const views = await Promise.all(endpoints.map((endpoint) => loadHealth(endpoint.id)));
    fill(list, table(`Webhook endpoints of ${home.name}`, ['URL', 'State', 'Success rate, 24 hours', 'Last delivery'], endpoints.map((endpoint, i) => row(endpoint, views[i]!))));
    if (!left && views.some((view) => view.sending)) timer = setTimeout(() => refresh().catch((error: unknown) => fill(errors, errorBox(error))), REFRESH_MS);
  }

  function row(endpoint: Endpoint, view: HealthView) {
    return [
      h('div', { class: 'endpoint-link' }, h('a', { href: endpointHash(endpoint), class: 'url' }, endpoint.url), endpoint.description && h('span', { class: 'muted small' }, endpoint.description)),
      statusBadge(endpoint, view.health),
      h('span', { 'data-fact': 'rate' }, successRate(view.health)),
      h('span', { 'data-fact': 'last' }, lastDelivery(view)),
    ];
  }

  const formErrors = h('div');
  const fields = endpointFields('endpoint', null, session);
  const opener = h('button', { type: 'button', class: 'primary', 'aria-expanded': 'false', 'aria-controls': 'add-endpoint' }, 'Add endpoint');
  const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
  const form = actionForm(
    { class: 'card', id: 'add-endpoint', 'aria-labelledby': 'add-endpoint-title', hidden: true },
    formErrors,
    async () => {
      fill(messages);
      await api.post('/webhook-endpoints', {
        home: { type: home.type, id: home.id },
        url: fields.url.value,
        events: fields.events(),
        ...(fields.description.value ? { description: fields.description.value } : {}),
      });
      fields.clear();
      await refresh();
      close();
      fill(messages, notice('Endpoint added; a ping is on its way to it.'));
    },
    h('h2', { id: 'add-endpoint-title' }, 'Add an endpoint'),
    formErrors,
    fields.elements,
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, 'Create endpoint'), cancel),
  );

  function open(): void {
    form.hidden = false;
    opener.setAttribute('aria-expanded', 'true');
    fields.url.focus();
  }
  function close(): void {
    form.hidden = true;
    opener.setAttribute('aria-expanded', 'false');
    opener.focus();
  }
  opener.addEventListener('click', () => (form.hidden ? open() : close()));
  cancel.addEventListener('click', close);
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });

  const title = h('h1', { tabindex: -1 }, `Webhooks · ${home.name}`);
  fill(main, title, errors, messages, list, h('div', { class: 'row' }, opener), form);
  try {
    await refresh();
  } catch (error) {
    fill(main, title, errorBox(error));
  }
}

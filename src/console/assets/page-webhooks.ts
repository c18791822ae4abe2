// Webhook endpoints of a team or organization: their status (active, failing, or paused and why) and health
// (last delivery, success rate over 24 hours, failures in a row, next retry), a form that adds
// one (URL, events, description), and each endpoint's menu: edit, ping, reveal and rotate the signing key,
// pause by hand and resume (optionally redelivering what was missed), delete.
import { api, query } from './api.js';
import type { Answer, Endpoint, EndpointHealth, SigningKey } from './api-types.js';
import type { SectionContext } from './context.js';
import { type Attributes, act, actionForm, confirmAction, copyField, errorBox, fill, h, loading, notice, time } from './dom.js';
import { healthFacts, statusBadge } from './health.js';

/**
 * A revealed or rotated signing key, and the same key as Standard Webhooks libraries take it; during a
 * rotation's overlap the replaced key too, with when it stops signing.
 */
function signingKeyFields(endpointId: string, key: SigningKey): HTMLElement[] {
  const fields = [
    copyField('Signing key', key.signing_key, `signing-key-${endpointId}`),
    copyField('Standard Webhooks secret', key.standard_webhooks_secret, `standard-webhooks-secret-${endpointId}`),
  ];
  if (!key.old_key) return fields;
  return [
    ...fields,
    h('p', { class: 'small' }, 'The old key still signs until ', time(key.old_key.ends_at), ':'),
    copyField('Old signing key', key.old_key.signing_key, `old-signing-key-${endpointId}`),
    copyField('Old Standard Webhooks secret', key.old_key.standard_webhooks_secret, `old-standard-webhooks-secret-${endpointId}`),
  ];
}

/** How long a rotation may keep the old key signing (the API takes 0–72 hours). */
const OVERLAPS: readonly [hours: number, label: string][] = [
  [0, 'No: the old key stops at once'],
  [1, '1 hour'],
  [24, '24 hours'],
  [72, '72 hours'],
];

/** Asks how long the old key keeps signing; null when the rotation is cancelled. */
async function askRotation(): Promise<number | null> {
  const overlap = h(
    'select',
    { id: 'rotation-overlap' },
    OVERLAPS.map(([hours, label]) => h('option', { value: String(hours), selected: hours === 24 }, label)),
  );
  const sure = await confirmAction(
    'Rotate the signing key?',
    'Rotate key',
    [
      h('div', { class: 'field' }, h('label', { for: overlap.id }, 'Keep the old key signing for'), overlap),
      'Meanwhile X-Service-Signature stays on the old key and webhook-signature carries both, so your receiver can move to the new key without a failed delivery. With no overlap, deliveries that fail until it has the new key are retried.',
    ],
    'primary',
  );
  return sure ? Number(overlap.value) : null;
}

export async function webhooksPage(context: SectionContext): Promise<void> {
  const { main, home } = context;
  const errors = h('div');
  const messages = h('div');
  const list = h('div', { class: 'endpoints' }, loading('Loading endpoints…'));
  const homeQuery = query({ home_type: home.type, home_id: home.id });

  async function refresh(): Promise<void> {
    const endpoints = (await api.get<Answer<Endpoint[]>>(`/webhook-endpoints?${homeQuery}`)).data;
    if (endpoints.length === 0) return fill(list, h('p', { class: 'muted' }, 'No endpoints yet.'));
    // One request per endpoint (a home has at most a few dozen), all at once.
    const healths = await Promise.all(endpoints.map((e) => api.get<Answer<EndpointHealth>>(`/webhook-endpoints/${e.id}/health`)));
    fill(list, endpoints.map((endpoint, i) => endpointCard(endpoint, healths[i]!.data)));
  }

  /** After a change, once the list shows it: a message must not stand beside what it says has changed before it has. */
  function say(text: string): void {
    fill(messages, notice(text));
  }

  /** The fields of an endpoint, for the form that adds one (`prefix` 'endpoint') and each edit form. */
  function endpointFields(prefix: string, endpoint: Endpoint | null) {
    const url = h('input', { id: `${prefix}-url`, 'data-field': 'url', type: 'url', required: true, placeholder: 'https://example.com/hooks', maxlength: 2048, value: endpoint?.url });
    const description = h('input', { id: `${prefix}-description`, 'data-field': 'description', maxlength: 500, value: endpoint?.description });
    const eventBoxes = context.session.event_types.map((type) => ({
      type,
      box: h('input', { type: 'checkbox', id: `${prefix}-event-${type}`, value: type, checked: endpoint?.events.includes(type) }),
    }));
    const elements = [
      h('div', { class: 'field' }, h('label', { for: url.id }, 'URL'), url),
      h(
        'fieldset',
        { id: `${prefix}-events`, 'data-field': 'events' },
        h('legend', {}, 'Events'),
        h('p', { class: 'muted small' }, 'A ping is sent when the endpoint is added and whenever you ask for one.'),
        h('div', { class: 'checks' }, eventBoxes.map(({ type, box }) => h('div', { class: 'check' }, box, h('label', { for: box.id }, type)))),
      ),
      h('div', { class: 'field' }, h('label', { for: description.id }, 'Description (optional)'), description),
    ];
    const events = () => eventBoxes.filter((e) => e.box.checked).map((e) => e.type);
    return { url, description, events, elements };
  }

  function editForm(endpoint: Endpoint, slot: HTMLElement, menu: HTMLElement): HTMLFormElement {
    const fields = endpointFields(`edit-${endpoint.id}`, endpoint);
    const formErrors = h('div');
    const close = () => {
      fill(slot);
      menu.querySelector('summary')?.focus();
    };
    const form = actionForm(
      { class: 'edit-endpoint', 'aria-label': `Edit ${endpoint.url}` },
      formErrors,
      async () => {
        fill(messages);
        // An emptied description is taken away; one of only spaces goes to the API, which refuses it.
        await api.patch(`/webhook-endpoints/${endpoint.id}`, {
          url: fields.url.value,
          events: fields.events(),
          description: fields.description.value === '' ? null : fields.description.value,
        });
        await refresh();
        say('The endpoint was saved.');
      },
      h('h3', {}, 'Edit endpoint'),
      formErrors,
      fields.elements,
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, 'Save endpoint'), h('button', { type: 'button', class: 'secondary', onclick: close }, 'Cancel')),
    );
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close();
    });
    return form;
  }

  function endpointCard(endpoint: Endpoint, health: EndpointHealth): HTMLElement {
    const keySlot = h('div', { 'data-key-slot': endpoint.id });
    const editSlot = h('div');
    const cardErrors = h('div');
    const status = statusBadge(endpoint, health);
    const menuItem = (label: string, handler: () => Promise<void>, attributes: Attributes = {}) => {
      const button = h('button', { type: 'button', ...attributes }, label);
      button.addEventListener('click', async () => {
        button.closest('details')?.removeAttribute('open');
        fill(messages);
        await act(button, cardErrors, handler);
      });
      return button;
    };
    const menu = h(
      'details',
      { class: 'menu' },
      h('summary', { 'aria-label': `Actions for ${endpoint.url}` }, 'Actions'),
      h(
        'div',
        { class: 'menu-items' },
        menuItem('Edit…', async () => {
          fill(editSlot, editForm(endpoint, editSlot, menu));
          editSlot.querySelector('input')?.focus();
        }),
        endpoint.status === 'paused'
          ? menuItem('Resume…', () => resume(endpoint))
          : menuItem('Pause…', async () => {
              const question = `Pause ${endpoint.url}? Nothing is sent to it until it is resumed; new events are kept as missed.`;
              if (!(await confirmAction(question, 'Pause endpoint'))) return;
              await api.post(`/webhook-endpoints/${endpoint.id}/pause`);
              await refresh();
              say('The endpoint is paused.');
            }),
        menuItem('Send ping', async () => {
          await api.post(`/webhook-endpoints/${endpoint.id}/ping`);
          say(`A ping is on its way to ${endpoint.url}.`);
        }),
        menuItem('Reveal signing key', async () => {
          const answer = await api.get<Answer<SigningKey>>(`/webhook-endpoints/${endpoint.id}/signing-key`);
          fill(keySlot, ...signingKeyFields(endpoint.id, answer.data));
        }),
        menuItem('Rotate signing key…', async () => {
          const hours = await askRotation();
          if (hours === null) return;
          const answer = await api.post<Answer<SigningKey>>(`/webhook-endpoints/${endpoint.id}/signing-key/rotate`, { keep_old_for_hours: hours });
          await refresh();
          say('The signing key was rotated.');
          // The list was drawn again: the new key goes into the new card's slot.
          const slot = list.querySelector<HTMLElement>(`[data-key-slot="${endpoint.id}"]`);
          if (slot) fill(slot, h('p', {}, 'New signing key:'), ...signingKeyFields(endpoint.id, answer.data));
        }),
        menuItem(
          'Delete…',
          async () => {
            if (!(await confirmAction(`Delete the endpoint ${endpoint.url}? Its deliveries are deleted too.`, 'Delete endpoint'))) return;
            await api.del(`/webhook-endpoints/${endpoint.id}`);
            await refresh();
            say('The endpoint was deleted.');
          },
          { class: 'danger-text' },
        ),
      ),
    );
    return h(
      'article',
      { class: 'card endpoint', 'aria-label': endpoint.url },
      h('div', { class: 'endpoint-head' }, h('h2', { class: 'url' }, endpoint.url), status, menu),
      endpoint.description && h('p', {}, endpoint.description),
      h('p', { class: 'muted small' }, 'Events: ', endpoint.events.length ? endpoint.events.join(', ') : 'ping only', ' · added ', time(endpoint.created_at)),
      endpoint.status === 'paused' && h('p', { class: 'small' }, 'Paused ', time(endpoint.paused_at), '. New events are kept as missed until it is resumed.'),
      endpoint.old_signing_key_ends_at &&
        h('p', { class: 'small' }, 'The old signing key still signs beside the new one until ', time(endpoint.old_signing_key_ends_at), '.'),
      healthFacts(endpoint, health),
      h('p', {}, h('a', { href: `#/${home.type}/${home.id}/webhooks/${endpoint.id}` }, 'Deliveries and health by hour')),
      editSlot,
      keySlot,
      cardErrors,
    );
  }

  async function resume(endpoint: Endpoint): Promise<void> {
    const redeliver = h('input', { type: 'checkbox', id: 'redeliver-missed', checked: true });
    const choice = h('div', { class: 'check' }, redeliver, h('label', { for: 'redeliver-missed' }, 'Redeliver missed events, oldest first'));
    if (!(await confirmAction(`Resume ${endpoint.url}?`, 'Resume', [choice], 'primary'))) return;
    await api.post(`/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: redeliver.checked });
    await refresh();
    say(redeliver.checked ? 'The endpoint is active again; missed events are being redelivered.' : 'The endpoint is active again.');
  }

  const fields = endpointFields('endpoint', null);
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Add endpoint');
  const form = actionForm(
    { class: 'card' },
    errors,
    async () => {
      fill(messages);
      await api.post('/webhook-endpoints', {
        home: { type: home.type, id: home.id },
        url: fields.url.value,
        events: fields.events(),
        ...(fields.description.value ? { description: fields.description.value } : {}),
      });
      form.reset();
      await refresh();
      say('Endpoint added; a ping is on its way to it.');
    },
    h('h2', {}, 'Add an endpoint'),
    fields.elements,
    submit,
  );

  const title = h('h1', { tabindex: -1 }, `Webhooks · ${home.name}`);
  fill(main, title, errors, messages, list, form);
  try {
    await refresh();
  } catch (error) {
    fill(main, title, errorBox(error));
  }
}

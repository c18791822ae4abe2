// Webhook endpoints of a team or organization: their status (active, or paused and why), a form that adds
// one (URL, events, description), and each endpoint's menu: deliveries, ping, reveal and rotate the
// signing key, resume (optionally redelivering what was missed), delete.
import { api, query } from './api.js';
import type { Answer, Endpoint, PausedReason, SigningKey } from './api-types.js';
import type { SectionContext } from './context.js';
import { type Attributes, act, actionForm, confirmAction, copyField, errorBox, fill, h, notice, time } from './dom.js';

const PAUSE_REASONS: Record<PausedReason, string> = {
  gone: 'the receiver answered 410 Gone',
  failing: 'nothing but failures for about a day',
  manual: 'an admin paused it',
};

export async function webhooksPage(context: SectionContext): Promise<void> {
  const { main, home } = context;
  const errors = h('div');
  const messages = h('div');
  const list = h('div', { class: 'endpoints' });
  const homeQuery = query({ home_type: home.type, home_id: home.id });

  async function refresh(): Promise<void> {
    const endpoints = (await api.get<Answer<Endpoint[]>>(`/webhook-endpoints?${homeQuery}`)).data;
    if (endpoints.length === 0) return fill(list, h('p', { class: 'muted' }, 'No endpoints yet.'));
    fill(list, endpoints.map(endpointCard));
  }

  function say(text: string): void {
    fill(messages, notice(text));
  }

  function endpointCard(endpoint: Endpoint): HTMLElement {
    const keySlot = h('div');
    const cardErrors = h('div');
    const status =
      endpoint.status === 'active'
        ? h('span', { class: 'badge ok' }, 'Active')
        : h('span', { class: 'badge paused' }, endpoint.paused_reason ? `Paused: ${PAUSE_REASONS[endpoint.paused_reason]}` : 'Paused');
    const menuItem = (label: string, handler: () => Promise<void>, attributes: Attributes = {}) => {
      const button = h('button', { type: 'button', ...attributes }, label);
      button.addEventListener('click', async () => {
        button.closest('details')?.removeAttribute('open');
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
        endpoint.status === 'paused' && menuItem('Resume…', () => resume(endpoint)),
        menuItem('Send ping', async () => {
          await api.post(`/webhook-endpoints/${endpoint.id}/ping`);
          say(`A ping is on its way to ${endpoint.url}.`);
        }),
        menuItem('Reveal signing key', async () => {
          const answer = await api.get<Answer<SigningKey>>(`/webhook-endpoints/${endpoint.id}/signing-key`);
          fill(keySlot, copyField('Signing key', answer.data.signing_key, `signing-key-${endpoint.id}`));
        }),
        menuItem('Rotate signing key…', async () => {
          const sure = await confirmAction('Rotate the signing key? The old key stops working at once; deliveries that fail meanwhile are retried.', 'Rotate key');
          if (!sure) return;
          const answer = await api.post<Answer<SigningKey>>(`/webhook-endpoints/${endpoint.id}/signing-key/rotate`);
          fill(keySlot, h('p', {}, 'New signing key:'), copyField('Signing key', answer.data.signing_key, `signing-key-${endpoint.id}`));
          say('The signing key was rotated.');
        }),
        menuItem(
          'Delete…',
          async () => {
            if (!(await confirmAction(`Delete the endpoint ${endpoint.url}? Its deliveries are deleted too.`, 'Delete endpoint'))) return;
            await api.del(`/webhook-endpoints/${endpoint.id}`);
            say('The endpoint was deleted.');
            await refresh();
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
      h('p', {}, h('a', { href: `#/${home.type}/${home.id}/webhooks/${endpoint.id}` }, 'Deliveries')),
      keySlot,
      cardErrors,
    );
  }

  async function resume(endpoint: Endpoint): Promise<void> {
    const redeliver = h('input', { type: 'checkbox', id: 'redeliver-missed', checked: true });
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': 'resume-title' },
      h(
        'form',
        { method: 'dialog' },
        h('h2', { id: 'resume-title' }, `Resume ${endpoint.url}?`),
        h('div', { class: 'check' }, redeliver, h('label', { for: 'redeliver-missed' }, 'Redeliver missed events, oldest first')),
        h('div', { class: 'actions' }, h('button', { value: 'cancel', class: 'secondary' }, 'Cancel'), h('button', { value: 'resume', class: 'primary' }, 'Resume')),
      ),
    );
    document.body.append(dialog);
    dialog.showModal();
    const choice = await new Promise<string>((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue)));
    dialog.remove();
    if (choice !== 'resume') return;
    await api.post(`/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: redeliver.checked });
    say(redeliver.checked ? 'The endpoint is active again; missed events are being redelivered.' : 'The endpoint is active again.');
    await refresh();
  }

  const url = h('input', { id: 'endpoint-url', type: 'url', required: true, placeholder: 'https://example.com/hooks', maxlength: 2048 });
  const description = h('input', { id: 'endpoint-description', maxlength: 500 });
  const eventBoxes = context.session.event_types.map((type) => ({ type, box: h('input', { type: 'checkbox', id: `event-${type}`, value: type }) }));
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Add endpoint');
  const form = actionForm(
    { class: 'card' },
    errors,
    async () => {
      const events = eventBoxes.filter((e) => e.box.checked).map((e) => e.type);
      await api.post('/webhook-endpoints', {
        home: { type: home.type, id: home.id },
        url: url.value,
        events,
        ...(description.value ? { description: description.value } : {}),
      });
      say('Endpoint added; a ping is on its way to it.');
      form.reset();
      await refresh();
    },
    h('h2', {}, 'Add an endpoint'),
    h('div', { class: 'field' }, h('label', { for: 'endpoint-url' }, 'URL'), url),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Events'),
      h('p', { class: 'muted small' }, 'A ping is sent when the endpoint is added and whenever you ask for one.'),
      h('div', { class: 'checks' }, eventBoxes.map(({ type, box }) => h('div', { class: 'check' }, box, h('label', { for: `event-${type}` }, type)))),
    ),
    h('div', { class: 'field' }, h('label', { for: 'endpoint-description' }, 'Description (optional)'), description),
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

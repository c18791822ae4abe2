// One webhook endpoint's page (#/<type>/<id>/webhooks/<endpointId>): its URL, state and Actions menu
// (endpoint-actions.ts), what it receives, while paused a banner that says why with a Resume button, its health (facts and deliveries per hour over the last 24
// hours), its signing key (masked until revealed), and its Deliveries list, which reads the endpoint and
// its health again whenever it reads itself.
import { api } from './api.js';
import type { Answer, Endpoint } from './api-types.js';
import { actionsMenu } from './actions-menu.js';
import type { SectionContext } from './context.js';
import { deliveriesList } from './deliveries-list.js';
import { actionForm, fill, h, keepFocus, loading, notice, time } from './dom.js';
import { endpointActions, resume } from './endpoint-actions.js';
import { endpointFields } from './endpoint-form.js';
import { type HealthView, healthChart, healthFacts, loadHealth, pausedBanner, statusBadge } from './health.js';
import { WEBHOOKS_NOTICE } from './page-webhooks.js';
import { signingKeyPanel } from './signing-key.js';

export async function deliveriesPage(context: SectionContext, endpointId: string): Promise<void> {
  const { main, home, session, navigate } = context;
  const errors = h('div');
  const messages = h('div');
  const listHash = `#/${home.type}/${home.id}/webhooks`;
  let endpoint = (await api.get<Answer<Endpoint>>(`/webhook-endpoints/${endpointId}`)).data;

  const title = h('h1', { tabindex: -1, class: 'url' }, endpoint.url);
  const badge = h('span', { class: 'endpoint-state' });
  const about = h('div', { class: 'endpoint-about' });
  const banner = h('div');
  const editSlot = h('div');
  const health = h('section', { class: 'card', 'aria-labelledby': 'health-title' }, loading('Loading health…'));
  const menu = actionsMenu(`Actions for ${endpoint.url}`, errors);
  const key = signingKeyPanel(endpointId, errors);
  const say = (text: string) => fill(messages, notice(text));

  function draw(view: HealthView): void {
    fill(title, endpoint.url);
    fill(badge, statusBadge(endpoint, view.health));
    fill(
      about,
      endpoint.description && h('p', {}, endpoint.description),
      h('p', { class: 'muted small' }, 'Events: ', endpoint.events.length ? endpoint.events.join(', ') : 'ping only', ' · added ', time(endpoint.created_at)),
      endpoint.old_signing_key_ends_at &&
        h('p', { class: 'small' }, 'The old signing key still signs beside the new one until ', time(endpoint.old_signing_key_ends_at), '.'),
    );
    keepFocus(banner, () => fill(banner, endpoint.status === 'paused' && pausedBanner(endpoint, () => resume(page), errors)));
    menu.setName(`Actions for ${endpoint.url}`);
    menu.setActions(endpointActions(page));
    fill(health, h('h2', { id: 'health-title' }, 'Health'), healthFacts(endpoint, view), healthChart(view.health));
  }

  const list = deliveriesList(context, {
    endpointId,
    endpoint: () => endpoint,
    messages,
    errors,
    async alongside() {
      const [current, view] = await Promise.all([api.get<Answer<Endpoint>>(`/webhook-endpoints/${endpointId}`), loadHealth(endpointId)]);
      endpoint = current.data;
      draw(view);
    },
  });

  function editForm(): HTMLFormElement {
    const fields = endpointFields(`edit-${endpoint.id}`, endpoint, session);
    const formErrors = h('div');
    const close = () => {
      fill(editSlot);
      menu.element.querySelector('summary')?.focus();
    };
    const form = actionForm(
      { class: 'card edit-endpoint', 'aria-label': `Edit ${endpoint.url}` },
      formErrors,
      async () => {
        fill(messages);
        // An emptied description is taken away; one of only spaces goes to the API, which refuses it.
        await api.patch(`/webhook-endpoints/${endpoint.id}`, {
          url: fields.url.value,
          events: fields.events(),
          description: fields.description.value === '' ? null : fields.description.value,
        });
        await list.load();
        close();
        say('The endpoint was saved.');
      },
      h('h2', {}, 'Edit endpoint'),
      formErrors,
      fields.elements,
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, 'Save endpoint'), h('button', { type: 'button', class: 'secondary', onclick: close }, 'Cancel')),
    );
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close();
    });
    return form;
  }

  const page = {
    endpoint: () => endpoint,
    session,
    say,
    refresh: () => list.load(),
    key,
    openEditForm() {
      fill(editSlot, editForm());
      editSlot.querySelector('input')?.focus();
    },
    deleted() {
      sessionStorage.setItem(WEBHOOKS_NOTICE, `The endpoint ${endpoint.url} was deleted.`);
      navigate(listHash);
    },
  };

  menu.setActions(endpointActions(page));
  fill(
    main,
    h('p', {}, h('a', { href: listHash }, '← Webhooks')),
    h('div', { class: 'endpoint-head' }, title, badge, menu.element),
    about,
    banner,
    errors,
    messages,
    editSlot,
    health,
    key.element,
    list.element,
  );
  await list.load();
}

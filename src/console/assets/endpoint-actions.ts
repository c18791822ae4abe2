// What the Actions menu of an endpoint's page does: edit it, send a ping or a test event of any type,
// pause or resume it, recover the deliveries that failed since a time (shared decisions §11), reveal or
// rotate its signing key, delete it. Each message says what really happened: a ping or test event to a
// paused endpoint is not sent but kept as missed, as any event is; a recovery says how many it sends.
import { api } from './api.js';
import type { Answer, Endpoint, Recovered, Session, SigningKey } from './api-types.js';
import type { MenuAction } from './actions-menu.js';
import { confirmAction, fill, h, localDateTime } from './dom.js';
import { describedText } from './endpoint-form.js';
import { askRotation, type SigningKeyPanel } from './signing-key.js';

export interface EndpointPage {
  /** The endpoint as last read. */
  endpoint(): Endpoint;
  session: Session;
  say(text: string): void;
  /** Reads the endpoint, its health and its deliveries again, and draws them. */
  refresh(): Promise<void>;
  openEditForm(): void;
  key: SigningKeyPanel;
  /** After the endpoint was deleted: back to the home's endpoints, saying so. */
  deleted(): void;
}

/** What a ping or test event came to: sent, or kept as missed while the endpoint is paused. */
function sentOrKept(endpoint: Endpoint, what: string): string {
  if (endpoint.status === 'active') return `${what} is on its way to ${endpoint.url}.`;
  return `${endpoint.url} is paused, so ${what.toLowerCase()} was not sent: it is kept as missed, and is sent if you resume the endpoint and choose to redeliver missed events.`;
}

/** Asks which event type to send as a test; null when cancelled. */
async function askTestEvent(session: Session): Promise<string | null> {
  const types = ['ping', ...session.event_types];
  const says = h('p', { id: 'test-event-says', class: 'muted small' });
  const describe = (type: string) => fill(says, describedText(session.event_descriptions[type] ?? ''));
  const select: HTMLSelectElement = h(
    'select',
    { id: 'test-event-type', 'aria-describedby': says.id, onchange: () => describe(select.value) },
    types.map((type) => h('option', { value: type }, type)),
  );
  describe('ping');
  const sure = await confirmAction(
    'Send a test event?',
    'Send test event',
    [
      h('div', { class: 'field' }, h('label', { for: select.id }, 'Event type'), select, says),
      'Any type but ping carries sample data named as a test (a guide or person that does not exist), whether or not the endpoint picked that type. Test events are not in the events feed.',
    ],
    'primary',
  );
  return sure ? select.value : null;
}

export function endpointActions(page: EndpointPage): MenuAction[] {
  const endpoint = page.endpoint();
  const path = `/webhook-endpoints/${endpoint.id}`;
  return [
    { label: 'Edit…', run: async () => page.openEditForm() },
    {
      label: 'Send ping',
      run: async () => {
        await api.post(`${path}/ping`);
        await page.refresh();
        page.say(sentOrKept(endpoint, 'A ping'));
      },
    },
    {
      label: 'Send test event…',
      run: async () => {
        const type = await askTestEvent(page.session);
        if (type === null) return;
        await api.post(`${path}/ping`, { event_type: type });
        await page.refresh();
        page.say(sentOrKept(endpoint, type === 'ping' ? 'A ping' : `A test ${type} event`));
      },
    },
    ...(endpoint.status === 'active' ? [{ label: 'Recover failed deliveries since…', run: () => recover(page) }] : []),
    endpoint.status === 'paused'
      ? { label: 'Resume…', run: () => resume(page) }
      : {
          label: 'Pause…',
          run: async () => {
            const question = `Pause ${endpoint.url}? Nothing is sent to it until it is resumed; new events are kept as missed.`;
            if (!(await confirmAction(question, 'Pause endpoint'))) return;
            await api.post(`${path}/pause`);
            await page.refresh();
            page.say('The endpoint is paused.');
          },
        },
    { label: 'Reveal signing key', run: () => page.key.reveal() },
    {
      label: 'Rotate signing key…',
      run: async () => {
        const hours = await askRotation();
        if (hours === null) return;
        const answer = await api.post<Answer<SigningKey>>(`${path}/signing-key/rotate`, { keep_old_for_hours: hours });
        await page.refresh();
        page.key.show(answer.data, 'New signing key:');
        page.say('The signing key was rotated.');
      },
    },
    {
      label: 'Delete…',
      danger: true,
      run: async () => {
        if (!(await confirmAction(`Delete the endpoint ${endpoint.url}? Its deliveries are deleted too.`, 'Delete endpoint'))) return;
        await api.del(path);
        page.deleted();
      },
    },
  ];
}

/** Asks whether to redeliver what was missed, then resumes the endpoint (its menu, and the paused banner). */
export async function resume(page: EndpointPage): Promise<void> {
  const endpoint = page.endpoint();
  const redeliver = h('input', { type: 'checkbox', id: 'redeliver-missed', checked: true });
  const choice = h('div', { class: 'check' }, redeliver, h('label', { for: 'redeliver-missed' }, 'Redeliver missed events, oldest first'));
  if (!(await confirmAction(`Resume ${endpoint.url}?`, 'Resume', [choice], 'primary'))) return;
  await api.post(`/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: redeliver.checked });
  await page.refresh();
  page.say(redeliver.checked ? 'The endpoint is active again; missed events are being redelivered.' : 'The endpoint is active again.');
}

/** How far back a recovery offers to reach at first: a day, the longest a failing endpoint goes on failing before it is paused. */
const RECOVER_FROM_MS = 86_400_000;

async function recover(page: EndpointPage): Promise<void> {
  const endpoint = page.endpoint();
  const since = h('input', { type: 'datetime-local', id: 'recover-since', required: true, value: localDateTime(new Date(Date.now() - RECOVER_FROM_MS).toISOString()) });
  const field = h('div', { class: 'field' }, h('label', { for: since.id }, 'Failed since'), since);
  const explained =
    'Every event since then whose latest attempt failed or was missed, and that has no retry still to come, is sent again, oldest first, as one new attempt each.';
  if (!(await confirmAction(`Recover failed deliveries to ${endpoint.url}?`, 'Recover', [field, explained], 'primary'))) return;
  if (since.value === '') throw { detail: "Field 'since' must be a date and time" };
  const answer = await api.post<Answer<Recovered>>(`/webhook-endpoints/${endpoint.id}/recover`, { since: new Date(since.value).toISOString() });
  await page.refresh();
  const { events } = answer.data;
  page.say(events === 0 ? 'Nothing to recover: no event since then failed without a retry still to come.' : `${events} ${events === 1 ? 'event is' : 'events are'} being sent again, oldest first.`);
}

// The fields of a webhook endpoint, for the form that adds one and the form that edits one: its URL, the
// events it receives (each with when it is sent, in one line, and "All events" to pick or drop them all),
// and a description. The event types and their descriptions come from the session answer, which takes
// them from the service's own list (src/domain/events.ts), so the form never lists a type of its own.
import type { Endpoint, Session } from './api-types.js';
import { type Child, h } from './dom.js';

export interface EndpointFields {
  url: HTMLInputElement;
  description: HTMLInputElement;
  events(): string[];
  /** Empties the fields, for the next endpoint. */
  clear(): void;
  elements: HTMLElement[];
}

/** A description whose `code` spans (between backticks) are shown as code. */
export function describedText(text: string): Child[] {
  return text.split('`').map((part, i) => (i % 2 === 1 ? h('code', {}, part) : part));
}

/** `prefix` keeps the ids of two forms on one page apart: 'endpoint' for the form that adds one. */
export function endpointFields(prefix: string, endpoint: Endpoint | null, session: Session): EndpointFields {
  const url = h('input', { id: `${prefix}-url`, 'data-field': 'url', type: 'url', required: true, placeholder: 'https://example.com/hooks', maxlength: 2048, value: endpoint?.url });
  const description = h('input', { id: `${prefix}-description`, 'data-field': 'description', maxlength: 500, value: endpoint?.description });
  const boxes = session.event_types.map((type) =>
    h('input', { type: 'checkbox', id: `${prefix}-event-${type}`, value: type, checked: endpoint?.events.includes(type), 'aria-describedby': `${prefix}-event-${type}-says` }),
  );
  const all = h('input', { type: 'checkbox', id: `${prefix}-events-all` });
  const showAll = () => {
    const picked = boxes.filter((box) => box.checked).length;
    all.checked = picked === boxes.length;
    all.indeterminate = picked > 0 && picked < boxes.length;
  };
  all.addEventListener('change', () => {
    for (const box of boxes) box.checked = all.checked;
  });
  for (const box of boxes) box.addEventListener('change', showAll);
  showAll();

  const elements = [
    h('div', { class: 'field' }, h('label', { for: url.id }, 'URL'), url),
    h(
      'fieldset',
      { id: `${prefix}-events`, 'data-field': 'events', class: 'event-picks' },
      h('legend', {}, 'Events'),
      h('p', { class: 'muted small' }, 'A ping is sent when the endpoint is added and whenever you ask for one.'),
      h('div', { class: 'check all-events' }, all, h('label', { for: all.id }, 'All events')),
      h(
        'div',
        { class: 'checks described' },
        boxes.map((box) =>
          h(
            'div',
            { class: 'check' },
            box,
            h('label', { for: box.id }, box.value),
            h('span', { id: `${box.id}-says`, class: 'muted small says' }, describedText(session.event_descriptions[box.value] ?? '')),
          ),
        ),
      ),
    ),
    h('div', { class: 'field' }, h('label', { for: description.id }, 'Description (optional)'), description),
  ];
  const clear = () => {
    url.value = '';
    description.value = '';
    for (const box of boxes) box.checked = false;
    showAll();
  };
  return { url, description, events: () => boxes.filter((box) => box.checked).map((box) => box.value), clear, elements };
}

// One attempt's details, opened from the Deliveries list: what was sent (headers and body, each with a Copy
// button) and what came back. At desktop widths it is a panel beside the list; on a phone it takes the
// list's place, with a way back (console.css). Closing it (its button, or Escape) gives focus back to the
// Details button that opened it. While the list refreshes, the panel is drawn again only if its attempt
// changed, and keeps focus where it was.
import type { Attempt } from './api-types.js';
import { CANCELLED_BECAUSE } from './delivery-outcome.js';
import { copyButton, fill, h, keepFocus } from './dom.js';

/** What the "Test" label says of a test event, where it is read out or hovered. */
export const TEST_EXPLAINED = 'A test event (a ping, or a test of any type): sent with X-Service-Test: true';

/** The key of an attempt's Details button, by which focus finds it again (dom.ts keepFocus). */
export const detailsKey = (attempt: Attempt) => `details:${attempt.id}`;

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export interface DeliveryDetail {
  element: HTMLElement;
  /** The attempt shown, if any. */
  shownId(): string | null;
  show(attempt: Attempt): void;
  /** Draws the shown attempt again from a fresh read, if it changed (one no longer listed stays as it was). */
  update(attempts: readonly Attempt[]): void;
}

/** `opened(open)` is told when the panel opens and closes (the list beside it makes room, or hides on a phone). */
export function deliveryDetail(opened: (open: boolean) => void): DeliveryDetail {
  const element = h('section', { class: 'delivery-detail', id: 'delivery-detail', tabindex: -1, 'aria-labelledby': 'delivery-detail-title', hidden: true });
  let shown: Attempt | null = null;
  let drawn = '';

  function close(): void {
    const id = shown?.id;
    shown = null;
    drawn = '';
    fill(element);
    element.hidden = true;
    opened(false);
    const button = id === undefined ? undefined : document.querySelector<HTMLElement>(`[data-focus-key="details:${id}"]`);
    button?.focus();
  }
  element.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });

  /** A block of text under its heading, with a Copy button named for it. */
  function block(title: string, text: string, empty = '(empty)'): HTMLElement[] {
    const copy = text === '' ? null : copyButton(title.toLowerCase(), () => text);
    copy?.querySelector('button')?.setAttribute('data-focus-key', `copy:${title}`);
    return [h('div', { class: 'block-head' }, h('h3', {}, title), copy), h('pre', {}, text === '' ? empty : text)];
  }

  function draw(attempt: Attempt): void {
    const headers = attempt.request_headers ? Object.entries(attempt.request_headers).map(([k, v]) => `${k}: ${v}`).join('\n') : '';
    fill(
      element,
      h(
        'div',
        { class: 'detail-head' },
        h('h2', { id: 'delivery-detail-title' }, `Attempt ${attempt.attempt_number} of ${attempt.event_type}`),
        h('button', { type: 'button', class: 'secondary small', 'data-focus-key': 'close-detail', onclick: close }, h('span', { class: 'wide-only' }, 'Close'), h('span', { class: 'narrow-only' }, '← Back to deliveries')),
      ),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Delivery'),
        h('dd', {}, h('code', {}, attempt.id)),
        h('dt', {}, 'Event'),
        h('dd', {}, h('code', {}, attempt.event_id)),
        h('dt', {}, 'Status'),
        h('dd', {}, attempt.status, attempt.status === 'cancelled' ? ` (${CANCELLED_BECAUSE}, so never sent)` : ''),
        attempt.test && [h('dt', {}, 'Test'), h('dd', {}, TEST_EXPLAINED)],
        h('dt', {}, 'Response'),
        h('dd', {}, attempt.response_status === null ? '—' : String(attempt.response_status), attempt.duration_ms === null ? '' : ` in ${attempt.duration_ms} ms`),
        attempt.error && [h('dt', {}, 'Error'), h('dd', {}, attempt.error)],
      ),
      block('Request headers', headers, 'Not sent yet'),
      block('Request body', pretty(attempt.request_body)),
      block('Response body', attempt.response_body ?? ''),
    );
  }

  function show(attempt: Attempt): void {
    shown = attempt;
    drawn = JSON.stringify(attempt);
    draw(attempt);
    element.hidden = false;
    opened(true);
    element.focus();
  }

  function update(attempts: readonly Attempt[]): void {
    if (shown === null) return;
    const id = shown.id;
    const fresh = attempts.find((attempt) => attempt.id === id);
    if (!fresh) return;
    const text = JSON.stringify(fresh);
    if (text === drawn) return;
    shown = fresh;
    drawn = text;
    keepFocus(element, () => draw(fresh));
  }

  return { element, shownId: () => shown?.id ?? null, show, update };
}

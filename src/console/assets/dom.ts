// Small DOM helpers for the console: elements built from data (text is always set as text, never as
// HTML), dates, alerts, confirmations and a copy button.

/** An attribute's value: false, null and undefined leave it out, true sets it empty; `on…` takes a listener. */
export type AttributeValue = string | number | boolean | null | undefined | ((event: Event) => void);
export type Attributes = Record<string, AttributeValue>;
/** What an element holds: nodes, text (numbers and true are written as text), nothing, or lists of these. */
export type Child = Node | string | number | boolean | null | undefined | readonly Child[];

/**
 * h('button', { class: 'x', onclick }, 'text', child) builds an element. Attributes whose value is
 * false, null or undefined are left out; `on…` attributes become listeners.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'value' && 'value' in element) element.value = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element: HTMLElement, children: readonly Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(element, child);
    else if (child !== null && child !== undefined && child !== false) element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what an element holds. */
export function fill(element: HTMLElement, ...children: Child[]): void {
  element.replaceChildren();
  append(element, children);
}

/** A time as people read it, with the exact value for machines and tooltips. */
export function time(iso: string | null): HTMLElement {
  if (!iso) return h('span', { class: 'muted' }, '—');
  const date = new Date(iso);
  return h('time', { datetime: iso, title: iso }, date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));
}

/**
 * The fields an alert shows of a failure. An ApiError has them all; anything else that was thrown (a
 * TypeError, `{ detail }` from a form's own check) may have some, so each is read as unknown.
 */
interface Failure {
  detail?: unknown;
  message?: unknown;
  code?: unknown;
  requestId?: unknown;
}

/** An error from the API in words: its detail, with the code and request id for support. */
export function errorBox(error: unknown): HTMLElement {
  const failure: Failure = typeof error === 'object' && error !== null ? error : {};
  const box = h('div', { class: 'alert error', role: 'alert' }, h('p', {}, String(failure.detail ?? failure.message ?? error)));
  if (failure.code) box.append(h('p', { class: 'muted small' }, `Code ${failure.code}${failure.requestId ? ` · request ${failure.requestId}` : ''}`));
  return box;
}

/** A polite status message, read out by screen readers without moving focus. */
export function notice(text: string): HTMLElement {
  return h('div', { class: 'alert ok', role: 'status' }, text);
}

/** Asks before something that cannot be undone, in a modal dialog (Escape cancels). */
export function confirmAction(question: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': 'confirm-title' },
      h(
        'form',
        { method: 'dialog' },
        h('h2', { id: 'confirm-title' }, question),
        h(
          'div',
          { class: 'actions' },
          h('button', { value: 'cancel', class: 'secondary' }, 'Cancel'),
          h('button', { value: 'confirm', class: 'danger' }, confirmLabel),
        ),
      ),
    );
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'confirm');
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** A read-only field with a Copy button, for a secret that is shown to be copied. */
export function copyField(label: string, value: string, id: string): HTMLElement {
  const input = h('input', { id, type: 'text', readonly: true, value, class: 'secret', spellcheck: 'false' });
  const status = h('span', { class: 'muted small', role: 'status' });
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Without clipboard permission: the selected text is copied the old way.
          document.execCommand('copy');
        }
        fill(status, 'Copied');
      },
    },
    'Copy',
  );
  return h('div', { class: 'copy-field' }, h('label', { for: id }, label), h('div', { class: 'row' }, input, copy), status);
}

/** A table that turns into labelled cards on narrow screens. */
export function table(caption: string, headings: readonly string[], rows: readonly (readonly Child[])[]): HTMLTableElement {
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, headings.map((heading) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell, i) => h('td', { 'data-label': headings[i] }, cell))))),
  );
}

/** Runs an action from a button: disables it meanwhile and shows a failure in `errors`. */
export async function act(button: HTMLButtonElement, errors: HTMLElement, work: () => Promise<void>): Promise<void> {
  button.disabled = true;
  fill(errors);
  try {
    await work();
  } catch (error) {
    fill(errors, errorBox(error));
  } finally {
    button.disabled = false;
  }
}

/** A form whose submit runs `work` through act(): its submit button waits, a failure shows in `errors`. */
export function actionForm(attributes: Attributes, errors: HTMLElement, work: () => Promise<void>, ...children: Child[]): HTMLFormElement {
  const form = h('form', attributes, ...children);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // The console's forms are submitted by their submit button (Enter in a field presses it).
    const button = event.submitter ?? form.querySelector('[type=submit]');
    if (button instanceof HTMLButtonElement) void act(button, errors, work);
  });
  return form;
}

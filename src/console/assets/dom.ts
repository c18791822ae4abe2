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

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
/** Up to how many seconds each unit is used for a relative time; beyond the last, the date itself. */
const UNITS: readonly [limit: number, seconds: number, unit: Intl.RelativeTimeFormatUnit][] = [
  [45, 1, 'second'],
  [45 * 60, 60, 'minute'],
  [22 * 3600, 3600, 'hour'],
  [6 * 86_400, 86_400, 'day'],
];

/** "2 minutes ago", "in 3 hours", "yesterday"; a date further away than a week as the date and time. */
export function relativeTime(date: Date, now: number = Date.now()): string {
  const seconds = (date.getTime() - now) / 1000;
  if (Math.abs(seconds) < 45) return seconds <= 0 ? 'just now' : 'in a few seconds';
  const unit = UNITS.find(([limit]) => Math.abs(seconds) < limit);
  if (!unit) return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return RELATIVE.format(Math.round(seconds / unit[1]), unit[2]);
}

/** The exact time, in the reader's time zone, as a tooltip shows it. */
const exactTime = (date: Date) => date.toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long' });

/**
 * A time as people read it: relative ("2 minutes ago"), with the exact time on hover and for machines.
 * app.ts keeps the relative words current while a page stays open (refreshTimes).
 */
export function time(iso: string | null): HTMLElement {
  if (!iso) return h('span', { class: 'muted' }, '—');
  const date = new Date(iso);
  return h('time', { datetime: iso, title: exactTime(date) }, relativeTime(date));
}

/** Brings every relative time on the page up to now. */
export function refreshTimes(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLTimeElement>('time[datetime]')) element.textContent = relativeTime(new Date(element.dateTime));
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

/** A time for a datetime-local field (the reader's local time, to the minute), from RFC 3339. */
export function localDateTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * An error from the API in words: its detail, then `help` (who can help, where to ask), and the code and
 * request id for support behind a "Details" toggle, out of the way of the words.
 */
export function errorBox(error: unknown, help: Child = null): HTMLElement {
  const failure: Failure = typeof error === 'object' && error !== null ? error : {};
  const box = h('div', { class: 'alert error', role: 'alert' }, h('p', {}, String(failure.detail ?? failure.message ?? error)), help && h('p', {}, help));
  if (failure.code) {
    box.append(
      h('details', { class: 'small' }, h('summary', {}, 'Details'), h('p', { class: 'muted' }, `Code ${failure.code}${failure.requestId ? ` · request ${failure.requestId}` : ''}`)),
    );
  }
  return box;
}

/** A polite status message, read out by screen readers without moving focus. */
export function notice(text: string): HTMLElement {
  return h('div', { class: 'alert ok', role: 'status' }, text);
}

/**
 * Asks before an action, in a modal dialog (Escape cancels); `details` say what follows (text, or the
 * choices the action takes). The confirming button is red for what cannot be undone, blue otherwise.
 */
export function confirmAction(
  question: string,
  confirmLabel: string,
  details: readonly (string | HTMLElement)[] = [],
  confirmClass: 'danger' | 'primary' = 'danger',
): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': 'confirm-title' },
      h(
        'form',
        { method: 'dialog' },
        h('h2', { id: 'confirm-title' }, question),
        details.map((detail) => (typeof detail === 'string' ? h('p', {}, detail) : detail)),
        h(
          'div',
          { class: 'actions' },
          h('button', { value: 'cancel', class: 'secondary' }, 'Cancel'),
          h('button', { value: 'confirm', class: confirmClass }, confirmLabel),
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

/**
 * A Copy button for `text` (read when pressed); `name`, when given, is what it copies, for its accessible
 * name (a button beside a labelled field goes without: the field's label is its context, and a second
 * element named with the label would answer to it too). It says "Copied" in a polite live region beside
 * it and, with no clipboard permission, falls back to copying what `select` selects, the old way.
 */
export function copyButton(name: string | null, text: () => string, select?: () => void): HTMLElement {
  const status = h('span', { class: 'muted small', role: 'status' });
  const button = h(
    'button',
    {
      type: 'button',
      class: 'secondary small',
      'aria-label': name === null ? null : `Copy ${name}`,
      onclick: async () => {
        select?.();
        try {
          await navigator.clipboard.writeText(text());
        } catch {
          document.execCommand('copy');
        }
        fill(status, 'Copied');
      },
    },
    'Copy',
  );
  return h('span', { class: 'copy' }, button, status);
}

/** A read-only field with a Copy button, for a secret that is shown to be copied. */
export function copyField(label: string, value: string, id: string): HTMLElement {
  const input = h('input', { id, type: 'text', readonly: true, value, class: 'secret', spellcheck: 'false' });
  return h('div', { class: 'copy-field' }, h('label', { for: id }, label), h('div', { class: 'row' }, input, copyButton(null, () => value, () => input.select())));
}

/**
 * Redraws part of a page without losing a keyboard's place: if focus was on an element inside `root` that
 * has `data-focus-key` and the redraw took it away, focus goes to the element with the same key, if the
 * redraw drew one (a refreshing list keeps the person on the same row's button).
 */
export function keepFocus(root: HTMLElement, redraw: () => void): void {
  const focused = document.activeElement;
  const key = focused instanceof HTMLElement && root.contains(focused) ? focused.dataset.focusKey : undefined;
  redraw();
  if (key === undefined || (document.activeElement !== null && document.activeElement !== document.body)) return;
  const again = [...root.querySelectorAll<HTMLElement>('[data-focus-key]')].find((element) => element.dataset.focusKey === key);
  again?.focus({ preventScroll: true });
}

/** A table that turns into labelled cards on narrow screens. */
export function table(caption: string, headings: readonly string[], rows: readonly (readonly Child[])[]): HTMLTableElement {
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, headings.map((heading) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, rows.map((cells) => tableRow(headings, cells))),
  );
}

/** A row of such a table: each cell labelled with its column's heading, for the cards. */
export function tableRow(headings: readonly string[], cells: readonly Child[]): HTMLTableRowElement {
  return h('tr', {}, cells.map((cell, i) => h('td', { 'data-label': headings[i] }, cell)));
}

/** A "Loading…" line for a panel whose request is on its way (read out politely, replaced by the answer). */
export function loading(text = 'Loading…'): HTMLElement {
  return h('p', { class: 'loading muted', role: 'status' }, text);
}

// A refusal whose detail names a body field: "Field 'url' must be an http:// or https:// URL".
const FIELD_DETAIL = /^Field '([^']+)' (.+)$/s;

/** Takes away the field messages of a form, before it is sent again. */
function clearFieldErrors(form: HTMLFormElement): void {
  for (const message of form.querySelectorAll('.field-error')) message.remove();
  for (const invalid of form.querySelectorAll('[aria-invalid]')) {
    invalid.removeAttribute('aria-invalid');
    invalid.removeAttribute('aria-describedby');
  }
}

/**
 * Shows a refusal beside the field it names: the form's element with `data-field` set to the API's field
 * name (an input, or a fieldset of checkboxes) gets the message under it, named by its label, and focus.
 * Answers false when the refusal names no field of this form.
 */
function showFieldError(form: HTMLFormElement, error: unknown): boolean {
  const detail = typeof error === 'object' && error !== null && 'detail' in error ? String(error.detail) : '';
  const match = FIELD_DETAIL.exec(detail);
  if (!match) return false;
  const [, name = '', words = ''] = match;
  const target = [...form.querySelectorAll<HTMLElement>('[data-field]')].find((element) => element.dataset.field === name);
  if (!target) return false;
  const labelText = target instanceof HTMLFieldSetElement ? target.querySelector('legend')?.textContent : form.querySelector(`label[for="${target.id}"]`)?.textContent;
  const label = (labelText ?? name).replace(/\s*\(optional\)$/, '');
  const message = h('p', { class: 'field-error', id: `${target.id}-error`, role: 'alert' }, `${label} ${words}`);
  if (target instanceof HTMLFieldSetElement) target.append(message);
  else target.after(message);
  target.setAttribute('aria-invalid', 'true');
  target.setAttribute('aria-describedby', message.id);
  (target instanceof HTMLFieldSetElement ? target.querySelector('input') : target)?.focus();
  return true;
}

/**
 * Runs an action from a button: disables it and marks it busy meanwhile, and shows a failure beside the
 * field it names (in the button's form) or else in `errors`.
 */
export async function act(button: HTMLButtonElement, errors: HTMLElement, work: () => Promise<void>): Promise<void> {
  const form = button.form;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  fill(errors);
  if (form) clearFieldErrors(form);
  try {
    await work();
  } catch (error) {
    if (!form || !showFieldError(form, error)) fill(errors, errorBox(error));
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    // A focused button that is disabled loses focus to the page (and a dialog closed meanwhile cannot give
    // it back): a keyboard user goes on from the button they pressed, unless the work moved focus on.
    if (button.isConnected && (document.activeElement === null || document.activeElement === document.body)) button.focus();
  }
}

/**
 * A form whose submit runs `work` through act(): its submit button waits, a failure shows beside its field
 * or in `errors`. The browser's own checks are off (novalidate): the API checks every field and its
 * refusal is shown beside the field, so a rule and its words live in one place.
 */
export function actionForm(attributes: Attributes, errors: HTMLElement, work: () => Promise<void>, ...children: Child[]): HTMLFormElement {
  const form = h('form', { novalidate: true, ...attributes }, ...children);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // The console's forms are submitted by their submit button (Enter in a field presses it).
    const button = event.submitter ?? form.querySelector('[type=submit]');
    if (button instanceof HTMLButtonElement) void act(button, errors, work);
  });
  return form;
}

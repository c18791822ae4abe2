// Small DOM helpers for the console: elements built from data (text is always set as text, never as
// HTML), dates, alerts, confirmations and a copy button.

/**
 * h('button', { class: 'x', onclick }, 'text', child) builds an element. Attributes whose value is
 * false, null or undefined are left out; `on…` attributes become listeners.
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
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

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what an element holds. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A time as people read it, with the exact value for machines and tooltips. */
export function time(iso) {
  if (!iso) return h('span', { class: 'muted' }, '—');
  const date = new Date(iso);
  return h('time', { datetime: iso, title: iso }, date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));
}

/** An error from the API in words: its detail, with the code and request id for support. */
export function errorBox(error) {
  const box = h('div', { class: 'alert error', role: 'alert' }, h('p', {}, error.detail ?? String(error.message ?? error)));
  if (error.code) box.append(h('p', { class: 'muted small' }, `Code ${error.code}${error.requestId ? ` · request ${error.requestId}` : ''}`));
  return box;
}

/** A polite status message, read out by screen readers without moving focus. */
export function notice(text) {
  return h('div', { class: 'alert ok', role: 'status' }, text);
}

/**
 * Asks before something that cannot be undone, in a modal dialog (Escape cancels).
 * @returns {Promise<boolean>}
 */
export function confirmAction(question, confirmLabel, { danger = true } = {}) {
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
          h('button', { value: 'confirm', class: danger ? 'danger' : 'primary' }, confirmLabel),
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
export function copyField(label, value, id) {
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
export function table(caption, headings, rows) {
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, headings.map((heading) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell, i) => h('td', { 'data-label': headings[i] }, cell))))),
  );
}

/** Runs an action from a button: disables it meanwhile and shows a failure in `errors`. */
export async function act(button, errors, work) {
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
export function actionForm(attributes, errors, work, ...children) {
  const form = h('form', attributes, ...children);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    act(event.submitter ?? form.querySelector('[type=submit]'), errors, work);
  });
  return form;
}

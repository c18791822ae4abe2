// The operator's people (shared decisions §11 "The operator's console"): a person found by e-mail
// address, in any case, and erased after a confirmation that names them and says what cannot be
// recalled (shared decisions §10 "Erasure").
import { api, query } from './api.js';
import type { Answer, User } from './api-types.js';
import type { PageContext } from './context.js';
import { act, actionForm, confirmAction, fill, h, notice, table, time } from './dom.js';

export async function operatorPeoplePage(context: PageContext): Promise<void> {
  const { main } = context;
  const errors = h('div');
  const found = h('div');
  const email = h('input', { id: 'find-person', type: 'email', 'data-field': 'email', autocomplete: 'off', maxlength: 320 });

  const eraseButton = (user: User): HTMLButtonElement => {
    const who = user.name ? `${user.name} (${user.email})` : user.email;
    const button = h('button', { type: 'button', class: 'danger', 'aria-label': `Erase ${who}` }, 'Erase…');
    button.addEventListener('click', async () => {
      const sure = await confirmAction(`Erase ${who}?`, 'Erase for good', [
        `${who} leaves every team and every organization-admin role; their console sessions end; their address and name are removed from everything the service keeps: events, deliveries, mail and the audit log, which keeps an opaque id.`,
        'This cannot be undone. It cannot recall what already left the service: webhook deliveries receivers got, what integrators copied through the API, mail already sent, and backups taken before (erase again after restoring one).',
      ]);
      if (!sure) return;
      await act(button, errors, async () => {
        await api.post(`/users/${user.id}/erase`);
        fill(found, notice(`${who} was erased.`));
        email.focus();
      });
    });
    return button;
  };

  const form = actionForm(
    { class: 'card', role: 'search' },
    errors,
    async () => {
      const users = (await api.get<Answer<User[]>>(`/users?${query({ email: email.value.trim() })}`)).data;
      if (users.length === 0) return fill(found, h('p', { role: 'status' }, `Nobody has the address ${email.value.trim()}.`));
      fill(found, table('The person', ['Name', 'E-mail', 'Since', ''], users.map((user) => [user.name ?? '—', user.email, time(user.created_at), eraseButton(user)])));
    },
    h('div', { class: 'field' }, h('label', { for: email.id }, 'E-mail address'), email),
    h('button', { type: 'submit', class: 'primary' }, 'Find'),
  );
  fill(main, h('h1', { tabindex: -1 }, 'People'), h('p', { class: 'muted' }, 'Find a person by e-mail address, as a request to erase them names them.'), form, errors, found);
}

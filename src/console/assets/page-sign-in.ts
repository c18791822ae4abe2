// Signing in: by e-mailed link for people, with the admin token for the operator.
import { ApiError, signInApi } from './api.js';
import type { PageContext } from './context.js';
import { actionForm, errorBox, fill, h, notice } from './dom.js';

/** `nextHash` says where to go once signed in: it depends on the session the sign-in gives. */
export function signInPage(context: PageContext, nextHash: () => string): void {
  const { main } = context;
  const errors = h('div');
  const sent = h('div');
  const email = h('input', { id: 'email', type: 'email', name: 'email', autocomplete: 'email', required: true });
  const sendButton = h('button', { type: 'submit', class: 'primary' }, 'E-mail me a sign-in link');
  // The sign-in forms keep the browser's own checks: an empty admin token would count as a wrong guess.
  const linkForm = actionForm(
    { class: 'card', novalidate: false },
    errors,
    async () => {
      fill(sent);
      try {
        const answer = await signInApi.requestLink(email.value);
        fill(sent, notice(answer.data.message));
      } catch (error) {
        // This network has asked for its share of links: said in words, with when to try again.
        if (error instanceof ApiError && error.status === 429) {
          const wait = /retry after (\d+) seconds/.exec(error.detail)?.[1];
          const when = wait ? ` Try again in ${Math.max(1, Math.ceil(Number(wait) / 60))} ${Number(wait) <= 60 ? 'minute' : 'minutes'}.` : ' Try again in a few minutes.';
          throw { detail: `Too many sign-in links were asked for from this network just now, so none was sent.${when} A link already e-mailed still works.` };
        }
        throw error;
      }
    },
    h('h2', {}, 'Sign in with your e-mail'),
    h('div', { class: 'field' }, h('label', { for: 'email' }, 'E-mail address'), email),
    sendButton,
    sent,
  );

  const token = h('input', { id: 'admin-token', type: 'password', autocomplete: 'current-password', required: true });
  const tokenButton = h('button', { type: 'submit', class: 'secondary' }, 'Sign in as operator');
  const tokenForm = actionForm(
    { class: 'card', novalidate: false },
    errors,
    async () => {
      const answer = await signInApi.withAdminToken(token.value);
      context.setSession(answer.data);
      context.navigate(nextHash());
    },
    h('h2', {}, 'Operator'),
    h('p', { class: 'muted' }, 'The admin token is printed when the service first starts, and kept in its data directory.'),
    h('div', { class: 'field' }, h('label', { for: 'admin-token' }, 'Admin token'), token),
    tokenButton,
  );

  const page = h('div', { class: 'sign-in' }, h('h1', { tabindex: -1 }, 'Sign in to the console'), errors, linkForm, tokenForm);
  fill(main, page);
}

/** Uses the token of an e-mailed link (from the URL fragment, which no server sees) to sign in. */
export async function completeSignIn(context: PageContext, token: string, nextHash: () => string): Promise<void> {
  const { main } = context;
  fill(main, h('h1', { tabindex: -1 }, 'Signing you in…'));
  try {
    const answer = await signInApi.withLink(token);
    context.setSession(answer.data);
    // The link is used up: keep it out of the history.
    history.replaceState(null, '', '#/');
    context.navigate(nextHash());
  } catch (error) {
    fill(main, h('h1', { tabindex: -1 }, 'That sign-in link does not work'), errorBox(error), h('p', {}, h('a', { href: '#/sign-in' }, 'Ask for a new link')));
  }
}

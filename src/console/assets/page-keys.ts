// API keys of a team or organization: the list, a form that opens from "New key…" and creates one (its
// full key shown once, with a copy button and a warning), and revoking with confirmation, after which the
// page says so and focus goes to the next key's Revoke button (or "New key…" when none is left). While the team's organization allows
// organization keys only, a team's page says so and offers no form.
import { api, query, signInApi } from './api.js';
import type { Answer, ApiKey, CreatedApiKey } from './api-types.js';
import type { SectionContext } from './context.js';
import { act, actionForm, confirmAction, copyField, errorBox, fill, h, loading, notice, table, time } from './dom.js';

/** The scopes the form offers: the reads are ticked; managing webhooks is asked for, and said in words. */
const SCOPES: readonly { scope: string; label: string; ticked: boolean; words?: (home: string) => string }[] = [
  { scope: 'guides:read', label: 'Read guides', ticked: true },
  { scope: 'teams:read', label: 'Read teams', ticked: true },
  { scope: 'members:read', label: 'Read members', ticked: true },
  {
    scope: 'webhooks:manage',
    label: 'Manage webhooks',
    ticked: false,
    words: (home) =>
      `The key may also register, change, pause and delete the webhook endpoints of ${home} and send deliveries again, through the management API (from CI or a deploy script, say); nothing else of it.`,
  },
];
/** Days until a key expires ('' for never), as the form's select offers them. */
const EXPIRIES: readonly (readonly [days: string, label: string])[] = [
  ['30', '30 days'],
  ['90', '90 days'],
  ['365', '1 year'],
  ['', 'Never'],
];

/**
 * What the team's organization allows its keys now (team keys refused, API access off): read afresh, as an
 * organization admin may have just changed it. Nothing for an organization's own page.
 */
async function organizationPolicy(context: SectionContext): Promise<{ teamKeysDisabled: boolean; apiDisabled: boolean }> {
  if (context.home.type !== 'team') return { teamKeysDisabled: false, apiDisabled: false };
  let session = context.session;
  try {
    session = (await signInApi.whoAmI()).data;
    context.setSession(session);
  } catch {
    // Signed out meanwhile: the list's own request says so; the page goes by what it knew.
  }
  const team = session.teams.find((each) => each.id === context.home.id);
  return { teamKeysDisabled: team?.team_keys_disabled ?? false, apiDisabled: team?.api_disabled ?? false };
}

export async function keysPage(context: SectionContext): Promise<void> {
  const { main, home } = context;
  const errors = h('div');
  const created = h('div');
  const messages = h('div');
  const list = h('div', {}, loading('Loading keys…'));
  const homeQuery = query({ home_type: home.type, home_id: home.id });

  let shownKeys: ApiKey[] = [];

  async function refresh(): Promise<void> {
    const keys = (await api.get<Answer<ApiKey[]>>(`/api-keys?${homeQuery}`)).data;
    if (keys.length === 0) return fill(list, h('p', { class: 'muted' }, 'No keys yet.'));
    shownKeys = keys;
    fill(
      list,
      table(
        'API keys',
        ['Name', 'Key', 'Scopes', 'Created', 'Expires', 'Last used', ''],
        keys.map((key) => [
          key.name,
          h('code', {}, `${key.secret_hint}…`),
          key.scopes.join(', '),
          time(key.created_at),
          key.expires_at ? time(key.expires_at) : 'Never',
          key.last_used_at ? time(key.last_used_at) : h('span', { class: 'muted' }, 'Not yet'),
          revokeButton(key),
        ]),
      ),
    );
  }

  function revokeButton(key: ApiKey): HTMLButtonElement {
    const button = h('button', { type: 'button', class: 'danger small', 'data-revoke': true, 'aria-label': `Revoke ${key.name}` }, 'Revoke');
    button.addEventListener('click', async () => {
      if (!(await confirmAction(`Revoke the key “${key.name}”? Requests with it are refused at once.`, 'Revoke key'))) return;
      const at = shownKeys.findIndex((shown) => shown.id === key.id);
      await act(button, errors, async () => {
        await api.del(`/api-keys/${key.id}`);
        fill(created);
        fill(messages, notice(`The key “${key.name}” was revoked: requests with it are refused.`));
        await refresh();
        // The key that took its place in the list, or the one before it, or else making a new one.
        const revokes = list.querySelectorAll<HTMLButtonElement>('button[data-revoke]');
        (revokes[Math.min(at, revokes.length - 1)] ?? (opener.hidden ? null : opener))?.focus();
      });
    });
    return button;
  }

  const name = h('input', { id: 'key-name', 'data-field': 'name', required: true, maxlength: 200 });
  const expiry = h('select', { id: 'key-expiry', 'data-field': 'expires_in_days' }, EXPIRIES.map(([value, label]) => h('option', { value, selected: value === '90' }, label)));
  const scopeBoxes = SCOPES.map(({ scope, label, ticked, words }) => ({
    scope,
    label,
    words: words?.(home.type === 'organization' ? 'this organization and its teams' : 'this team'),
    box: h('input', { type: 'checkbox', id: `scope-${scope}`, value: scope, checked: ticked, ...(words ? { 'aria-describedby': `scope-${scope}-words` } : {}) }),
  }));
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create key');
  const form = actionForm(
    { class: 'card', id: 'new-key-form', hidden: true, 'aria-label': 'Create a key' },
    errors,
    async () => {
      fill(messages);
      // The secret of the last key does not stay beside this attempt's refusal.
      fill(created);
      const scopes = scopeBoxes.filter((s) => s.box.checked).map((s) => s.scope);
      // Checked before asking the service; errorBox shows a thrown `detail` as it shows an ApiError's.
      if (scopes.length === 0) throw { detail: 'Pick at least one scope.' };
      const answer = await api.post<CreatedApiKey>('/api-keys', {
        home: { type: home.type, id: home.id },
        name: name.value,
        scopes,
        expires_in_days: expiry.value === '' ? null : Number(expiry.value),
      });
      fill(
        created,
        h(
          'div',
          { class: 'alert warning', role: 'status' },
          h('h3', {}, `Key “${answer.data.name}” created`),
          h('p', {}, h('strong', {}, 'Copy this key now. It is shown only this once'), ' — the service keeps only a hash of it. If it is lost, revoke it and create another.'),
          copyField('Your new API key', answer.secret, 'new-key'),
        ),
      );
      form.reset();
      closeForm();
      await refresh();
      created.querySelector('input')?.focus();
    },
    h('div', { class: 'row form-head' }, h('h2', {}, 'Create a key'), h('button', { type: 'button', class: 'secondary small', onclick: () => closeForm(true) }, 'Cancel')),
    h('div', { class: 'field' }, h('label', { for: 'key-name' }, 'Name'), name),
    h(
      'fieldset',
      { id: 'key-scopes', 'data-field': 'scopes' },
      h('legend', {}, 'Scopes'),
      scopeBoxes.map(({ scope, box, label, words }) =>
        h(
          'div',
          { class: 'check' },
          box,
          h('label', { for: `scope-${scope}` }, label, ' ', h('code', {}, scope)),
          words && h('p', { class: 'muted scope-words', id: `scope-${scope}-words` }, words),
        ),
      ),
    ),
    h('div', { class: 'field' }, h('label', { for: 'key-expiry' }, 'Expires after'), expiry),
    submit,
  );

  // The form opens from a button, which stands aside meanwhile; Cancel or Escape close it again.
  const opener = h('button', { type: 'button', class: 'primary', 'aria-controls': 'new-key-form', 'aria-expanded': 'false', onclick: openForm }, 'New key…');
  function openForm(): void {
    form.hidden = false;
    opener.hidden = true;
    opener.setAttribute('aria-expanded', 'true');
    name.focus();
  }
  function closeForm(giveFocusBack = false): void {
    form.hidden = true;
    opener.hidden = false;
    opener.setAttribute('aria-expanded', 'false');
    if (giveFocusBack) opener.focus();
  }
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closeForm(true);
  });

  const title = h('h1', { tabindex: -1 }, `API keys · ${home.name}`);
  fill(main, title, loading());
  try {
    const policy = await organizationPolicy(context);
    const disabled = policy.teamKeysDisabled;
    const organization = home.organization_name ? `The organization ${home.organization_name}` : 'The organization';
    fill(
      main,
      title,
      policy.apiDisabled &&
        h(
          'div',
          { class: 'alert warning', id: 'api-disabled' },
          h('p', {}, h('strong', {}, 'API access is switched off.'), ` ${organization} has switched API access off, so every key of this team is refused until an organization admin turns it on again in the organization's API settings.`),
        ),
      disabled
        ? h(
            'div',
            { class: 'alert warning', id: 'team-keys-disabled' },
            h('p', {}, h('strong', {}, 'Team keys are disabled.'), ` The organization${home.organization_name ? ` ${home.organization_name}` : ''} allows organization keys only, so every key of this team is refused and no new one can be created here.`),
            h('p', {}, "Ask an organization admin for an organization key, or to turn organization keys only off in the organization's API settings. The keys below can still be revoked."),
          )
        : h('p', { class: 'muted' }, home.type === 'organization' ? 'An organization key reaches every team of the organization.' : 'A team key reaches this team.'),
      errors,
      messages,
      created,
      !disabled && h('div', { class: 'row' }, opener),
      !disabled && form,
      list,
    );
    await refresh();
  } catch (error) {
    fill(main, title, errorBox(error));
  }
}

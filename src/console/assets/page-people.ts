// People of a team or an organization (shared decisions §11 "People in the console"). A team's page lists
// its members; its ADMIN members and its organization's admins add people by e-mail with a role (someone
// not known yet is invited by e-mail), change roles and remove members. An organization's page lists its
// admins, who add and remove admins the same way, and links each team's own page. Viewers and editors see
// the list without controls. Refusals (the last ADMIN of a team of no organization, the last admin of an
// organization) are shown in the service's words.
import { api } from './api.js';
import type { AddedPerson, Answer, Member, OrganizationAdmin, TeamRole } from './api-types.js';
import type { SectionContext } from './context.js';
import { act, actionForm, confirmAction, errorBox, fill, h, loading, notice, table, time } from './dom.js';

const ROLES: readonly (readonly [role: TeamRole, words: string])[] = [
  ['VIEWER', 'Viewer: reads the guides'],
  ['EDITOR', 'Editor: also writes guides'],
  ['ADMIN', 'Admin: also manages the team’s people, keys and webhooks'],
];

const nameOf = (person: { name: string | null; email: string }) => person.name ?? person.email;

export async function peoplePage(context: SectionContext): Promise<void> {
  const { main, home } = context;
  const manages = home.access === 'api';
  const errors = h('div');
  const said = h('div');
  const list = h('div', {}, loading('Loading people…'));
  const title = h('h1', { tabindex: -1 }, `People · ${home.name}`);
  const team = home.type === 'team';

  async function refresh(): Promise<void> {
    if (team) {
      const members = (await api.get<Answer<Member[]>>(`/teams/${home.id}/members`)).data;
      if (members.length === 0) return fill(list, h('p', { class: 'muted' }, 'Nobody is a member of this team yet.'));
      return fill(
        list,
        table(
          'Members',
          manages ? ['Name', 'E-mail', 'Role', 'Joined', ''] : ['Name', 'E-mail', 'Role', 'Joined'],
          members.map((member) => [
            nameOf(member),
            member.email,
            manages ? roleSelect(member) : member.role,
            time(member.joined_at),
            ...(manages ? [removeButton(member, `Remove ${nameOf(member)} from ${home.name}?`, 'They can no longer see the team’s guides or settings.', `/teams/${home.id}/members/${member.id}`)] : []),
          ]),
        ),
      );
    }
    const admins = (await api.get<Answer<OrganizationAdmin[]>>(`/organizations/${home.id}/admins`)).data;
    fill(
      list,
      table(
        'Organization admins',
        ['Name', 'E-mail', 'Admin since', ''],
        admins.map((admin) => [
          nameOf(admin),
          admin.email,
          time(admin.admin_since),
          removeButton(admin, `Remove ${nameOf(admin)} as an admin of ${home.name}?`, 'They stay a member of the teams they belong to.', `/organizations/${home.id}/admins/${admin.id}`),
        ]),
      ),
    );
  }

  /** A member's role, changed as soon as another is picked; a refusal puts the old one back. */
  function roleSelect(member: Member): HTMLSelectElement {
    const select = h(
      'select',
      { 'aria-label': `Role of ${nameOf(member)}` },
      ROLES.map(([role]) => h('option', { value: role, selected: role === member.role }, role)),
    );
    select.addEventListener('change', async () => {
      fill(said);
      fill(errors);
      try {
        await api.put(`/teams/${home.id}/members/${member.id}`, { role: select.value });
        member.role = select.value as TeamRole;
        fill(said, notice(`${nameOf(member)} is now ${member.role}.`));
      } catch (error) {
        select.value = member.role;
        fill(errors, errorBox(error));
      }
    });
    return select;
  }

  function removeButton(person: { name: string | null; email: string }, question: string, consequence: string, path: string): HTMLButtonElement {
    const button = h('button', { type: 'button', class: 'danger small', 'aria-label': `Remove ${nameOf(person)}` }, 'Remove');
    button.addEventListener('click', async () => {
      if (!(await confirmAction(question, 'Remove', [consequence]))) return;
      await act(button, errors, async () => {
        fill(said);
        await api.del(path);
        await refresh();
        fill(said, notice(`${nameOf(person)} was removed.`));
        title.focus();
      });
    });
    return button;
  }

  const email = h('input', { id: 'person-email', type: 'email', 'data-field': 'email', autocomplete: 'off', required: true, maxlength: 320 });
  const name = h('input', { id: 'person-name', 'data-field': 'name', maxlength: 200 });
  const role = h('select', { id: 'person-role', 'data-field': 'role' }, ROLES.map(([value, words]) => h('option', { value, selected: value === 'VIEWER' }, words)));
  const add = actionForm(
    { class: 'card' },
    errors,
    async () => {
      fill(said);
      const body = { email: email.value.trim(), ...(name.value.trim() ? { name: name.value.trim() } : {}), ...(team ? { role: role.value } : {}) };
      const answer = await api.post<AddedPerson<{ name: string | null; email: string }>>(team ? `/teams/${home.id}/members` : `/organizations/${home.id}/admins`, body);
      const who = nameOf(answer.data);
      const what = team ? `added to ${home.name} as ${role.value}` : `made an admin of ${home.name}`;
      fill(said, notice(answer.invited ? `${who} was ${what}, and invited by e-mail: the link in it works for 72 hours.` : `${who} was ${what}.`));
      add.reset();
      await refresh();
      email.focus();
    },
    h('h2', {}, team ? 'Add a person' : 'Add an admin'),
    h(
      'p',
      { class: 'muted small' },
      'By e-mail address. Someone who has no account yet gets one, and an e-mail saying who added them, with a link to sign in.',
    ),
    h('div', { class: 'field' }, h('label', { for: 'person-email' }, 'E-mail address'), email),
    h('div', { class: 'field' }, h('label', { for: 'person-name' }, 'Name (optional)'), name),
    team && h('div', { class: 'field' }, h('label', { for: 'person-role' }, 'Role'), role),
    h('button', { type: 'submit', class: 'primary' }, team ? 'Add person' : 'Add admin'),
  );

  const teamsOfOrganization = home.type === 'organization' ? context.session.teams.filter((each) => each.organization_id === home.id) : [];
  fill(
    main,
    title,
    errors,
    said,
    list,
    manages && add,
    teamsOfOrganization.length > 0 &&
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'People of each team'),
        h('ul', {}, teamsOfOrganization.map((each) => h('li', {}, h('a', { href: `#/team/${each.id}/people` }, each.name ?? 'Unnamed team')))),
      ),
  );
  try {
    await refresh();
  } catch (error) {
    fill(list, errorBox(error));
  }
}

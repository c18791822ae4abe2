// The operator's tenants (shared decisions §11 "The operator's console"): every organization and every
// team of none, newest first, searched by a piece of the name, with plan (changed here), API on or off,
// teams, keys and failing endpoints, each opening the tenant's own pages; and forms that make an
// organization or a team. Where the operator lands.
import { api, query } from './api.js';
import type { Answer, Page, Tenant } from './api-types.js';
import type { PageContext } from './context.js';
import { actionForm, errorBox, fill, h, loading, notice, table } from './dom.js';

const PLANS = ['free', 'starter', 'growth', 'enterprise'] as const;

export async function tenantsPage(context: PageContext & { params: URLSearchParams }): Promise<void> {
  const { main, params, navigate } = context;
  const q = params.get('q') ?? '';
  const errors = h('div');
  const said = h('div');
  const list = h('div', {}, loading('Loading tenants…'));
  let tenants: Tenant[] = [];
  let nextCursor: string | null = null;

  async function load(more = false): Promise<void> {
    const page = await api.get<Page<Tenant>>(`/tenants?${query({ q, limit: 50, cursor: more ? nextCursor : undefined })}`);
    tenants = more ? [...tenants, ...page.data] : page.data;
    nextCursor = page.next_cursor;
    if (tenants.length === 0) return fill(list, h('p', { class: 'muted' }, q ? `No organization or team has “${q}” in its name.` : 'No organizations or teams yet.'));
    fill(
      list,
      table(
        'Tenants',
        ['Name', 'Kind', 'Plan', 'API', 'Teams', 'Keys', 'Failing endpoints'],
        tenants.map((tenant) => [
          h('a', { href: `#/${tenant.type}/${tenant.id}/keys` }, tenant.name ?? 'Unnamed team'),
          tenant.type === 'organization' ? 'Organization' : 'Team',
          planSelect(tenant),
          tenant.api_enabled ? 'On' : h('strong', {}, 'Off'),
          tenant.teams ?? '—',
          tenant.keys,
          tenant.failing_endpoints > 0 ? h('strong', { class: 'warning-text' }, String(tenant.failing_endpoints)) : '0',
        ]),
      ),
      nextCursor && h('button', { type: 'button', class: 'secondary', onclick: () => load(true).catch((error: unknown) => fill(errors, errorBox(error))) }, 'Load more'),
    );
  }

  /** The tenant's plan, changed as soon as another is picked (an organization's, or a team of none's own). */
  function planSelect(tenant: Tenant): HTMLSelectElement {
    const select = h('select', { 'aria-label': `Plan of ${tenant.name ?? 'the team'}` }, PLANS.map((plan) => h('option', { value: plan, selected: plan === tenant.plan }, plan)));
    select.addEventListener('change', async () => {
      fill(said);
      fill(errors);
      try {
        await api.patch(`/${tenant.type === 'organization' ? 'organizations' : 'teams'}/${tenant.id}`, { plan: select.value });
        tenant.plan = select.value;
        fill(said, notice(`${tenant.name ?? 'The team'} is on the ${tenant.plan} plan now.`));
      } catch (error) {
        select.value = tenant.plan;
        fill(errors, errorBox(error));
      }
    });
    return select;
  }

  const search = h('input', { id: 'tenant-search', type: 'search', value: q, 'aria-describedby': 'tenant-search-words' });
  const searchForm = h(
    'form',
    { role: 'search', class: 'row', onsubmit: (event: Event) => (event.preventDefault(), navigate(`#/operator/tenants${search.value.trim() ? `?${query({ q: search.value.trim() })}` : ''}`)) },
    h('label', { for: 'tenant-search' }, 'Find by name'),
    search,
    h('button', { type: 'submit', class: 'secondary' }, 'Search'),
    h('span', { class: 'muted small', id: 'tenant-search-words' }, 'A piece of the name, in any case.'),
  );

  const made = (what: string, name: string, hash: string) =>
    fill(said, h('div', { class: 'alert ok', role: 'status' }, `${what} “${name}” was created. `, h('a', { href: hash }, 'Open it')));
  const orgName = h('input', { id: 'new-organization-name', 'data-field': 'name', maxlength: 200 });
  const orgPlan = h('select', { id: 'new-organization-plan', 'data-field': 'plan' }, PLANS.map((plan) => h('option', { value: plan, selected: plan === 'free' }, plan)));
  const newOrganization = actionForm(
    { class: 'card' },
    errors,
    async () => {
      const organization = (await api.post<Answer<{ id: string; name: string }>>('/organizations', { name: orgName.value, plan: orgPlan.value })).data;
      newOrganization.reset();
      await load();
      made('The organization', organization.name, `#/organization/${organization.id}/people`);
    },
    h('h2', {}, 'Create an organization'),
    h('div', { class: 'field' }, h('label', { for: orgName.id }, 'Name'), orgName),
    h('div', { class: 'field' }, h('label', { for: orgPlan.id }, 'Plan'), orgPlan),
    h('button', { type: 'submit', class: 'primary' }, 'Create organization'),
  );
  const teamName = h('input', { id: 'new-team-name', 'data-field': 'name', maxlength: 200 });
  const teamOrganization = h(
    'select',
    { id: 'new-team-organization', 'data-field': 'organization_id' },
    h('option', { value: '' }, 'None: a team of its own'),
    context.homes().filter((home) => home.type === 'organization').map((home) => h('option', { value: home.id }, home.name)),
  );
  const teamPlan = h('select', { id: 'new-team-plan', 'data-field': 'plan' }, PLANS.map((plan) => h('option', { value: plan, selected: plan === 'free' }, plan)));
  const newTeam = actionForm(
    { class: 'card' },
    errors,
    async () => {
      // A team of an organization is on the organization's plan.
      const body = teamOrganization.value ? { name: teamName.value, organization_id: teamOrganization.value } : { name: teamName.value, plan: teamPlan.value };
      const team = (await api.post<Answer<{ id: string; name: string }>>('/teams', body)).data;
      newTeam.reset();
      await load();
      made('The team', team.name, `#/team/${team.id}/people`);
    },
    h('h2', {}, 'Create a team'),
    h('div', { class: 'field' }, h('label', { for: teamName.id }, 'Name'), teamName),
    h('div', { class: 'field' }, h('label', { for: teamOrganization.id }, 'Organization'), teamOrganization),
    h('div', { class: 'field' }, h('label', { for: teamPlan.id }, 'Plan (for a team of its own)'), teamPlan),
    h('button', { type: 'submit', class: 'primary' }, 'Create team'),
  );

  fill(main, h('h1', { tabindex: -1 }, 'Tenants'), searchForm, errors, said, list, h('div', { class: 'columns' }, newOrganization, newTeam));
  try {
    await load();
  } catch (error) {
    fill(list, errorBox(error));
  }
}

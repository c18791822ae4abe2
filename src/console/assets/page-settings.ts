// API settings: for an organization, API access on or off and organization keys only, with its plan; for
// a team, its plan and which organization's settings rule it. A change that stops keys from working is
// confirmed first, in words that say which keys stop.
import { api } from './api.js';
import type { Answer, Organization, Team } from './api-types.js';
import type { SectionContext } from './context.js';
import { actionForm, confirmAction, errorBox, fill, h, notice } from './dom.js';

// By any name: a plan this list does not know yet is shown as the service names it.
const PLAN_NAMES: Record<string, string> = { free: 'Free', starter: 'Starter', growth: 'Growth', enterprise: 'Enterprise' };
const planLine = (plan: string) =>
  h('p', {}, 'Plan: ', h('strong', {}, PLAN_NAMES[plan] ?? plan), plan === 'growth' || plan === 'enterprise' ? ' — full guides through the API.' : ' — the API gives guide previews; full guides come with Growth and above.');

export async function settingsPage({ main, home }: SectionContext): Promise<void> {
  const title = h('h1', { tabindex: -1 }, `API settings · ${home.name}`);
  if (home.type === 'team') {
    const team = (await api.get<Answer<Team>>(`/teams/${home.id}`)).data;
    return fill(
      main,
      title,
      h(
        'section',
        { class: 'card' },
        planLine(team.plan),
        team.organization_id
          ? h('p', {}, `API access and the organization-keys-only rule are set by the organization${home.organization_name ? ` ${home.organization_name}` : ''}.`)
          : h('p', {}, 'This team has no organization: its API access is always on.'),
      ),
    );
  }
  let organization: Organization;
  try {
    organization = (await api.get<Answer<Organization>>(`/organizations/${home.id}`)).data;
  } catch (error) {
    return fill(main, title, errorBox(error));
  }
  const errors = h('div');
  const saved = h('div');
  const enabled = h('input', { type: 'checkbox', id: 'api-enabled', checked: organization.api_enabled });
  const orgOnly = h('input', { type: 'checkbox', id: 'org-keys-only', checked: organization.org_keys_only });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save settings');
  fill(
    main,
    title,
    errors,
    actionForm(
      { class: 'card' },
      errors,
      async () => {
        fill(saved);
        const stops: string[] = [];
        if (organization.api_enabled && !enabled.checked) {
          stops.push(`Every API key of ${home.name} and of its teams stops working at once: their requests are refused until API access is turned on again.`);
        }
        if (!organization.org_keys_only && orgOnly.checked && enabled.checked) {
          stops.push(`Every team key of the teams of ${home.name} stops working at once: their requests are refused. Organization keys go on working.`);
        }
        if (stops.length > 0) {
          const [question, label] = !enabled.checked
            ? ['Turn API access off?', 'Turn API access off']
            : ['Allow organization keys only?', 'Allow organization keys only'];
          if (!(await confirmAction(question, label, stops))) return;
        }
        organization = (await api.patch<Answer<Organization>>(`/organizations/${home.id}`, { api_enabled: enabled.checked, org_keys_only: orgOnly.checked })).data;
        fill(saved, notice('Settings saved.'));
      },
      planLine(organization.plan),
      h('div', { class: 'check' }, enabled, h('label', { for: 'api-enabled' }, 'API access'), h('p', { class: 'muted small' }, 'Off: every key of the organization and its teams is refused.')),
      h('div', { class: 'check' }, orgOnly, h('label', { for: 'org-keys-only' }, 'Organization keys only'), h('p', { class: 'muted small' }, 'On: only organization keys work; the teams’ own keys are refused.')),
      save,
      saved,
    ),
  );
}

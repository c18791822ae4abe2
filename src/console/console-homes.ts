// The teams and organizations a console user works in, with what they may do in each: what the console
// offers in its menus. The operator works in all of them.
import type { Plan, TeamRole } from '../db/schema.js';
import type { Executor } from '../domain/context.js';
import { type Grants, type TeamAccess, teamAccess } from '../auth/grants.js';

export interface ConsoleTeam {
  id: string;
  name: string | null;
  organization_id: string | null;
  organization_name: string | null;
  plan: Plan;
  /** The person's role on the team; null for an organization admin who is not a member, and the operator. */
  role: TeamRole | null;
  access: TeamAccess;
  /** The team's organization has organization keys only on: the team's own keys are refused. */
  team_keys_disabled: boolean;
  /** The team's organization has switched API access off: every key of the team is refused. */
  api_disabled: boolean;
}

export interface ConsoleOrganization {
  id: string;
  name: string;
  plan: Plan;
}

// The menus list at most this many of each; the operator of a very large service uses the API for the rest.
const MENU_LIMIT = 500;

export async function consoleHomes(
  db: Executor,
  grants: Grants | null,
): Promise<{ teams: ConsoleTeam[]; organizations: ConsoleOrganization[] }> {
  let organizationQuery = db.selectFrom('organizations').select(['id', 'name', 'plan']).orderBy('name').orderBy('id').limit(MENU_LIMIT);
  let teamQuery = db
    .selectFrom('teams')
    .leftJoin('organizations', 'organizations.id', 'teams.organization_id')
    .select([
      'teams.id',
      'teams.name',
      'teams.organization_id',
      'organizations.name as organization_name',
      'teams.plan as team_plan',
      'organizations.plan as organization_plan',
      'organizations.org_keys_only',
      'organizations.api_enabled',
    ])
    .orderBy('teams.name')
    .orderBy('teams.id')
    .limit(MENU_LIMIT);
  if (grants !== null) {
    const adminOf = [...grants.adminOf];
    const memberOf = [...grants.teamRoles.keys()];
    if (adminOf.length === 0 && memberOf.length === 0) return { teams: [], organizations: [] };
    if (adminOf.length > 0) organizationQuery = organizationQuery.where('id', 'in', adminOf);
    teamQuery = teamQuery.where((eb) => {
      const reached = [];
      if (memberOf.length > 0) reached.push(eb('teams.id', 'in', memberOf));
      if (adminOf.length > 0) reached.push(eb('teams.organization_id', 'in', adminOf));
      return eb.or(reached);
    });
  }
  const [organizations, teams] = await Promise.all([
    grants !== null && grants.adminOf.size === 0 ? [] : organizationQuery.execute(),
    teamQuery.execute(),
  ]);
  return {
    organizations,
    teams: teams.map(({ team_plan, organization_plan, org_keys_only, api_enabled, ...team }) => ({
      ...team,
      team_keys_disabled: Boolean(org_keys_only),
      // A team without an organization has its own API access, which the organization cannot switch off.
      api_disabled: api_enabled !== null && !api_enabled,
      plan: organization_plan ?? team_plan,
      role: grants?.teamRoles.get(team.id) ?? null,
      access: grants === null ? 'api' : teamAccess(grants, team)!,
    })),
  };
}

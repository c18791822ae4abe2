// What a signed-in person may do, from their team roles and the organizations they administer (issue 6):
// a team's ADMIN members manage that team's API settings (keys, endpoints, deliveries); an organization's
// admins manage the organization's and every one of its teams'; EDITOR members edit the team's guides and
// VIEWER members read them. The operator (admin token) may do everything and has no grants.
import type { TeamRole } from '../db/schema.js';
import type { Executor } from '../domain/context.js';

/** What a person may do on one team, each level including the ones before it. */
export type TeamAccess = 'read' | 'edit' | 'api';
const LEVELS: readonly TeamAccess[] = ['read', 'edit', 'api'];
const ROLE_ACCESS: Record<TeamRole, TeamAccess> = { VIEWER: 'read', EDITOR: 'edit', ADMIN: 'api' };

export interface Grants {
  teamRoles: ReadonlyMap<string, TeamRole>;
  adminOf: ReadonlySet<string>;
}

export async function loadGrants(db: Executor, userId: string): Promise<Grants> {
  const [memberships, organizations] = await Promise.all([
    db.selectFrom('memberships').select(['team_id', 'role']).where('user_id', '=', userId).execute(),
    db.selectFrom('organization_admins').select('organization_id').where('user_id', '=', userId).execute(),
  ]);
  return {
    teamRoles: new Map(memberships.map((row) => [row.team_id, row.role])),
    adminOf: new Set(organizations.map((row) => row.organization_id)),
  };
}

/** The person's access to a team: an organization admin's covers every team of the organization. */
export function teamAccess(grants: Grants, team: { id: string; organization_id: string | null }): TeamAccess | null {
  if (team.organization_id !== null && grants.adminOf.has(team.organization_id)) return 'api';
  const role = grants.teamRoles.get(team.id);
  return role === undefined ? null : ROLE_ACCESS[role];
}

export function reaches(access: TeamAccess | null, needed: TeamAccess): boolean {
  return access !== null && LEVELS.indexOf(access) >= LEVELS.indexOf(needed);
}

// Teams: a team belongs to at most one organization and takes its plan from it; a team without one has
// its own plan. A team can join an organization later.
import { fieldsSet, recordAudit } from './audit.js';
import type { Plan, TeamsTable } from '../db/schema.js';
import { timestamp } from './clock.js';
import { type DomainContext, type Executor, transact } from './context.js';
import { InvalidInputError, NotFoundError } from './errors.js';
import type { Home } from './homes.js';
import { newId } from './ids.js';
import { requireOrganization } from './organizations.js';
import { rememberPart } from './read-cache.js';
import { dependsOn, tag, touched } from './read-dependencies.js';
import { foldCase } from './text-fold.js';
import { TEAM_COLUMNS } from '../db/columns.js';

export type Team = TeamsTable;

export interface TeamInput {
  name?: string | null;
  organization_id?: string | null;
  plan?: Plan;
  brand_color?: string | null;
}

export async function createTeam(ctx: DomainContext, input: TeamInput): Promise<Team> {
  if (input.organization_id) {
    await requireOrganization(ctx.db, input.organization_id);
    if (input.plan !== undefined) throw new InvalidInputError('plan', "plan: a team in an organization takes the organization's plan");
  }
  const now = timestamp(ctx.clock.now());
  const row: Team = {
    id: newId(),
    name: input.name ?? null,
    organization_id: input.organization_id ?? null,
    plan: input.plan ?? 'free',
    brand_color: input.brand_color ?? null,
    created_at: now,
    updated_at: now,
  };
  await transact(ctx, async (trx) => {
    await trx.insertInto('teams').values(row).execute();
    touched(trx, 'teams', teamTags(row.id, [row.organization_id]));
    await recordAudit(ctx, trx, { action: 'team.created', target: { type: 'team', id: row.id }, home: { type: 'team', id: row.id }, organizationId: row.organization_id });
  });
  return row;
}

/** A team's row and, for each organization it leaves or joins, that organization's set of teams. */
function teamTags(teamId: string, organizationIds: (string | null)[]): string[] {
  return [tag.team(teamId), ...organizationIds.flatMap((id) => (id ? [tag.organization(id)] : []))];
}

export async function findTeam(db: Executor, id: string): Promise<Team | undefined> {
  dependsOn(db, tag.team(id));
  return db.selectFrom('teams').select(TEAM_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function requireTeam(db: Executor, id: string): Promise<Team> {
  const team = await findTeam(db, id);
  if (!team) throw new NotFoundError('Team');
  return team;
}

export async function updateTeam(ctx: DomainContext, id: string, input: TeamInput): Promise<Team> {
  const team = await requireTeam(ctx.db, id);
  const organizationId = input.organization_id === undefined ? team.organization_id : input.organization_id;
  if (input.organization_id) await requireOrganization(ctx.db, input.organization_id);
  if (organizationId && input.plan !== undefined) {
    throw new InvalidInputError('plan', "plan: a team in an organization takes the organization's plan");
  }
  const changes: Partial<Team> = { updated_at: timestamp(ctx.clock.now()), organization_id: organizationId };
  if (input.name !== undefined) changes.name = input.name;
  if (input.plan !== undefined) changes.plan = input.plan;
  if (input.brand_color !== undefined) changes.brand_color = input.brand_color;
  await transact(ctx, async (trx) => {
    await trx.updateTable('teams').set(changes).where('id', '=', id).execute();
    touched(trx, 'teams', teamTags(id, [team.organization_id, organizationId]));
    await recordAudit(ctx, trx, { action: 'team.updated', target: { type: 'team', id }, home: { type: 'team', id }, organizationId, changed: fieldsSet(input) });
    if (organizationId !== team.organization_id) {
      // Guides carry their team's organization for the organization's index (migration 0009).
      await trx.updateTable('guides').set({ organization_id: organizationId }).where('team_id', '=', id).execute();
      touched(trx, 'guides', [tag.teamGuides(id)]);
    }
  });
  return requireTeam(ctx.db, id);
}

/** The plan that rules a team: its organization's, or its own while it has none. */
export async function teamPlans(db: Executor, teamIds: readonly string[]): Promise<Map<string, Plan>> {
  if (teamIds.length === 0) return new Map();
  dependsOn(db, ...teamIds.map(tag.team));
  const teams = await db.selectFrom('teams').select(['id', 'organization_id', 'plan']).where('id', 'in', teamIds).execute();
  // Read apart, so that an answer about teams outside organizations depends on no organization.
  const organizationIds = [...new Set(teams.flatMap((team) => (team.organization_id ? [team.organization_id] : [])))];
  dependsOn(db, ...organizationIds.map(tag.organization));
  const organizationPlans = new Map<string, Plan>();
  if (organizationIds.length > 0) {
    const rows = await db.selectFrom('organizations').select(['id', 'plan']).where('id', 'in', organizationIds).execute();
    for (const row of rows) organizationPlans.set(row.id, row.plan);
  }
  return new Map(teams.map((team) => [team.id, (team.organization_id && organizationPlans.get(team.organization_id)) || team.plan]));
}

/** Teams ordered by name ignoring case, teams without a name last, then by id (decisions §4). */
export function orderTeams<T extends { id: string; name: string | null }>(teams: T[]): T[] {
  const keyed = teams.map((team) => ({ team, key: team.name === null ? null : foldCase(team.name) }));
  keyed.sort((a, b) => {
    if (a.key !== b.key) {
      if (a.key === null) return 1;
      if (b.key === null) return -1;
      return a.key < b.key ? -1 : 1;
    }
    return a.team.id < b.team.id ? -1 : a.team.id > b.team.id ? 1 : 0;
  });
  return keyed.map((entry) => entry.team);
}

/** What decides which teams a home reaches: the team itself, or the organization's set of teams. */
function homeTag(home: Home): string {
  return home.type === 'team' ? tag.team(home.id) : tag.organization(home.id);
}

/** Every team a key's home reaches: the team itself, or every team now in the organization. */
export async function teamsReachedBy(db: Executor, home: Home): Promise<Team[]> {
  dependsOn(db, homeTag(home));
  const query = db.selectFrom('teams').select(TEAM_COLUMNS);
  const teams =
    home.type === 'team'
      ? await query.where('id', '=', home.id).execute()
      : await query.where('organization_id', '=', home.id).execute();
  return orderTeams(teams);
}

/**
 * The ids of the teams a key's home reaches, or with `teamId` just that team's id: null when the home
 * does not reach it. An organization's teams are a part the read cache keeps, one per organization
 * whatever `teamId` is asked: they change far less often than the answers that need them.
 */
export async function reachedTeamIds(ctx: DomainContext, home: Home, teamId?: string): Promise<string[] | null> {
  let ids: string[];
  if (home.type === 'team') {
    dependsOn(ctx.db, homeTag(home));
    ids = [home.id];
  } else {
    ids = await rememberPart(ctx, `reach:${home.id}`, async ({ db }) => {
      dependsOn(db, homeTag(home));
      return (await db.selectFrom('teams').select('id').where('organization_id', '=', home.id).execute()).map((row) => row.id);
    });
  }
  if (teamId === undefined) return ids;
  return ids.includes(teamId) ? [teamId] : null;
}

// The list query of GET /v1/guides: the newest visible guides of some teams after a keyset position,
// with an optional filter. Every team of an organization is one range of the organization index; for a
// handful of other teams, each team's newest guides are found in its own range of the team index and
// merged, so a page costs a few index seeks per team whatever the table holds. The rows themselves
// (large: they carry the steps) are read only for the guides on the page.
import { type Expression, type SqlBool, sql } from 'kysely';
import { rememberEach } from '../read-cache.js';
import type { DomainContext } from '../context.js';
import { afterPosition, type KeysetPosition } from '../keyset-cursor.js';
import { dependsOn, tag } from '../read-dependencies.js';

export const MERGE_TEAMS_UP_TO = 64;

const LIST_COLUMNS = [
  'g.id',
  'g.team_id',
  'g.created_at',
  'g.updated_at',
  'g.title',
  'g.description',
  'u.name as owner_name',
  'g.icon_url',
  'g.permalink',
  'g.publish_status',
] as const;

/** Guides still processing are nobody's to see through the API. */
export function visible(): Expression<SqlBool> {
  return sql<SqlBool>`g.processing_state <> 'processing'`;
}

export function notOlderThan(position: KeysetPosition): Expression<SqlBool> {
  return sql<SqlBool>`(g.created_at, g.id) >= (${position.createdAt}, ${position.id})`;
}

/** Which guides a list is over: one team, some teams, or (one index range) every team of an organization. */
export type Owners = { teamIds: readonly string[] } | { organizationId: string };

export function ownerCondition(owners: Owners): Expression<SqlBool> {
  if ('organizationId' in owners) return sql<SqlBool>`g.organization_id = ${owners.organizationId}`;
  const { teamIds } = owners;
  return teamIds.length === 1 ? sql<SqlBool>`g.team_id = ${teamIds[0]}` : sql<SqlBool>`g.team_id IN (${sql.join(teamIds)})`;
}

/**
 * The positions of the owners' visible guides, newest first, after `after` and meeting every condition:
 * only columns of the team index (team_id, created_at, id, processing_state, title_folded) or of the
 * organization index are read, so the walk never touches the table.
 */
function positionsOf(ctx: DomainContext, owners: Owners, after: KeysetPosition | null, conditions: Expression<SqlBool>[], fetch: number) {
  let select = ctx.db.selectFrom('guides as g').select(['g.id', 'g.created_at']).where(ownerCondition(owners)).where(visible());
  if (after) select = select.where(afterPosition('g', after));
  for (const condition of conditions) select = select.where(condition);
  return select.orderBy('g.created_at', 'desc').orderBy('g.id', 'desc').limit(fetch);
}

function listRowQuery(ctx: DomainContext) {
  return ctx.db.selectFrom('guides as g').leftJoin('users as u', 'u.id', 'g.owner_id').select(LIST_COLUMNS);
}

export type GuideListRow = Awaited<ReturnType<ReturnType<typeof listRowQuery>['execute']>>[number];

/** Where a guide is in the newest-first order of a list. */
export interface GuidePosition {
  id: string;
  created_at: string;
}

/** A guide's row in the read cache, as a part of the pages that show it. */
const ROW_KEY = 'list-row:';

/**
 * The rows of these guides, in this order. Each is a part the read cache keeps (depending on its guide
 * and on people's names): an edit drops every page that shows the guide, and each of them is computed
 * again with the one row that changed read from the store (bench/CHANGES.md). A guide deleted since its
 * position was read is left out.
 */
export async function listRows(ctx: DomainContext, positions: readonly GuidePosition[]): Promise<GuideListRow[]> {
  const ids = positions.map((position) => position.id);
  const rows = await rememberEach(ctx, ids.map((id) => ROW_KEY + id), async (missing) => {
    const read = await listRowQuery(ctx)
      .where('g.id', 'in', missing.map((key) => key.slice(ROW_KEY.length)))
      .execute();
    return new Map(read.map((row) => [ROW_KEY + row.id, { value: row, tags: [tag.guide(row.id), tag.users()] }]));
  });
  return ids.flatMap((id) => rows.get(ROW_KEY + id) ?? []);
}

export interface ListQuery {
  teamIds: readonly string[];
  /** Set when `teamIds` are every team of this organization: its own index then answers. */
  organizationId: string | null;
  after: KeysetPosition | null;
  fetch: number;
}

/**
 * The first `fetch` guides of the teams. `perTeam` adds conditions for one team's own range; `merge:
 * false` reads all teams in one query instead, for a filter answered by its own index (perTeam unused).
 */
export async function newestGuides(
  ctx: DomainContext,
  { teamIds, organizationId, after, fetch }: ListQuery,
  options: { conditions?: Expression<SqlBool>[]; perTeam?: (teamId: string) => Expression<SqlBool>[]; merge?: boolean } = {},
): Promise<GuidePosition[]> {
  dependsOn(ctx.db, ...teamIds.map(tag.teamGuides));
  const conditions = options.conditions ?? [];
  const forTeam = (teamId: string) => [...conditions, ...(options.perTeam?.(teamId) ?? [])];
  if (organizationId !== null && !options.perTeam) return positionsOf(ctx, { organizationId }, after, conditions, fetch).execute();
  const merge = options.merge !== false && teamIds.length > 1 && teamIds.length <= MERGE_TEAMS_UP_TO;
  if (!merge) {
    const only = teamIds.length === 1 ? forTeam(teamIds[0]!) : conditions;
    return positionsOf(ctx, { teamIds }, after, only, fetch).execute();
  }
  // Each team's newest positions from its own index range, merged; only the page's rows are then read.
  const arms = teamIds.map((teamId, i) => ctx.db.selectFrom(positionsOf(ctx, { teamIds: [teamId] }, after, forTeam(teamId), fetch).as(`t${i}`)).selectAll());
  const [first, ...rest] = arms;
  let union = first!;
  for (const arm of rest) union = union.unionAll(arm);
  return union.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(fetch).execute();
}

/** Per team, the position of its `depth`-th visible guide after `after`; teams with fewer have none. */
export async function positionsAtDepth(
  ctx: DomainContext,
  teamIds: readonly string[],
  after: KeysetPosition | null,
  depth: number,
): Promise<Map<string, KeysetPosition>> {
  dependsOn(ctx.db, ...teamIds.map(tag.teamGuides));
  const arms = teamIds.map((teamId, i) => {
    let select = ctx.db.selectFrom('guides as g').select(['g.team_id', 'g.created_at', 'g.id']).where('g.team_id', '=', teamId).where(visible());
    if (after) select = select.where(afterPosition('g', after));
    return ctx.db.selectFrom(select.orderBy('g.created_at', 'desc').orderBy('g.id', 'desc').limit(1).offset(depth - 1).as(`d${i}`)).selectAll();
  });
  const [first, ...rest] = arms;
  let union = first!;
  for (const arm of rest) union = union.unionAll(arm);
  const rows = await union.execute();
  return new Map(rows.map((row) => [row.team_id, { createdAt: row.created_at, id: row.id }]));
}

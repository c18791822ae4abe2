// Reading guides as a key sees them (spec §4.2, §4.3): every guide of the teams it reaches, drafts
// included, processing ones excluded; newest first in keyset pages; each with its `locked` flag.
import { type SqlBool, sql } from 'kysely';
import type { Plan } from '../../db/schema.js';
import type { DomainContext, Executor } from '../context.js';
import { isUuidShaped } from '../ids.js';
import { planRules } from '../plans.js';
import { teamPlans } from '../teams.js';
import { dependsOn, searchesTitles, tag } from '../read-dependencies.js';
import { type KeysetPosition, pageOf, rowsToRead } from '../keyset-cursor.js';
import type { GuideRow } from './guide-record.js';
import { isValidPermalink } from './permalink.js';
import { type GuidePosition, listRows, newestGuides, ownerCondition, visible } from './guide-list-query.js';
import { rememberPart } from '../read-cache.js';
import { searchByWalking } from './guide-search-walk.js';
import { titleSearch } from './title-search.js';
import { rankedPositions } from './word-search.js';
import { GUIDE_COLUMNS } from '../../db/columns.js';

export interface GuideListItem {
  id: string;
  team_id: string;
  created_at: string;
  updated_at: string;
  title: string | null;
  description: string | null;
  owner_name: string | null;
  icon_url: string | null;
  permalink: string;
  publish_status: 'DRAFT' | 'PUBLISHED';
  locked: boolean;
}

export interface GuidePageQuery {
  teamIds: readonly string[];
  /** Set when `teamIds` are every team of this organization (an organization key without team_id). */
  organizationId: string | null;
  q: string | undefined;
  limit: number;
  after: KeysetPosition | null;
}

export interface GuidePage {
  items: GuideListItem[];
  /** Where the next page starts, or null on the last page. */
  next: KeysetPosition | null;
}

/** Below this many matches in the whole service, a search reads them from the trigram index. */
const FEW_MATCHES = 1000;

/**
 * A page of guides, made of parts the read cache keeps apart (docs/decisions.md, "The read cache"): the
 * positions of the page's guides, each guide's row, and the teams' lock cutoffs. An edit changes one
 * row and leaves the positions and the cutoffs as they were, so a page computed again after it reads
 * only that row from the store.
 */
export async function guidePage(ctx: DomainContext, query: GuidePageQuery): Promise<GuidePage> {
  if (query.teamIds.length === 0) return { items: [], next: null };
  const page = pageOf(await pagePositions(ctx, query), query.limit);
  const rows = await listRows(ctx, page.rows);
  const { cutoffs } = await locksOf(ctx, [...new Set(rows.map((row) => row.team_id))]);
  return { items: rows.map((row) => ({ ...row, locked: isLocked(cutoffs, row) })), next: page.next };
}

export interface RankedPageQuery extends Omit<GuidePageQuery, 'q'> {
  /** The words searched for (word-search.ts searchWords); a page of none is empty. */
  words: string[];
}

/**
 * A page of the guides whose titles contain the most of `words`, then the newest (word-search.ts), for
 * MCP's search_guides. Its rows and lock cutoffs are the parts guidePage reads through the read cache;
 * the ranking itself is read from the store each time.
 */
export async function rankedGuidePage(ctx: DomainContext, query: RankedPageQuery): Promise<GuidePage> {
  if (query.teamIds.length === 0) return { items: [], next: null };
  const owners = query.organizationId === null ? { teamIds: query.teamIds } : { organizationId: query.organizationId };
  const positions = await rankedPositions(ctx.db, ctx.dialect, {
    owners: ownerCondition(owners),
    conditions: [visible()],
    words: query.words,
    after: query.after,
    fetch: rowsToRead(query.limit),
  });
  const page = pageOf(positions, query.limit);
  const rows = await listRows(ctx, page.rows);
  const { cutoffs } = await locksOf(ctx, [...new Set(rows.map((row) => row.team_id))]);
  return { items: rows.map((row) => ({ ...row, locked: isLocked(cutoffs, row) })), next: page.next };
}

/** The positions of the page's guides and of the one after it, which says whether a next page exists. */
function pagePositions(ctx: DomainContext, query: GuidePageQuery): Promise<GuidePosition[]> {
  const key = JSON.stringify(['positions', query.teamIds, query.organizationId, query.q ?? null, query.limit, query.after]);
  return rememberPart(ctx, key, async (reader) => {
    const list = { teamIds: query.teamIds, organizationId: query.organizationId, after: query.after, fetch: rowsToRead(query.limit) };
    const search = query.q === undefined ? null : titleSearch(reader.dialect, query.q);
    if (search) searchesTitles(reader.db, query.teamIds, search.term);
    if (!search) return newestGuides(reader, list);
    if (!search.indexed) return newestGuides(reader, list, { conditions: [search.perRow] });
    if (search.countUpTo && (await search.countUpTo(reader.db, FEW_MATCHES)) < FEW_MATCHES) {
      // A rare term: its few matches in the whole service, filtered to the key's teams, are the page.
      return newestGuides(reader, list, { conditions: [search.indexed], merge: false });
    }
    // A common term over a whole organization: one walk of its range, which finds a page of matches soon.
    if (list.organizationId !== null) return newestGuides(reader, list, { conditions: [search.perRow] });
    return (await searchByWalking(reader, list, search.perRow)) ?? (await newestGuides(reader, list, { conditions: [search.indexed], merge: false }));
  });
}

/** Per team, its plan and where its locked guides begin (see lockCutoffs), as a part the read cache keeps. */
function locksOf(ctx: DomainContext, teamIds: readonly string[]): Promise<{ plans: Map<string, Plan>; cutoffs: Map<string, KeysetPosition | null> }> {
  const sorted = [...teamIds].sort();
  return rememberPart(ctx, JSON.stringify(['locks', sorted]), async (reader) => {
    const plans = await teamPlans(reader.db, sorted);
    return { plans, cutoffs: await lockCutoffs(reader.db, plans) };
  });
}

/**
 * Per team on a plan with a guide limit, the position of its last unlocked guide: its guides ordered by
 * created_at then id, processing ones not counted, the first N are unlocked (decisions §3). A team
 * with no entry, or with a null one, has nothing locked.
 */
export async function lockCutoffs(db: Executor, plans: Map<string, Plan>): Promise<Map<string, KeysetPosition | null>> {
  const cutoffs = new Map<string, KeysetPosition | null>();
  dependsOn(db, ...[...plans.keys()].map(tag.teamGuides));
  for (const [teamId, plan] of plans) {
    const limit = planRules(plan).guideLimit;
    if (limit === null) continue;
    const row = await db
      .selectFrom('guides as g')
      .select(['g.created_at', 'g.id'])
      .where('g.team_id', '=', teamId)
      .where(visible())
      .orderBy('g.created_at')
      .orderBy('g.id')
      .limit(1)
      .offset(limit - 1)
      .executeTakeFirst();
    cutoffs.set(teamId, row ? { createdAt: row.created_at, id: row.id } : null);
  }
  return cutoffs;
}

export function isLocked(cutoffs: Map<string, KeysetPosition | null>, guide: { team_id: string; created_at: string; id: string }): boolean {
  const cutoff = cutoffs.get(guide.team_id);
  if (!cutoff) return false;
  return guide.created_at > cutoff.createdAt || (guide.created_at === cutoff.createdAt && guide.id > cutoff.id);
}

export interface VisibleGuide {
  row: GuideRow;
  ownerName: string | null;
  brandColor: string | null;
  plan: Plan;
  locked: boolean;
}

/** A guide with what its answers need besides its own row: owner, team color, plan and lock state. */
export async function describeGuide(ctx: DomainContext, row: GuideRow): Promise<VisibleGuide> {
  const { db } = ctx;
  dependsOn(db, tag.team(row.team_id), tag.users());
  const extra = await db
    .selectFrom('teams as t')
    .leftJoin('users as u', (join) => join.on('u.id', '=', row.owner_id ?? ''))
    .select(['u.name as owner_name', 't.brand_color'])
    .where('t.id', '=', row.team_id)
    .executeTakeFirstOrThrow();
  const { plans, cutoffs } = await locksOf(ctx, [row.team_id]);
  const locked = row.processing_state !== 'processing' && isLocked(cutoffs, row);
  return { row, ownerName: extra.owner_name, brandColor: extra.brand_color, plan: plans.get(row.team_id)!, locked };
}

/**
 * The guide a `guideId` names among the teams a key reaches: a UUID-shaped value (any letter case) is an
 * id, anything else a permalink (decisions §2). Processing guides are not visible.
 */
export async function findVisibleGuide(ctx: DomainContext, teamIds: readonly string[], guideId: string): Promise<VisibleGuide | null> {
  if (teamIds.length === 0) return null;
  const { db } = ctx;
  const byId = isUuidShaped(guideId);
  if (!byId && !isValidPermalink(guideId)) return null;
  const row = await db
    .selectFrom('guides as g')
    .select(GUIDE_COLUMNS.map((column) => `g.${column}` as const))
    .where(byId ? sql<SqlBool>`g.id = ${guideId}` : sql<SqlBool>`g.permalink = ${guideId}`)
    .where('g.team_id', 'in', teamIds)
    .where(visible())
    .executeTakeFirst();
  // Ids and permalinks are unique: a guide found stays the one named until its own team's guides change
  // (a move changes both teams); that none is found can change with any guide of these teams.
  dependsOn(db, ...(row ? [tag.teamGuides(row.team_id), tag.guide(row.id)] : teamIds.map(tag.teamGuides)));
  return row ? describeGuide(ctx, row) : null;
}

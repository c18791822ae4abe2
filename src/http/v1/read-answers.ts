// What the v1 reads answer for a key, whoever asks: the v1 routes (through the read cache) and the MCP
// tools (src/http/mcp), so that both read, refuse and present guides, teams and members the same way.
import type { ApiKey } from '../../domain/api-keys.js';
import type { DomainContext } from '../../domain/context.js';
import { guideBodyForPlan } from '../../domain/guides/guide-body.js';
import { findVisibleGuide, guidePage, rankedGuidePage } from '../../domain/guides/guide-reads.js';
import { searchWords } from '../../domain/guides/word-search.js';
import { listMembers } from '../../domain/members.js';
import { reachedTeamIds, teamsReachedBy } from '../../domain/teams.js';
import { keysetList } from '../keyset-page.js';
import { invalidRequest, notFound } from '../problem.js';
import { presentGuide, presentGuideListItem, presentMember, presentTeam } from './presenters.js';

export interface GuideListQuery {
  teamId: string | undefined;
  q: string | undefined;
  limit: number;
  cursor: string | undefined;
}

/**
 * A page of the guides the key reaches, newest first. The cursor is bound to the key and the filters, so
 * that one made by either interface works in the other; `searchName` is what the asker calls `q`.
 */
export function guideList(ctx: DomainContext, reader: DomainContext, key: ApiKey, query: GuideListQuery, searchName = 'q') {
  const { teamId, q, limit, cursor } = query;
  const binding = { holder: key.id, filters: [teamId, q] };
  const refusal = `Parameter 'cursor' is not a cursor of this list: pass next_cursor unchanged, with the same team_id and ${searchName}`;
  return keysetList(ctx.cursorSecret, binding, cursor, refusal, async (after) => {
    const teamIds = await reachedTeamIds(reader, key.home, teamId);
    if (teamIds === null) throw notFound('No team with that team_id is reachable with this key');
    const organizationId = key.home.type === 'organization' && teamId === undefined ? key.home.id : null;
    const page = await guidePage(reader, { teamIds, organizationId, q, limit, after });
    return { items: page.items.map(presentGuideListItem), next: page.next };
  });
}

export interface GuideSearchQuery {
  teamId: string | undefined;
  query: string;
  limit: number;
  cursor: string | undefined;
}

/**
 * MCP's search_guides with a query: the guides the key reaches whose titles contain the most of its words.
 * A query of common words alone is refused: an empty list would read as "no such guide".
 */
export function guideSearch(ctx: DomainContext, key: ApiKey, search: GuideSearchQuery) {
  const { teamId, query, limit, cursor } = search;
  const words = searchWords(query);
  if (words.length === 0) throw invalidRequest("Parameter 'query' has no word to search for: common words such as 'how', 'do' and 'the' are left out");
  const binding = { holder: key.id, filters: ['words', teamId, query] };
  const refusal = "Parameter 'cursor' is not a cursor of this search: pass next_cursor unchanged, with the same team_id and query";
  return keysetList(ctx.cursorSecret, binding, cursor, refusal, async (after) => {
    const teamIds = await reachedTeamIds(ctx, key.home, teamId);
    if (teamIds === null) throw notFound('No team with that team_id is reachable with this key');
    const organizationId = key.home.type === 'organization' && teamId === undefined ? key.home.id : null;
    const page = await rankedGuidePage(ctx, { teamIds, organizationId, words, limit, after });
    return { items: page.items.map(presentGuideListItem), next: page.next };
  });
}

/** One guide the key may see, by id or permalink, its body cut as the key's plan has it. */
export async function guideForKey(ctx: DomainContext, reader: DomainContext, key: ApiKey, guideId: string) {
  const teamIds = (await reachedTeamIds(reader, key.home)) ?? [];
  const found = await findVisibleGuide(reader, teamIds, guideId);
  if (!found) throw notFound('No guide this key may see has that id or permalink');
  return presentGuide(found, guideBodyForPlan(found.row, found.plan, found.locked, ctx.settings.previewSteps));
}

/** GET /v1/teams: the teams the key reaches. */
export async function teamList(reader: DomainContext, key: ApiKey) {
  return { data: (await teamsReachedBy(reader.db, key.home)).map(presentTeam) };
}

/** GET /v1/members: the members of one team the key reaches. */
export async function memberList(reader: DomainContext, key: ApiKey, teamId: string) {
  if (!(await reachedTeamIds(reader, key.home, teamId))) throw notFound('No team with that team_id is reachable with this key');
  return { data: (await listMembers(reader.db, teamId)).map(presentMember) };
}

// Search by walking: for a term that many titles contain, the newest guides of each team are read in
// index order and tested one by one, so a page costs a few hundred rows whatever the table holds. The
// trigram index, by contrast, yields every match in the service before the teams and the order are
// applied, which is fast for rare terms and slow for common ones. The walk reads a bounded window per team
// and keeps only what it can prove is the page; when the window holds too few matches it gives up and the
// caller asks the trigram index instead.
import type { Expression, SqlBool } from 'kysely';
import type { DomainContext } from '../context.js';
import type { KeysetPosition } from '../keyset-cursor.js';
import { type GuidePosition, type ListQuery, MERGE_TEAMS_UP_TO, newestGuides, notOlderThan, positionsAtDepth } from './guide-list-query.js';

/**
 * Index entries read by each round of the walk, over all teams (each team reads at least MIN_WINDOW): a
 * short round for common terms, then a long one that reads every guide of most organizations, so that
 * only large ones fall back to the trigram index.
 */
const WALK_ROUNDS = [4000, 32_000];
const MIN_WINDOW = 200;

function compare(a: KeysetPosition, b: KeysetPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The page of matches, or null when the walk cannot tell it within its rounds. */
export async function searchByWalking(ctx: DomainContext, query: ListQuery, perRow: Expression<SqlBool>): Promise<GuidePosition[] | null> {
  if (query.teamIds.length > MERGE_TEAMS_UP_TO) return null;
  for (const rows of WALK_ROUNDS) {
    const page = await walkRound(ctx, query, perRow, Math.max(MIN_WINDOW, Math.ceil(rows / query.teamIds.length)));
    if (page) return page;
  }
  return null;
}

async function walkRound(ctx: DomainContext, query: ListQuery, perRow: Expression<SqlBool>, window: number): Promise<GuidePosition[] | null> {
  // A team whose window ends before its guides do has a bound: its unread guides are all older.
  const bounds = await positionsAtDepth(ctx, query.teamIds, query.after, window);
  const rows = await newestGuides(ctx, query, {
    conditions: [perRow],
    perTeam: (teamId) => {
      const bound = bounds.get(teamId);
      return bound ? [notOlderThan(bound)] : [];
    },
  });
  let newestBound: KeysetPosition | null = null;
  for (const bound of bounds.values()) if (!newestBound || compare(bound, newestBound) > 0) newestBound = bound;
  if (!newestBound) return rows; // every team was read to its end
  // An unread match is older than its team's bound, so older than the newest bound: rows at or above it
  // are certain to be the newest matches.
  const certain = rows.filter((row) => compare({ createdAt: row.created_at, id: row.id }, newestBound) >= 0);
  return certain.length >= query.fetch ? certain : null;
}

// A team's guides as the console lists them: every guide, whatever its processing state or plan, newest
// first, in keyset pages on the index (team_id, created_at, id).
import { type SqlBool, sql } from 'kysely';
import type { ProcessingState, PublishStatus } from '../db/schema.js';
import type { DomainContext } from './context.js';
import type { KeysetPosition } from './keyset-cursor.js';
import { requireTeam } from './teams.js';

export interface TeamGuideSummary {
  id: string;
  team_id: string;
  title: string | null;
  description: string | null;
  permalink: string;
  publish_status: PublishStatus;
  is_public: boolean;
  processing_state: ProcessingState;
  created_at: string;
  updated_at: string;
}

export async function teamGuideList(
  ctx: DomainContext,
  teamId: string,
  limit: number,
  after: KeysetPosition | null,
): Promise<{ items: TeamGuideSummary[]; next: KeysetPosition | null }> {
  await requireTeam(ctx.db, teamId);
  let select = ctx.db
    .selectFrom('guides')
    .select(['id', 'team_id', 'title', 'description', 'permalink', 'publish_status', 'is_public', 'processing_state', 'created_at', 'updated_at'])
    .where('team_id', '=', teamId);
  if (after) select = select.where(sql<SqlBool>`(created_at, id) < (${after.createdAt}, ${after.id})`);
  const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const items = rows.slice(0, limit).map((row) => ({ ...row, is_public: row.is_public === 1 }));
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last ? { createdAt: last.created_at, id: last.id } : null };
}

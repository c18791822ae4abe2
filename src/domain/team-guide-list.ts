// A team's guides as the console lists them: every guide, whatever its processing state or plan, newest
// first, in keyset pages on the index (team_id, created_at, id).
import type { ProcessingState, PublishStatus } from '../db/schema.js';
import type { DomainContext } from './context.js';
import { afterPosition, type KeysetPosition, pageOf, rowsToRead } from './keyset-cursor.js';
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
  if (after) select = select.where(afterPosition('guides', after));
  const page = pageOf(await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(rowsToRead(limit)).execute(), limit);
  return { items: page.rows.map((row) => ({ ...row, is_public: row.is_public === 1 })), next: page.next };
}

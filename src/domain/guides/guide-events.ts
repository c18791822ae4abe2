// The `data` of guide events (spec §6.3, §6.4): a summary and the placement, never the body.
import type { DomainContext, Executor } from '../context.js';
import { requireTeam } from '../teams.js';
import { type EventType, recordEvent } from '../events.js';
import type { GuideRow } from './guide-record.js';

/** Columns whose change is reported in `changed`, in the order the specification lists them. */
export const CHANGE_COLUMNS = [
  'title',
  'description',
  'body',
  'permalink',
  'language',
  'folder_id',
  'publish_status',
  'team_role',
  'is_public',
] as const;
export type ChangeColumn = (typeof CHANGE_COLUMNS)[number];

/** What a guide event says of its guide: a stored row, or a test event's sample (whose permalink is none). */
export type GuideSummarySource = Pick<GuideRow, 'id' | 'title' | 'description' | 'updated_at' | 'team_id' | 'folder_id' | 'language' | 'publish_status' | 'is_public'> & {
  permalink: string | null;
};

export function guideSummaryData(guide: GuideSummarySource, appUrl: string, changed: readonly ChangeColumn[]) {
  return {
    guide: {
      id: guide.id,
      title: guide.title,
      description: guide.description,
      permalink: guide.permalink,
      updated_at: guide.updated_at,
      team_id: guide.team_id,
      folder_id: guide.folder_id,
      language: guide.language,
      url: `${appUrl}/guides/${guide.id}`,
    },
    placement: { team_guides: guide.publish_status === 'PUBLISHED', public_link: guide.is_public === 1 },
    changed: [...changed],
  };
}

export interface GuideEventTarget {
  trx: Executor;
  appUrl: string;
  organizationId: string | null;
  at: Date;
}

/** Where a team's guide events go: the team, and the organization it is in when the event happens. */
export async function guideEventTarget(ctx: DomainContext, trx: Executor, teamId: string, at: Date): Promise<GuideEventTarget> {
  const team = await requireTeam(trx, teamId);
  return { trx, appUrl: ctx.settings.appUrl, organizationId: team.organization_id, at };
}

export async function recordGuideEvent(
  target: GuideEventTarget,
  type: Exclude<EventType, 'guide.deleted' | `member.${string}` | 'ping'>,
  guide: GuideRow,
  changed: readonly ChangeColumn[] = [],
): Promise<void> {
  await recordEvent(target.trx, {
    type,
    teamId: guide.team_id,
    organizationId: target.organizationId,
    at: target.at,
    data: guideSummaryData(guide, target.appUrl, changed),
  });
}

export async function recordGuideDeleted(target: GuideEventTarget, guide: Pick<GuideRow, 'id' | 'team_id'>): Promise<void> {
  await recordEvent(target.trx, {
    type: 'guide.deleted',
    teamId: guide.team_id,
    organizationId: target.organizationId,
    at: target.at,
    data: { guide: { id: guide.id, team_id: guide.team_id } },
  });
}

// The only place where domain values become v1 wire shapes (spec §2).
import type { ApiKey } from '../../domain/api-keys.js';
import type { GuideBody } from '../../domain/guides/guide-body.js';
import { parseTags } from '../../domain/guides/guide-record.js';
import type { GuideListItem, VisibleGuide } from '../../domain/guides/guide-reads.js';
import type { Member } from '../../domain/members.js';
import type { Team } from '../../domain/teams.js';

export function presentKey(key: ApiKey) {
  return { id: key.id, name: key.name, home: key.home, scopes: key.scopes, expires_at: key.expires_at };
}

/** A guide as a list shows it (spec §2.2): no body. */
export function presentGuideListItem(item: GuideListItem) {
  return {
    id: item.id,
    team_id: item.team_id,
    created_at: item.created_at,
    updated_at: item.updated_at,
    title: item.title,
    description: item.description,
    owner_name: item.owner_name,
    icon_url: item.icon_url,
    permalink: item.permalink,
    publish_status: item.publish_status,
    locked: item.locked,
  };
}

export function presentMember(member: Member) {
  return { id: member.id, name: member.name, email: member.email, avatar_url: member.avatar_url, role: member.role, joined_at: member.joined_at };
}

export function presentGuide(guide: Pick<VisibleGuide, 'row' | 'ownerName' | 'brandColor' | 'locked'>, body: GuideBody) {
  const { row } = guide;
  return {
    id: row.id,
    team_id: row.team_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    title: row.title,
    description: row.description,
    owner_name: guide.ownerName,
    icon_url: row.icon_url,
    permalink: row.permalink,
    publish_status: row.publish_status,
    locked: guide.locked,
    language: row.language,
    text_direction: row.text_direction,
    app_version: row.app_version,
    thumbnail_url: row.thumbnail_url,
    tags: parseTags(row),
    folder_id: row.folder_id,
    is_public: row.is_public === 1,
    markdown_body: body.markdown_body,
    brand_color: guide.brandColor,
    notice: body.notice,
  };
}

/** A team as a key sees it: a key has no role in it. */
export function presentTeam(team: Team) {
  return { id: team.id, name: team.name, role: null };
}

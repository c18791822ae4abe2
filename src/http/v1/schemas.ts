// The resources of the public interface (spec §2), one schema each: they validate nothing on the way
// in, serialize every answer and become the OpenAPI document.
import { Type } from '@sinclair/typebox';
import { SCOPES } from '../../domain/api-keys.js';
import { Nullable, StringEnum, Timestamp, Uuid } from '../schemas/common.js';

export const TEAM_ROLES = ['EDITOR', 'VIEWER', 'ADMIN'] as const;
export const PUBLISH_STATUSES = ['DRAFT', 'PUBLISHED'] as const;

/** A member's role in a team: what GET /members answers and what member events carry (spec §2.7, decisions §6). */
export const TeamRole = StringEnum(TEAM_ROLES, { $id: 'TeamRole', description: "A member's role in a team" });

export const Key = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    home: Type.Object({ type: StringEnum(['team', 'organization'] as const), id: Uuid() }, { additionalProperties: false }),
    scopes: Type.Array(StringEnum(SCOPES)),
    expires_at: Nullable(Timestamp()),
  },
  { $id: 'Key', additionalProperties: false },
);

const listItemFields = {
  id: Uuid(),
  team_id: Nullable(Uuid()),
  created_at: Nullable(Timestamp()),
  updated_at: Nullable(Timestamp()),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  owner_name: Nullable(Type.String()),
  icon_url: Nullable(Type.String()),
  permalink: Nullable(Type.String()),
  publish_status: Nullable(StringEnum(PUBLISH_STATUSES)),
  locked: Type.Boolean({ description: "True when the guide is past the plan's guide limit" }),
};

export const GuideListItem = Type.Object(listItemFields, { $id: 'GuideListItem', additionalProperties: false });

export const Guide = Type.Object(
  {
    ...listItemFields,
    language: Type.String({ description: 'BCP 47 tag', examples: ['en', 'pt-BR'] }),
    text_direction: StringEnum(['rtl', 'ltr'] as const),
    app_version: Nullable(Type.String()),
    thumbnail_url: Nullable(Type.String()),
    tags: Nullable(Type.Array(Type.String())),
    folder_id: Nullable(Type.String()),
    is_public: Type.Boolean({ description: 'Readable by anyone with the share link' }),
    markdown_body: Type.String({ description: "The application's markdown export; a preview or short cut closes with the notice" }),
    brand_color: Nullable(Type.String()),
    notice: Nullable(Type.String({ description: 'Null when the plan includes full guides through the API' })),
  },
  { $id: 'Guide', additionalProperties: false },
);

export const Team = Type.Object(
  {
    id: Uuid(),
    name: Nullable(Type.String()),
    role: Nullable(StringEnum(TEAM_ROLES, { description: "The caller's role; null for a key" })),
  },
  { $id: 'Team', additionalProperties: false },
);

export const Member = Type.Object(
  {
    id: Uuid(),
    name: Nullable(Type.String()),
    email: Type.String(),
    avatar_url: Nullable(Type.String()),
    role: Type.Ref(TeamRole),
    joined_at: Nullable(Timestamp()),
  },
  { $id: 'Member', additionalProperties: false },
);

export const GuidePage = Type.Object(
  {
    data: Type.Array(Type.Ref(GuideListItem)),
    next_cursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page; opaque' })),
  },
  { additionalProperties: false },
);

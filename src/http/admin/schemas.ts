// Bodies and answers of the management API (decisions §7).
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../domain/audit.js';
import { Type } from '@sinclair/typebox';
import { SCOPES } from '../../domain/api-keys.js';
import { PERMALINK_MAX_LENGTH, PERMALINK_PATTERN } from '../../domain/guides/permalink.js';
import { PLANS } from '../../domain/plans.js';
import { ACCEPTS, Nullable, StringEnum, Text, Timestamp, Uuid } from '../schemas/common.js';
import { Guide, PUBLISH_STATUSES, TEAM_ROLES } from '../v1/schemas.js';

export const WebUrl = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', [ACCEPTS]: 'an http:// or https:// URL', maxLength: 2048, ...options });

const Name = Text({ maxLength: 200 });
export const PlanSchema = StringEnum(PLANS);
export const RoleSchema = StringEnum(TEAM_ROLES);
export const HomeType = StringEnum(['team', 'organization'] as const);

export const IdParams = Type.Object({ id: Uuid() }, { additionalProperties: false });

export const Organization = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    plan: PlanSchema,
    api_enabled: Type.Boolean(),
    org_keys_only: Type.Boolean(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AdminOrganization', additionalProperties: false },
);

export const OrganizationFields = Type.Object(
  { name: Name, plan: PlanSchema, api_enabled: Type.Boolean(), org_keys_only: Type.Boolean() },
  { additionalProperties: false },
);

export const Team = Type.Object(
  {
    id: Uuid(),
    name: Nullable(Type.String()),
    organization_id: Nullable(Uuid()),
    plan: Type.Unsafe<string>({ ...PlanSchema, description: "The plan that rules the team: its organization's, or its own" }),
    brand_color: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AdminTeam', additionalProperties: false },
);

export const TeamFields = Type.Object(
  {
    name: Nullable(Name),
    organization_id: Nullable(Uuid({ description: 'Setting it joins the team to the organization' })),
    plan: Type.Unsafe<(typeof PLANS)[number]>({ ...PlanSchema, description: 'Only for a team without organization' }),
    brand_color: Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', [ACCEPTS]: 'a color written like #1A2B3C', description: 'Like #1A2B3C; null is the default color' })),
  },
  { additionalProperties: false },
);

export const NewTeam = Type.Composite([Type.Pick(TeamFields, ['name']), Type.Partial(Type.Omit(TeamFields, ['name']))], {
  additionalProperties: false,
});

export const User = Type.Object(
  { id: Uuid(), email: Type.String(), name: Nullable(Type.String()), avatar_url: Nullable(Type.String()), created_at: Timestamp() },
  { $id: 'AdminUser', additionalProperties: false },
);

export const UserFields = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    name: Type.Optional(Nullable(Name)),
    avatar_url: Type.Optional(Nullable(WebUrl())),
  },
  { additionalProperties: false },
);

/** A person named by address (shared decisions §11 "People in the console"); `name` for one not known yet. */
export const PersonByEmail = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320, description: 'The address, in any letter case: a person not known yet is made, and invited by e-mail' }),
    name: Type.Optional(Nullable(Name)),
  },
  { additionalProperties: false },
);

/** The organization admin as the people page lists them. */
export const OrganizationAdmin = Type.Object(
  {
    id: Uuid(),
    email: Type.String(),
    name: Nullable(Type.String()),
    avatar_url: Nullable(Type.String()),
    admin_since: Timestamp({ description: 'When they became an admin of the organization' }),
  },
  { $id: 'AdminOrganizationAdmin', additionalProperties: false },
);

const StepInput = Type.Object(
  {
    text: Type.String({ maxLength: 20_000 }),
    image_url: Type.Optional(Nullable(WebUrl())),
    image_alt: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  },
  { additionalProperties: false },
);

export const GuideFields = Type.Object(
  {
    title: Nullable(Type.String({ maxLength: 500 })),
    description: Nullable(Type.String({ maxLength: 20_000 })),
    owner_id: Nullable(Uuid()),
    language: Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$', [ACCEPTS]: 'a language tag such as en, pt-BR or zh-Hant', maxLength: 35, description: 'BCP 47 tag' }),
    text_direction: StringEnum(['ltr', 'rtl'] as const),
    app_version: Nullable(Type.String({ maxLength: 100 })),
    icon_url: Nullable(WebUrl()),
    thumbnail_url: Nullable(WebUrl()),
    tags: Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    folder_id: Nullable(Uuid()),
    publish_status: StringEnum(PUBLISH_STATUSES),
    is_public: Type.Boolean(),
    team_role: Nullable(RoleSchema),
    permalink: Type.String({ pattern: PERMALINK_PATTERN, [ACCEPTS]: 'a slug of lowercase letters, digits and hyphens', maxLength: PERMALINK_MAX_LENGTH }),
    steps: Type.Array(StepInput, { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export const NewGuide = Type.Composite(
  [Type.Object({ team_id: Uuid(), processing: Type.Optional(Type.Boolean()) }), Type.Partial(GuideFields)],
  { additionalProperties: false },
);

export const AdminGuide = Type.Object(
  {
    ...Guide.properties,
    owner_id: Nullable(Uuid()),
    team_role: Nullable(RoleSchema),
    steps: Type.Array(
      Type.Object({ text: Type.String(), image_url: Nullable(Type.String()), image_alt: Nullable(Type.String()) }, { additionalProperties: false }),
    ),
    processing_state: StringEnum(['processing', 'finished', 'failed'] as const),
    processing_error: Nullable(Type.String()),
  },
  { $id: 'AdminGuide', additionalProperties: false },
);

export const AdminGuideSummary = Type.Object(
  {
    id: Uuid(),
    team_id: Uuid(),
    title: Nullable(Type.String()),
    description: Nullable(Type.String()),
    permalink: Type.String(),
    publish_status: StringEnum(PUBLISH_STATUSES),
    is_public: Type.Boolean({ description: 'Whether the share link works' }),
    processing_state: StringEnum(['processing', 'finished', 'failed'] as const),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AdminGuideSummary', additionalProperties: false },
);

export const ApiKey = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    home: Type.Object({ type: HomeType, id: Uuid() }, { additionalProperties: false }),
    scopes: Type.Array(StringEnum(SCOPES)),
    expires_at: Nullable(Timestamp()),
    created_at: Timestamp(),
    last_used_at: Nullable(Timestamp({ description: 'When the key was last used, to the minute' })),
    secret_hint: Type.String({ description: 'The start of the key, to tell keys apart' }),
  },
  { $id: 'AdminApiKey', additionalProperties: false },
);

export const Home = Type.Object({ type: HomeType, id: Uuid() }, { additionalProperties: false });

export const NewApiKey = Type.Object(
  {
    home: Home,
    name: Name,
    scopes: Type.Array(StringEnum(SCOPES), {
      minItems: 1,
      maxItems: SCOPES.length,
      uniqueItems: true,
      description:
        "The reads of v1 the key may make, and `webhooks:manage`: a management key, which may call this API's webhook-endpoint and delivery operations for its home alone (an organization key: its teams' too), and nothing else of it",
    }),
    expires_in_days: Nullable(Type.Integer({ minimum: 1, maximum: 365, description: 'Whole days from 1 to 365, or null for no expiry' })),
  },
  { additionalProperties: false },
);

export const HomeQuery = Type.Object({ home_type: HomeType, home_id: Uuid() }, { additionalProperties: false });

/** One audit event (src/domain/audit.ts): who did what to which resource, where, from where. */
export const AuditEvent = Type.Object(
  {
    id: Uuid(),
    at: Timestamp({ description: 'When it happened' }),
    actor: Type.Object(
      {
        type: StringEnum(['person', 'operator', 'api_key'] as const, {
          description: 'A person signed in to the console, the operator with the admin token, or a management key (webhooks:manage)',
        }),
        id: Nullable(Uuid({ description: "The person's user id, or the key's id; null for the operator" })),
        name: Nullable(Type.String({ description: "The person's name (or e-mail address), or the key's name, as it is now; null for the operator, or a person erased since" })),
      },
      { additionalProperties: false },
    ),
    action: StringEnum(AUDIT_ACTIONS),
    target: Type.Object(
      {
        type: StringEnum(AUDIT_TARGET_TYPES),
        id: Nullable(Uuid({ description: 'null for a sign-in' })),
        name: Nullable(Type.String({ description: "What the target is called now (a key's or team's name, an endpoint's URL without its query, a guide's title, a person's name); null once it is gone" })),
      },
      { additionalProperties: false },
    ),
    home: Nullable(Home),
    address: Nullable(Type.String({ description: 'The client address the request came from' })),
    request_id: Nullable(Type.String({ description: "The request's X-Request-Id" })),
    changed: Nullable(Type.Array(Type.String(), { description: 'For a change, the names of the fields it set (never their values)' })),
    count: Nullable(Type.Integer({ minimum: 0, description: 'How many things it covered: for `webhook_endpoint.recovered`, the events sent again; null for other actions' })),
  },
  { $id: 'AdminAuditEvent', additionalProperties: false },
);


// What a webhook delivery carries (spec §6), as the OpenAPI 3.1 `webhooks` section of the v1 document:
// one entry per event type with the envelope's schema, an example, and the headers that sign it.
// test/http/openapi-webhooks.test.ts checks real deliveries against these schemas, so they cannot drift.
import { type TSchema, Type } from '@sinclair/typebox';
import { EVENT_DESCRIPTIONS, EVENT_TYPES, type EventType } from '../../domain/events.js';
import type { OpenApiWebhooks } from '../openapi-document.js';
import { CHANGE_COLUMNS } from '../../domain/guides/guide-events.js';
import { TeamRole } from '../v1/schemas.js';
import { Nullable, StringEnum, Timestamp, Uuid } from './common.js';

const GuideSummary = Type.Object(
  {
    id: Uuid(),
    title: Nullable(Type.String()),
    description: Nullable(Type.String()),
    permalink: Nullable(Type.String()),
    updated_at: Nullable(Timestamp()),
    team_id: Uuid(),
    folder_id: Nullable(Uuid()),
    language: Type.String(),
    url: Type.String({ format: 'uri', description: 'The guide in the application' }),
  },
  { additionalProperties: false },
);

// Each payload (the envelope's `data`) is a named schema of the document, so that a client generated from
// it has one type per payload, shared by the feed's Event and by the webhooks.

export const GuideEventData = Type.Object(
  {
    guide: GuideSummary,
    placement: Type.Object(
      {
        team_guides: Type.Boolean({ description: 'In Team Guides (moved out of Drafts)' }),
        public_link: Type.Boolean({ description: 'Readable by anyone with the share link' }),
      },
      { additionalProperties: false },
    ),
    changed: Type.Array(StringEnum(CHANGE_COLUMNS), { description: 'The columns that changed, for guide.updated; empty for the other events' }),
  },
  {
    $id: 'GuideEventData',
    additionalProperties: false,
    description: 'The `data` of guide.created, guide.updated, guide.ready and guide.failed: the guide as it is (never its body: GET /guides/{guideId} has it) and where it is',
  },
);

export const GuideDeletedData = Type.Object(
  { guide: Type.Object({ id: Uuid(), team_id: Uuid({ description: 'The team the guide was deleted from or moved out of' }) }, { additionalProperties: false }) },
  { $id: 'GuideDeletedData', additionalProperties: false, description: 'The `data` of guide.deleted: the guide that was deleted or moved out of the team' },
);

export const MemberEventData = Type.Object(
  {
    member: Type.Object(
      {
        user_id: Uuid(),
        email: Type.String(),
        name: Nullable(Type.String()),
        role: Type.Ref(TeamRole, { description: 'The role in the team; for member.left, the role the member had' }),
        team_id: Uuid(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'MemberEventData', additionalProperties: false, description: 'The `data` of member.joined, member.left and member.role_changed' },
);

export const PingData = Type.Object(
  { message: Type.String() },
  { $id: 'PingData', additionalProperties: false, description: 'The `data` of ping: a message naming the endpoint it tests' },
);

/** The payload schemas, for the document's components (added with addSchema before the envelopes that name them). */
export const EVENT_PAYLOADS = [GuideEventData, GuideDeletedData, MemberEventData, PingData];

const DATA: Record<EventType, TSchema> = {
  'guide.created': GuideEventData,
  'guide.updated': GuideEventData,
  'guide.ready': GuideEventData,
  'guide.failed': GuideEventData,
  'guide.deleted': GuideDeletedData,
  'member.joined': MemberEventData,
  'member.left': MemberEventData,
  'member.role_changed': MemberEventData,
  ping: PingData,
};

/**
 * The envelope of one event type: the same for every delivery of it, retries included. Its `data` names
 * the payload's schema by `$id` in route and shared schemas, which the document generator resolves, or,
 * for the `webhooks` section, which it takes as written, by its place in the document.
 */
export function eventEnvelope(type: EventType, payload: 'by-id' | 'in-document' = 'by-id'): TSchema {
  const data = DATA[type];
  return Type.Object(
    {
      id: Uuid({ description: 'The event id: the same on every delivery of the event, for deduplication' }),
      created_at: Timestamp(),
      team_id: Uuid(),
      organization_id: Nullable(Uuid()),
      type: Type.Literal(type, { description: 'The event type, which says what `data` holds' }),
      data: payload === 'by-id' ? Type.Ref(data) : Type.Unsafe({ $ref: `#/components/schemas/${data.$id}` }),
    },
    { additionalProperties: false },
  );
}

const IDS = { event: '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f', team: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', guide: '0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f' };

function exampleData(type: EventType, appUrl: string): unknown {
  if (type === 'ping') return { message: 'Ping from the guide service: https://hooks.example.com/guides is set up to receive events.' };
  if (type === 'guide.deleted') return { guide: { id: IDS.guide, team_id: IDS.team } };
  if (type.startsWith('member.')) {
    return { member: { user_id: '7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a', email: 'ana@example.com', name: 'Ana', role: 'EDITOR', team_id: IDS.team } };
  }
  return {
    guide: {
      id: IDS.guide,
      title: 'Reset a password',
      description: null,
      permalink: 'reset-a-password-k3x9p2',
      updated_at: '2026-11-21T09:30:00.000Z',
      team_id: IDS.team,
      folder_id: null,
      language: 'en',
      url: `${appUrl}/guides/${IDS.guide}`,
    },
    placement: { team_guides: true, public_link: false },
    changed: type === 'guide.updated' ? ['title', 'publish_status'] : [],
  };
}

const SIGNATURE_HEADERS = [
  { name: 'X-Service-Event', description: 'The event type, as in `type`' },
  { name: 'X-Service-Delivery', description: 'This delivery attempt, as in the Deliveries list; new on every retry' },
  {
    name: 'X-Service-Signature',
    description:
      '`sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint\'s `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body',
  },
  // Standard Webhooks (https://www.standardwebhooks.com), beside the specification's own headers.
  { name: 'webhook-id', description: 'Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on' },
  { name: 'webhook-timestamp', description: 'Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now' },
  {
    name: 'webhook-signature',
    description:
      'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; ' +
      'Standard Webhooks libraries verify it (and the timestamp) with the endpoint\'s `standard_webhooks_secret`',
  },
];

/** The `webhooks` section of the v1 document: what each event's delivery POSTs to an endpoint. */
export function webhooksSection(appUrl: string): OpenApiWebhooks {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `The ${type} event`,
          description: `${EVENT_DESCRIPTIONS[type]} Delivered as a signed JSON POST to every endpoint that picked it${type === 'ping' ? ' (a ping goes to one endpoint, unpicked)' : ''}; any 2xx answer within the time-out counts as delivered, anything else is retried.`,
          operationId: `on_${type.replace('.', '_')}`,
          tags: ['Webhooks'],
          parameters: SIGNATURE_HEADERS.map((header) => ({ in: 'header', required: true, schema: { type: 'string' }, ...header })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: eventEnvelope(type, 'in-document'),
                example: { id: IDS.event, created_at: '2026-11-21T09:30:00.000Z', team_id: IDS.team, organization_id: null, type, data: exampleData(type, appUrl) },
              },
            },
          },
          responses: { '2XX': { description: 'Delivered' }, default: { description: 'Not delivered: retried on the schedule' } },
        },
      },
    ]),
  ) as OpenApiWebhooks;
}

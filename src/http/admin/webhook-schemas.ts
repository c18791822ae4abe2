// Bodies and answers of the webhook part of the management API (decisions §6, §7).
import { Type } from '@sinclair/typebox';
import { EVENT_TYPES, SUBSCRIBABLE_EVENTS } from '../../domain/events.js';
import { MAX_OVERLAP_HOURS } from '../../webhooks/endpoints.js';
import { Nullable, StringEnum, Text, Timestamp, Uuid } from '../schemas/common.js';
import { Home, WebUrl } from './schemas.js';

const EventPick = Type.Array(StringEnum(SUBSCRIBABLE_EVENTS), {
  minItems: 1,
  maxItems: SUBSCRIBABLE_EVENTS.length,
  uniqueItems: true,
  description: 'The events the endpoint receives; ping goes to every endpoint',
});

/** The two forms of an endpoint's signing key, each labelled by the header it verifies. */
const KeyForms = {
  signing_key: Type.String({
    description: 'For `X-Service-Signature`: the HMAC-SHA256 key (its UTF-8 bytes) of that header. Standard Webhooks libraries do not take this form',
  }),
  standard_webhooks_secret: Type.String({
    description:
      'For `webhook-signature` (Standard Webhooks): the same key in the form its libraries take (`whsec_` and the base64 of the signing key\'s UTF-8 bytes); ' +
      '`new Webhook(secret).verify(body, headers)` checks `webhook-signature` and `webhook-timestamp`',
  }),
};

/**
 * The answer of the signing-key reveal and rotation: the key, the same key as Standard Webhooks libraries
 * take it, and during a rotation's overlap the key it replaced with the overlap's end (decisions §10).
 */
export const SigningKey = Type.Object(
  {
    ...KeyForms,
    old_key: Nullable(
      Type.Object(
        { ...KeyForms, ends_at: Timestamp({ description: 'When the old key stops signing; afterwards the new key signs both headers' }) },
        {
          additionalProperties: false,
          description:
            'The key the last rotation replaced, while it still signs: `X-Service-Signature` with it alone, and `webhook-signature` with both keys (the new one first). Null when no overlap is running.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The rotation's body: how long the replaced key keeps signing. */
/** What POST /webhook-endpoints/{id}/ping sends: a ping, or a test event of another type. */
export const PingRequest = Type.Object(
  {
    event_type: Type.Optional(
      StringEnum(EVENT_TYPES, {
        default: 'ping',
        description:
          'The type of event to send, whether or not the endpoint picked it. Any type but `ping` is a test: its `data` is a sample (a guide or person that does not exist, named as a test event), and it is never in the events feed (GET /v1/events).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Rotation = Type.Object(
  {
    keep_old_for_hours: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_OVERLAP_HOURS,
        default: 0,
        description:
          'How many hours the replaced key keeps signing beside the new one (0: it stops at once). Meanwhile receivers move to the new key: accept both, then only the new one.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ATTEMPT_STATUSES = ['scheduled', 'sending', 'delivered', 'failed', 'missed', 'cancelled'] as const;

export const Endpoint = Type.Object(
  {
    id: Uuid(),
    home: Home,
    url: Type.String(),
    events: Type.Array(StringEnum(SUBSCRIBABLE_EVENTS)),
    description: Nullable(Type.String()),
    status: StringEnum(['active', 'paused'] as const),
    paused_reason: Nullable(
      StringEnum(['gone', 'failing', 'manual'] as const, {
        description: '`gone`: the receiver answered 410; `failing`: nothing but failures for WEBHOOK_PAUSE_AFTER_MS; `manual`: an admin paused it',
      }),
    ),
    paused_at: Nullable(Timestamp()),
    old_signing_key_ends_at: Nullable(
      Timestamp({ description: 'While a rotation\'s overlap runs, when the replaced signing key stops signing; null otherwise' }),
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AdminWebhookEndpoint', additionalProperties: false },
);

/**
 * The answer to a registration: the endpoint, and its signing key in both forms, which no other read of
 * the endpoint shows (the signing-key operation reveals it again). Inline, not a named schema of its own.
 */
export const CreatedEndpoint = Type.Object(
  { ...Endpoint.properties, ...KeyForms },
  { additionalProperties: false, description: 'The new endpoint, with its signing key in both forms: shown here, and by the signing-key operation, never by a read of the endpoint' },
);

/** What POST /webhook-endpoints/{id}/recover takes: the moment from which to send again what failed or was missed. */
export const Recovery = Type.Object(
  {
    since: Timestamp({
      description:
        'Events to the endpoint created at or after this time are sent again when their latest attempt failed or was missed and no attempt of them is still to come; within the attempts\' retention (WEBHOOK_ATTEMPTS_RETENTION_DAYS, 30 days by default), not in the future',
    }),
  },
  { additionalProperties: false },
);

export const Recovered = Type.Object(
  { events: Type.Integer({ minimum: 0, description: 'How many events are sent again, each as one new attempt (0: nothing to recover)' }) },
  { additionalProperties: false },
);

export const NewEndpoint = Type.Object(
  { home: Home, url: WebUrl(), events: EventPick, description: Type.Optional(Nullable(Text({ maxLength: 500 }))) },
  { additionalProperties: false },
);

export const EndpointChanges = Type.Object(
  { url: Type.Optional(WebUrl()), events: Type.Optional(EventPick), description: Type.Optional(Nullable(Text({ maxLength: 500 }))) },
  { additionalProperties: false },
);

export const Attempt = Type.Object(
  {
    id: Uuid({ description: 'The delivery id: X-Service-Delivery of this attempt' }),
    endpoint_id: Uuid(),
    event_id: Uuid(),
    event_type: StringEnum(EVENT_TYPES),
    attempt_number: Type.Integer({ minimum: 1 }),
    status: StringEnum(ATTEMPT_STATUSES, {
      description:
        '`cancelled`: never sent, because another attempt of its event to this endpoint was delivered first (a delivered event is settled)',
    }),
    request_headers: Nullable(Type.Object({}, { additionalProperties: Type.String(), description: 'Null until the attempt is sent' })),
    request_body: Type.String({ description: 'The exact body bytes, the same for every attempt of the event' }),
    response_status: Nullable(Type.Integer()),
    response_body: Nullable(Type.String({ description: 'The first 4 KiB of the answer' })),
    error: Nullable(Type.String()),
    duration_ms: Nullable(Type.Integer()),
    created_at: Timestamp(),
    sent_at: Nullable(Timestamp()),
    due_at: Timestamp({ description: 'When the attempt is (or was) due to be sent' }),
    next_attempt_at: Nullable(Timestamp({ description: 'When the retry that follows this failed attempt is due' })),
    test: Type.Boolean({ description: 'Its event is a test (a ping, or a test event of another type), sent with `X-Service-Test: true`' }),
  },
  { $id: 'AdminDeliveryAttempt', additionalProperties: false },
);

const HealthHour = Type.Object(
  {
    start: Timestamp({ description: 'The start of the hour (UTC)' }),
    delivered: Type.Integer({ minimum: 0, description: 'Attempts sent in this hour that were delivered' }),
    failed: Type.Integer({ minimum: 0, description: 'Attempts sent in this hour that failed' }),
  },
  { additionalProperties: false },
);

export const EndpointHealth = Type.Object(
  {
    endpoint_id: Uuid(),
    last_attempt: Nullable(
      Type.Object(
        { status: StringEnum(['delivered', 'failed'] as const), sent_at: Timestamp() },
        { additionalProperties: false, description: 'The newest attempt that was sent; null before the first' },
      ),
    ),
    since: Timestamp({ description: 'The start of the window: the current hour (UTC) and the 23 before it' }),
    delivered: Type.Integer({ minimum: 0, description: 'Attempts sent since `since` that were delivered' }),
    failed: Type.Integer({ minimum: 0, description: 'Attempts sent since `since` that failed' }),
    events_sent: Type.Integer({ minimum: 0, description: 'Events with an attempt sent since `since` (an event retried three times counts once)' }),
    events_delivered: Type.Integer({ minimum: 0, description: 'Of those events, the ones an attempt sent since `since` delivered' }),
    success_rate: Nullable(
      Type.Number({ minimum: 0, maximum: 1, description: 'events_delivered / events_sent: a retried event that was delivered in the end is a success; null when nothing was sent in the window' }),
    ),
    consecutive_failures: Type.Integer({ minimum: 0, description: 'Failed attempts since the last delivered one' }),
    next_retry_at: Nullable(Timestamp({ description: 'When the earliest automatic retry still waiting is due; null when none waits' })),
    hours: Type.Array(HealthHour, { minItems: 24, maxItems: 24, description: 'The window hour by hour, oldest first' }),
  },
  { $id: 'AdminEndpointHealth', additionalProperties: false },
);

export const MailEntry = Type.Object(
  {
    id: Uuid(),
    to: Type.Array(Type.String()),
    subject: Type.String(),
    text: Type.String(),
    created_at: Timestamp(),
    sent_at: Nullable(Timestamp({ description: 'When SMTP took it; null without SMTP_URL' })),
  },
  { $id: 'AdminMail', additionalProperties: false },
);

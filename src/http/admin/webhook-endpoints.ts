// Webhook endpoints (decisions §7): create (with a ping; the answer carries the signing key, shared
// decisions §11), list, read, change, delete, reveal and rotate the signing key, pause, resume, recover what
// failed since a time, and ping (or send a test event of any type) on demand.
import { Type } from '@sinclair/typebox';
import { homeOf } from '../../domain/homes.js';
import {
  createEndpoint,
  deleteEndpoint,
  type Endpoint,
  listEndpoints,
  pingEndpoint,
  recordSigningKeyRevealed,
  requireEndpoint,
  rotateSigningKey,
  updateEndpoint,
} from '../../webhooks/endpoints.js';
import { endpointHealth } from '../../webhooks/health.js';
import { pauseByHand, resumeEndpoint } from '../../webhooks/pausing.js';
import { recoverEndpoint } from '../../webhooks/recovery.js';
import type { AdminRoutes } from './admin-routes.js';
import { presentEndpointHealth } from './presenters.js';
import { HomeQuery, IdParams } from './schemas.js';
import { signingKeysAt, standardWebhooksSecret } from '../../webhooks/signing.js';
import { CreatedEndpoint, EndpointChanges, NewEndpoint, PingRequest, Recovered, Recovery, Rotation, SigningKey } from './webhook-schemas.js';

const EndpointAnswer = Type.Object({ data: Type.Ref('AdminWebhookEndpoint') });
const SigningKeyAnswer = Type.Object({ data: SigningKey });
const TAGS = ['Webhook endpoints'];

const keyForms = (key: string) => ({ signing_key: key, standard_webhooks_secret: standardWebhooksSecret(key) });

/** The signing keys as the reveal and the rotation answer them (shared decisions §9, §10). */
function presentSigningKey(endpoint: Endpoint, now: Date) {
  const keys = signingKeysAt(endpoint, now);
  return { ...keyForms(keys.current), old_key: keys.old && { ...keyForms(keys.old.key), ends_at: keys.old.endsAt } };
}

function presentEndpoint(endpoint: Endpoint, now: Date) {
  return {
    id: endpoint.id,
    home: homeOf(endpoint),
    url: endpoint.url,
    events: endpoint.events === '' ? [] : endpoint.events.split(' '),
    description: endpoint.description,
    status: endpoint.status,
    paused_reason: endpoint.paused_reason,
    paused_at: endpoint.paused_at,
    old_signing_key_ends_at: signingKeysAt(endpoint, now).old?.endsAt ?? null,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

/** A new endpoint, with its signing key in both forms: the registration's answer alone shows it (shared decisions §11). */
function presentCreatedEndpoint(endpoint: Endpoint, now: Date) {
  return { ...presentEndpoint(endpoint, now), ...keyForms(endpoint.signing_key) };
}

export const registerWebhookEndpoints: AdminRoutes = (app, { ctx, endpointPolicy, can, respond }) => {
  app.post(
    '/webhook-endpoints',
    {
      config: { sessions: true },
      schema: {
        operationId: 'createWebhookEndpoint', summary: 'Register a webhook endpoint',
        description:
          'Registers an endpoint for a team or an organization; a ping is sent to it. The answer carries the signing key in both forms, `signing_key` for `X-Service-Signature` and `standard_webhooks_secret` for `webhook-signature`: no read of the endpoint shows them again (the signing-key operation does). The ping is written with the endpoint and may reach the receiver before this answer reaches the caller: a receiver that cannot verify it yet and refuses it gets it again at the first retry, signed with the same key.',
        tags: TAGS,
        body: NewEndpoint,
        response: respond(201, 'The endpoint, with its signing key', Type.Object({ data: CreatedEndpoint })),
      },
    },
    async (request, reply) => {
      await can.home(request, request.body.home);
      return reply.code(201).send({ data: presentCreatedEndpoint(await createEndpoint(ctx, endpointPolicy, request.body), ctx.clock.now()) });
    },
  );

  app.get(
    '/webhook-endpoints',
    {
      config: { sessions: true },
      schema: {
        operationId: 'listWebhookEndpoints', summary: 'List the webhook endpoints of a team or organization', description: 'Oldest first.',
        tags: TAGS,
        querystring: HomeQuery,
        response: respond(200, 'The endpoints', Type.Object({ data: Type.Array(Type.Ref('AdminWebhookEndpoint')) })),
      },
    },
    async (request) => {
      const home = { type: request.query.home_type, id: request.query.home_id };
      await can.home(request, home);
      return { data: (await listEndpoints(ctx, home)).map((endpoint) => presentEndpoint(endpoint, ctx.clock.now())) };
    },
  );

  app.get(
    '/webhook-endpoints/:id',
    { config: { sessions: true }, schema: { operationId: 'getWebhookEndpoint', summary: 'Read a webhook endpoint', description: 'Its URL, events, status and why it is paused; the signing key has an operation of its own.', tags: TAGS, params: IdParams, response: respond(200, 'The endpoint', EndpointAnswer) } },
    async (request) => {
      await can.endpoint(request, request.params.id);
      return { data: presentEndpoint(await requireEndpoint(ctx.db, request.params.id), ctx.clock.now()) };
    },
  );

  app.get(
    '/webhook-endpoints/:id/health',
    {
      config: { sessions: true },
      schema: {
        operationId: 'getWebhookEndpointHealth', summary: 'Read a webhook endpoint\'s health',
        description:
          'How the endpoint has been doing: its last sent attempt, the attempts delivered and failed in the current hour and the 23 before it (in total and hour by hour), how many of the events they carried were delivered (the success rate counts events: one retried and then delivered is a success), its failures since the last delivery, and when its next automatic retry is due. Why it is paused is on the endpoint.',
        tags: TAGS,
        params: IdParams,
        response: respond(200, 'The endpoint\'s health', Type.Object({ data: Type.Ref('AdminEndpointHealth') })),
      },
    },
    async (request) => {
      await can.endpoint(request, request.params.id);
      return { data: presentEndpointHealth(await endpointHealth(ctx, request.params.id)) };
    },
  );

  app.patch(
    '/webhook-endpoints/:id',
    {
      config: { sessions: true },
      schema: {
        operationId: 'updateWebhookEndpoint', summary: 'Change a webhook endpoint', description: 'Its URL, events or description; a new URL is checked like a new endpoint\'s.',
        tags: TAGS,
        params: IdParams,
        body: EndpointChanges,
        response: respond(200, 'The endpoint', EndpointAnswer),
      },
    },
    async (request) => {
      await can.endpoint(request, request.params.id);
      return { data: presentEndpoint(await updateEndpoint(ctx, endpointPolicy, request.params.id, request.body), ctx.clock.now()) };
    },
  );

  app.delete(
    '/webhook-endpoints/:id',
    { config: { sessions: true }, schema: { operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint', description: 'Nothing more is sent to it.', tags: TAGS, params: IdParams, response: respond(204, 'Deleted', null) } },
    async (request, reply) => {
      await can.endpoint(request, request.params.id);
      await deleteEndpoint(ctx, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/webhook-endpoints/:id/signing-key',
    {
      config: { sessions: true },
      schema: {
        operationId: 'revealSigningKey', summary: 'Reveal the signing key',
        description: 'The key that signs deliveries to this endpoint, and the same key as Standard Webhooks libraries take it.',
        tags: TAGS,
        params: IdParams,
        response: respond(200, 'The signing key', SigningKeyAnswer),
      },
    },
    async (request) => {
      await can.endpoint(request, request.params.id);
      const endpoint = await requireEndpoint(ctx.db, request.params.id);
      await recordSigningKeyRevealed(ctx, endpoint);
      return { data: presentSigningKey(endpoint, ctx.clock.now()) };
    },
  );

  app.post(
    '/webhook-endpoints/:id/signing-key/rotate',
    {
      config: { sessions: true, optionalBody: true },
      schema: {
        operationId: 'rotateSigningKey', summary: 'Rotate the signing key',
        description:
          'Replaces the signing key. With `keep_old_for_hours` (0–72; the body may be left out) the replaced key keeps signing for that long: `X-Service-Signature` with the old key, `webhook-signature` with both, so receivers can move to the new key without a failed delivery; at the end the new key signs both. With 0 the old key stops at once, and deliveries that fail during the switch are retried. Rotating again during an overlap keeps only the key it replaces.',
        tags: TAGS,
        params: IdParams,
        body: Rotation,
        response: respond(200, 'The new signing key, and the old one while it still signs', SigningKeyAnswer),
      },
    },
    async (request) => {
      await can.endpoint(request, request.params.id);
      const rotated = await rotateSigningKey(ctx, request.params.id, request.body.keep_old_for_hours ?? 0);
      return { data: presentSigningKey(rotated, ctx.clock.now()) };
    },
  );

  app.post(
    '/webhook-endpoints/:id/pause',
    {
      config: { sessions: true },
      schema: {
        operationId: 'pauseWebhookEndpoint', summary: 'Pause a webhook endpoint',
        description:
          'Pauses an endpoint by hand (`paused_reason` `manual`): nothing is sent to it, and its waiting and new deliveries are kept as missed until it is resumed. Pausing a paused endpoint changes nothing.',
        tags: TAGS,
        params: IdParams,
        response: respond(200, 'The endpoint', EndpointAnswer),
      },
    },
    async (request) => {
      await can.endpoint(request, request.params.id);
      return { data: presentEndpoint(await pauseByHand(ctx, request.params.id), ctx.clock.now()) };
    },
  );

  app.post(
    '/webhook-endpoints/:id/resume',
    {
      config: { sessions: true, optionalBody: true },
      schema: {
        operationId: 'resumeWebhookEndpoint', summary: 'Resume a paused webhook endpoint',
        description:
          'Makes a paused endpoint active; with `redeliver_missed` true every missed delivery is sent again, oldest first. The body may be left out: the endpoint is resumed without sending what it missed (recover sends it later, if wanted).',
        tags: TAGS,
        params: IdParams,
        body: Type.Object(
          { redeliver_missed: Type.Optional(Type.Boolean({ default: false, description: 'Send every missed delivery again, oldest first; false when left out' })) },
          { additionalProperties: false },
        ),
        response: respond(200, 'The endpoint', EndpointAnswer),
      },
    },
    async (request) => {
      await can.endpoint(request, request.params.id);
      return { data: presentEndpoint(await resumeEndpoint(ctx, request.params.id, request.body.redeliver_missed ?? false), ctx.clock.now()) };
    },
  );

  app.post(
    '/webhook-endpoints/:id/recover',
    {
      config: { sessions: true },
      schema: {
        operationId: 'recoverWebhookEndpoint', summary: 'Send again what failed since a time',
        description:
          'Sends again, oldest first, through the endpoint\'s queue, every event to the endpoint created since `since` whose latest attempt failed or was missed and that has no attempt still to come: one new attempt each, as a resend (no automatic retries of its own). 409 while the endpoint is paused; 400 for a `since` older than the attempts\' retention (WEBHOOK_ATTEMPTS_RETENTION_DAYS) or in the future.',
        tags: TAGS,
        params: IdParams,
        body: Recovery,
        response: respond(202, 'How many events are on their way again', Type.Object({ data: Recovered })),
      },
    },
    async (request, reply) => {
      await can.endpoint(request, request.params.id);
      const events = await recoverEndpoint(ctx, request.params.id, new Date(request.body.since), endpointPolicy.attemptsRetentionMs);
      return reply.code(202).send({ data: { events } });
    },
  );

  app.post(
    '/webhook-endpoints/:id/ping',
    {
      config: { sessions: true, optionalBody: true },
      schema: {
        operationId: 'pingWebhookEndpoint', summary: 'Send a ping or a test event',
        description:
          'Sends a `ping` event to this endpoint alone, whatever events it picked; with `event_type`, a test event of that type instead (the body may be left out). While the endpoint is paused it is kept as missed, like any event, and sent if the endpoint is resumed with `redeliver_missed`.',
        tags: TAGS,
        params: IdParams,
        body: PingRequest,
        response: respond(202, 'The ping or test event is on its way, or kept as missed while the endpoint is paused', null),
      },
    },
    async (request, reply) => {
      await can.endpoint(request, request.params.id);
      await pingEndpoint(ctx, request.params.id, request.body.event_type ?? 'ping');
      return reply.code(202).send();
    },
  );
};

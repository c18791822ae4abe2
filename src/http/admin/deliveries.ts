// The Deliveries list and resend (decisions §6, §7).
import { Type } from '@sinclair/typebox';
import { keysetList, NOT_THIS_LIST } from '../keyset-page.js';
import { attemptPage, resendAttempt } from '../../webhooks/deliveries.js';
import { EVENT_TYPES } from '../../domain/events.js';
import { UUID_START_PATTERN } from '../../domain/ids.js';
import { ProblemError } from '../problem.js';
import { ACCEPTS, Cursor, Nullable, StringEnum, Timestamp } from '../schemas/common.js';
import type { AdminRoutes } from './admin-routes.js';
import { presentAttempt } from './presenters.js';
import { IdParams } from './schemas.js';
import { ATTEMPT_STATUSES } from './webhook-schemas.js';


export const registerDeliveries: AdminRoutes = (app, { ctx, can, respond }) => {
  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config: { sessions: true },
      schema: {
        operationId: 'listDeliveries', summary: 'List an endpoint\'s deliveries',
        description:
          'Every attempt to the endpoint, newest first, in keyset pages like GET /v1/guides. `status`, `event_type` and `event_id` filter; `since` and `until` keep the attempts written in that time range (`since` included, `until` not). A cursor is only good for the filters it was given with.',
        tags: ['Deliveries'],
        params: IdParams,
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            cursor: Type.Optional(Cursor()),
            status: Type.Optional(StringEnum(ATTEMPT_STATUSES)),
            event_type: Type.Optional(StringEnum(EVENT_TYPES, { description: 'Only attempts of events of this type' })),
            event_id: Type.Optional(
              Type.String({
                pattern: UUID_START_PATTERN,
                maxLength: 36,
                [ACCEPTS]: 'an event id, whole or its first 8 or more characters',
                description: 'Only attempts of this event: its whole id, or its first 8 or more characters (the short id the console shows)',
              }),
            ),
            since: Type.Optional(Timestamp({ description: 'Only attempts written at or after this time' })),
            until: Type.Optional(Timestamp({ description: 'Only attempts written before this time; later than `since`' })),
          },
          { additionalProperties: false },
        ),
        response: respond(
          200,
          'A page of attempts',
          Type.Object({ data: Type.Array(Type.Ref('AdminDeliveryAttempt')), next_cursor: Nullable(Type.String()) }),
        ),
      },
    },
    async (request) => {
      const endpointId = request.params.id;
      await can.endpoint(request, endpointId);
      const { cursor, status, event_type: eventType, event_id: eventId } = request.query;
      // Stored times are RFC 3339 in UTC with milliseconds, compared as text: an offset is converted.
      const since = request.query.since === undefined ? undefined : new Date(request.query.since).toISOString();
      const until = request.query.until === undefined ? undefined : new Date(request.query.until).toISOString();
      if (since !== undefined && until !== undefined && until <= since) throw new ProblemError('invalid_request', "Parameter 'until' must be later than 'since'");
      const binding = { holder: 'admin', filters: [endpointId, status, eventType, eventId, since, until] };
      return keysetList(ctx.cursorSecret, binding, cursor, NOT_THIS_LIST, async (after) => {
        const page = await attemptPage(ctx, { endpointId, status, eventType, eventId, since, until, limit: request.query.limit ?? 50, after });
        return { items: page.items.map(presentAttempt), next: page.next };
      });
    },
  );

  app.post(
    '/deliveries/:id/resend',
    {
      config: { sessions: true },
      schema: {
        operationId: 'resendDelivery', summary: 'Send a delivery again',
        description: 'Sends the attempt\'s event to its endpoint again as a new attempt (a new delivery id). 409 while the endpoint is paused.',
        tags: ['Deliveries'],
        params: IdParams,
        response: respond(202, 'The new attempt', Type.Object({ data: Type.Ref('AdminDeliveryAttempt') })),
      },
    },
    async (request, reply) => {
      await can.attempt(request, request.params.id);
      return reply.code(202).send({ data: presentAttempt(await resendAttempt(ctx, request.params.id)) });
    },
  );
};

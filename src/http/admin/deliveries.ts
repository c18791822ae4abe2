// The Deliveries list and resend (decisions §6, §7).
import { Type } from '@sinclair/typebox';
import { keysetList, NOT_THIS_LIST } from '../keyset-page.js';
import { attemptPage, resendAttempt } from '../../webhooks/deliveries.js';
import { Cursor, Nullable, StringEnum } from '../schemas/common.js';
import type { AdminRoutes } from './admin-plugin.js';
import { IdParams } from './schemas.js';
import { ATTEMPT_STATUSES } from './webhook-schemas.js';

export const registerDeliveries: AdminRoutes = (app, { ctx, can, respond }) => {
  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config: { sessions: true },
      schema: {
        operationId: 'listDeliveries', summary: 'List an endpoint\'s deliveries',
        description: "Every attempt to the endpoint, newest first, in keyset pages like GET /v1/guides; `status` filters.",
        tags: ['Deliveries'],
        params: IdParams,
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            cursor: Type.Optional(Cursor()),
            status: Type.Optional(StringEnum(ATTEMPT_STATUSES)),
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
      const { cursor, status } = request.query;
      const binding = { holder: 'admin', filters: [endpointId, status] };
      return keysetList(ctx.cursorSecret, binding, cursor, NOT_THIS_LIST, (after) =>
        attemptPage(ctx, { endpointId, status, limit: request.query.limit ?? 50, after }),
      );
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
      return reply.code(202).send({ data: await resendAttempt(ctx, request.params.id) });
    },
  );
};

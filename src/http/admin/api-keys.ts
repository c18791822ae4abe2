// API keys (decisions §7): the secret is in the creation answer and nowhere else, ever.
import { Type } from '@sinclair/typebox';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/api-keys.js';
import type { AdminRoutes } from './admin-routes.js';
import { presentApiKey } from './presenters.js';
import { HomeQuery, IdParams, NewApiKey } from './schemas.js';

export const registerApiKeys: AdminRoutes = (app, { ctx, can, respond }) => {
  app.post(
    '/api-keys',
    {
      config: { sessions: true },
      schema: {
        operationId: 'createApiKey', summary: 'Create an API key',
        description: 'Creates a key. `secret` is the full key: it is shown here once and cannot be read again.',
        tags: ['API keys'],
        body: NewApiKey,
        response: respond(
          201,
          'The key and its secret',
          Type.Object({ data: Type.Ref('AdminApiKey'), secret: Type.String({ description: 'The full key, shown once' }) }),
        ),
      },
    },
    async (request, reply) => {
      await can.home(request, request.body.home);
      const { key, secret } = await createApiKey(ctx, request.body);
      return reply.code(201).send({ data: presentApiKey(key), secret });
    },
  );

  app.get(
    '/api-keys',
    {
      config: { sessions: true },
      schema: {
        operationId: 'listApiKeys', summary: 'List the API keys of a team or organization',
        description: 'The keys of a team or organization that are not revoked, newest first, without secrets.',
        tags: ['API keys'],
        querystring: HomeQuery,
        response: respond(200, 'The keys', Type.Object({ data: Type.Array(Type.Ref('AdminApiKey')) })),
      },
    },
    async (request) => {
      const home = { type: request.query.home_type, id: request.query.home_id };
      await can.home(request, home);
      return { data: (await listApiKeys(ctx, home)).map(presentApiKey) };
    },
  );

  app.delete(
    '/api-keys/:id',
    { config: { sessions: true }, schema: { operationId: 'revokeApiKey', summary: 'Revoke an API key', description: 'The key stops working at once; revoking twice is 404.', tags: ['API keys'], params: IdParams, response: respond(204, 'Revoked', null) } },
    async (request, reply) => {
      await can.apiKey(request, request.params.id);
      await revokeApiKey(ctx, request.params.id);
      return reply.code(204).send();
    },
  );
};

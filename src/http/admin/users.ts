// Finding and erasing a person (shared decisions §10, issue 33): a request to erase names a person by
// their e-mail address. Creating and reading users are in teams.ts, beside memberships. Both routes are
// the operator's: they do not serve sessions, so a person's gets 403 forbidden from the caller hook
// (admin-auth.ts) before anything is looked up.
import { Type } from '@sinclair/typebox';
import { eraseUser } from '../../domain/erasure.js';
import { findUserByEmail } from '../../domain/users.js';
import type { AdminRoutes } from './admin-routes.js';
import { presentUser } from './presenters.js';
import { IdParams } from './schemas.js';

export const registerUsers: AdminRoutes = (app, { ctx, respond }) => {
  app.get(
    '/users',
    {
      schema: {
        operationId: 'findUsers',
        summary: 'Find a user by e-mail address',
        description:
          'The user whose e-mail address is `email`, in any letter case, as a list of one; an empty list when there is none. How the operator finds the person a request to erase names. Operator only.',
        tags: ['Users'],
        querystring: Type.Object({ email: Type.String({ minLength: 1, maxLength: 320, description: 'The e-mail address, in any letter case' }) }, { additionalProperties: false }),
        response: respond(200, 'The user, if any', Type.Object({ data: Type.Array(Type.Ref('AdminUser')) })),
      },
    },
    async (request) => {
      const user = await findUserByEmail(ctx.db, request.query.email);
      return { data: user ? [presentUser(user)] : [] };
    },
  );

  app.post(
    '/users/:id/erase',
    {
      // Its batches commit as they go and it is safe to repeat; a key's answer is kept after it.
      config: { idempotency: 'own-transactions' },
      schema: {
        operationId: 'eraseUser',
        summary: 'Erase a person',
        description:
          'The person leaves every team (member.left for each, naming no one: `email` is `erased-{id}@invalid` and `name` null) and every organization-admin role; their console sessions end and their unused sign-in links stop working. Afterwards no stored row holds their e-mail address or name: their user keeps its id with that address and no name or avatar, guides they own keep them as owner (`owner_name` null), and the events that named them (the events feed, redelivery, the Deliveries list) and the mail outbox are rewritten. Deliveries receivers already got cannot be recalled. Idempotent: erasing an erased user answers 204 again, and finishes an erasure that was interrupted. Operator only.',
        tags: ['Users'],
        params: IdParams,
        response: respond(204, 'Erased', null),
      },
    },
    async (request, reply) => {
      await eraseUser(ctx, request.params.id);
      return reply.code(204).send();
    },
  );
};

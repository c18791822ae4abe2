// Erasing a person (shared decisions §10, issue 33). Creating and reading users are in teams.ts, beside
// memberships. The route is the operator's: it does not serve sessions, so a person's gets 403 forbidden
// from the caller hook (admin-auth.ts) before anything is looked up.
import { eraseUser } from '../../domain/erasure.js';
import type { AdminRoutes } from './admin-plugin.js';
import { IdParams } from './schemas.js';

export const registerUsers: AdminRoutes = (app, { ctx, respond }) => {
  app.post(
    '/users/:id/erase',
    {
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

// The mail outbox (decisions §7): what the service sent, or would have sent without SMTP_URL.
import { Type } from '@sinclair/typebox';
import { listMail } from '../../mail/mail-outbox.js';
import type { AdminRoutes } from './admin-routes.js';
import { presentMail } from './presenters.js';

export const registerMail: AdminRoutes = (app, { ctx, respond }) => {
  app.get(
    '/mail',
    {
      schema: {
        operationId: 'listMail', summary: 'List the mail outbox',
        description: 'E-mail the service sent, newest first; kept whether or not SMTP_URL is set.',
        tags: ['Mail'],
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })) }, { additionalProperties: false }),
        response: respond(200, 'The e-mails', Type.Object({ data: Type.Array(Type.Ref('AdminMail')) })),
      },
    },
    async (request) => ({ data: (await listMail(ctx.db, request.query.limit ?? 100)).map(presentMail) }),
  );
};

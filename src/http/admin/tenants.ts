// The operator's list of tenants (shared decisions §11 "The operator's console"): every organization and
// every team of none, newest first, in keyset pages, with `q` narrowing by name.
import { Type } from '@sinclair/typebox';
import { tenantPage } from '../../domain/tenants.js';
import { keysetList, NOT_THIS_LIST } from '../keyset-page.js';
import { Cursor, Nullable, StringEnum, Timestamp, Uuid } from '../schemas/common.js';
import type { AdminRoutes } from './admin-routes.js';
import { PlanSchema } from './schemas.js';

const Tenant = Type.Object(
  {
    type: StringEnum(['organization', 'team'] as const, { description: 'An organization, or a team that belongs to none' }),
    id: Uuid(),
    name: Nullable(Type.String()),
    plan: PlanSchema,
    api_enabled: Type.Boolean({ description: "Whether its keys work (a team of no organization's always do)" }),
    teams: Nullable(Type.Integer({ description: "An organization's teams; null for a team" })),
    keys: Type.Integer({ description: "Keys not revoked, its own and (an organization) its teams'" }),
    failing_endpoints: Type.Integer({ description: "Webhook endpoints paused or failing, its own and (an organization) its teams'" }),
    created_at: Timestamp(),
  },
  { additionalProperties: false },
);

export const registerTenants: AdminRoutes = (app, { ctx, respond }) => {
  app.get(
    '/tenants',
    {
      schema: {
        operationId: 'listTenants',
        summary: 'List the tenants',
        description: 'Every organization and every team that belongs to none, newest first, in keyset pages; `q` keeps those whose name holds it (ASCII letters in any case). Operator only.',
        tags: ['Organizations'],
        querystring: Type.Object(
          {
            q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A piece of the name' })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            cursor: Type.Optional(Cursor()),
          },
          { additionalProperties: false },
        ),
        response: respond(200, 'A page of tenants', Type.Object({ data: Type.Array(Tenant), next_cursor: Nullable(Type.String()) })),
      },
    },
    async (request) => {
      const { q, cursor } = request.query;
      return keysetList(ctx.cursorSecret, { holder: 'admin', filters: ['tenants', q] }, cursor, NOT_THIS_LIST, async (after) => {
        const page = await tenantPage(ctx, { q }, after, request.query.limit ?? 50);
        return { items: page.rows, next: page.next };
      });
    },
  );
};

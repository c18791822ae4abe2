// Organizations and their admins (decisions §7).
import { Type } from '@sinclair/typebox';
import {
  addOrganizationAdmin,
  createOrganization,
  listOrganizationAdmins,
  removeOrganizationAdmin,
  requireOrganization,
  updateOrganization,
} from '../../domain/organizations.js';
import { Uuid } from '../schemas/common.js';
import type { AdminRoutes } from './admin-routes.js';
import { addOrganizationAdminByEmail } from '../../auth/invitations.js';
import { callerName } from './caller-name.js';
import { presentOrganization, presentUser } from './presenters.js';
import { IdParams, OrganizationFields, PersonByEmail } from './schemas.js';

const AdminParams = Type.Object({ id: Uuid(), user_id: Uuid() }, { additionalProperties: false });
const OrganizationAnswer = Type.Object({ data: Type.Ref('AdminOrganization') });

export const registerOrganizations: AdminRoutes = (app, { ctx, can, respond }) => {
  app.post(
    '/organizations',
    {
      schema: {
        operationId: 'createOrganization', summary: 'Create an organization', description: 'An organization groups teams under one plan and one API policy. Operator only.',
        tags: ['Organizations'],
        body: Type.Composite([Type.Pick(OrganizationFields, ['name']), Type.Partial(Type.Omit(OrganizationFields, ['name']))], {
          additionalProperties: false,
        }),
        response: respond(201, 'The organization', OrganizationAnswer),
      },
    },
    async (request, reply) => reply.code(201).send({ data: presentOrganization(await createOrganization(ctx, request.body)) }),
  );

  app.get(
    '/organizations/:id',
    { config: { sessions: true }, schema: { operationId: 'getOrganization', summary: 'Read an organization', description: 'The organization with its plan and API settings.', tags: ['Organizations'], params: IdParams, response: respond(200, 'The organization', OrganizationAnswer) } },
    async (request) => {
      can.organization(request, request.params.id);
      return { data: presentOrganization(await requireOrganization(ctx.db, request.params.id)) };
    },
  );

  app.patch(
    '/organizations/:id',
    {
      config: { sessions: true },
      schema: {
        operationId: 'updateOrganization', summary: 'Change an organization', description: 'Name and plan are the operator\'s; its admins may change `api_enabled` and `org_keys_only`.',
        tags: ['Organizations'],
        params: IdParams,
        body: Type.Partial(OrganizationFields, { additionalProperties: false }),
        response: respond(200, 'The organization', OrganizationAnswer),
      },
    },
    async (request) => {
      can.organization(request, request.params.id);
      // Its admins change its API settings; the plan (what the customer pays for) and the name, like
      // everything else about the organization itself, are the operator's.
      if (request.body.plan !== undefined || request.body.name !== undefined) can.operator(request);
      return { data: presentOrganization(await updateOrganization(ctx, request.params.id, request.body)) };
    },
  );

  app.get(
    '/organizations/:id/admins',
    {
      config: { sessions: true },
      schema: {
        operationId: 'listOrganizationAdmins', summary: "List an organization's admins",
        description: "Oldest first. The operator and the organization's admins.",
        tags: ['Organizations'],
        params: IdParams,
        response: respond(200, 'The admins', Type.Object({ data: Type.Array(Type.Ref('AdminOrganizationAdmin')) })),
      },
    },
    async (request) => {
      can.organization(request, request.params.id);
      await requireOrganization(ctx.db, request.params.id);
      return { data: await listOrganizationAdmins(ctx.db, request.params.id) };
    },
  );

  app.post(
    '/organizations/:id/admins',
    {
      config: { sessions: true },
      schema: {
        operationId: 'addOrganizationAdminByEmail', summary: 'Make a person an organization admin by e-mail',
        description:
          "A person not known yet is made and gets an e-mail naming who made them an admin and of what, with a sign-in link that works for 72 hours (`invited`). The operator and the organization's admins.",
        tags: ['Organizations'],
        params: IdParams,
        body: PersonByEmail,
        response: respond(200, 'The admin, and whether they were invited', Type.Object({ data: Type.Ref('AdminUser'), invited: Type.Boolean() })),
      },
    },
    async (request) => {
      can.organization(request, request.params.id);
      const { added, invited } = await addOrganizationAdminByEmail(ctx, request.params.id, request.body, await callerName(ctx, request));
      return { data: presentUser(added), invited };
    },
  );

  app.put(
    '/organizations/:id/admins/:user_id',
    {
      config: { sessions: true },
      schema: {
        operationId: 'addOrganizationAdmin', summary: 'Make a user an organization admin',
        description: "Organization admins manage every team of the organization in the console. The operator and the organization's admins.",
        tags: ['Organizations'],
        params: AdminParams,
        response: respond(204, 'Added', null),
      },
    },
    async (request, reply) => {
      can.organization(request, request.params.id);
      await addOrganizationAdmin(ctx, request.params.id, request.params.user_id);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/organizations/:id/admins/:user_id',
    {
      config: { sessions: true },
      schema: {
        operationId: 'removeOrganizationAdmin', summary: 'Remove an organization admin',
        description: "The user stays; only the admin right goes. The last admin stays (409). The operator and the organization's admins.",
        tags: ['Organizations'],
        params: AdminParams,
        response: respond(204, 'Removed', null),
      },
    },
    async (request, reply) => {
      can.organization(request, request.params.id);
      await removeOrganizationAdmin(ctx, request.params.id, request.params.user_id);
      return reply.code(204).send();
    },
  );
};

// Teams, users and memberships (decisions §7). Membership writes emit member events.
import { Type } from '@sinclair/typebox';
import { listMembers, putMember, removeMember } from '../../domain/members.js';
import { createTeam, requireTeam, type Team, teamPlans, updateTeam } from '../../domain/teams.js';
import { createUser, requireUser } from '../../domain/users.js';
import { Uuid } from '../schemas/common.js';
import type { AdminRoutes } from './admin-routes.js';
import { presentMember, presentTeam, presentUser } from './presenters.js';
import { IdParams, NewTeam, PersonByEmail, RoleSchema, TeamFields, UserFields } from './schemas.js';
import { addTeamMemberByEmail } from '../../auth/invitations.js';
import { callerName } from './caller-name.js';
import type { DomainContext } from '../../domain/context.js';

const MemberParams = Type.Object({ team_id: Uuid(), user_id: Uuid() }, { additionalProperties: false });
const TeamAnswer = Type.Object({ data: Type.Ref('AdminTeam') });
const MemberAnswer = Type.Object({ data: Type.Ref('Member') });

async function teamAnswer(ctx: DomainContext, team: Team) {
  const plans = await teamPlans(ctx.db, [team.id]);
  return { data: presentTeam(team, plans.get(team.id)!) };
}

export const registerTeams: AdminRoutes = (app, { ctx, can, respond }) => {
  app.post(
    '/teams',
    {
      schema: {
        operationId: 'createTeam', summary: 'Create a team', description: 'A team with its own plan, or inside an organization (whose plan then rules it). Operator only.',
        tags: ['Teams'],
        body: NewTeam,
        response: respond(201, 'The team', TeamAnswer),
      },
    },
    async (request, reply) => reply.code(201).send(await teamAnswer(ctx, await createTeam(ctx, request.body))),
  );

  app.get(
    '/teams/:id',
    { config: { sessions: true }, schema: { operationId: 'getTeam', summary: 'Read a team', description: 'The team with its plan and organization.', tags: ['Teams'], params: IdParams, response: respond(200, 'The team', TeamAnswer) } },
    async (request) => {
      await can.team(request, request.params.id, 'read');
      return teamAnswer(ctx, await requireTeam(ctx.db, request.params.id));
    },
  );

  app.patch(
    '/teams/:id',
    {
      schema: {
        operationId: 'updateTeam', summary: 'Change a team', description: 'Setting `organization_id` joins the team to an organization; null takes it out. Operator only.',
        tags: ['Teams'],
        params: IdParams,
        body: Type.Partial(TeamFields, { additionalProperties: false }),
        response: respond(200, 'The team', TeamAnswer),
      },
    },
    async (request) => teamAnswer(ctx, await updateTeam(ctx, request.params.id, request.body)),
  );

  app.get(
    '/teams/:id/members',
    {
      config: { sessions: true },
      schema: {
        operationId: 'listTeamMembers', summary: 'List a team\'s members', description: 'Every member with their role, for the console.',
        tags: ['Teams'],
        params: IdParams,
        response: respond(200, 'The members', Type.Object({ data: Type.Array(Type.Ref('Member')) })),
      },
    },
    async (request) => {
      await can.team(request, request.params.id, 'read');
      const team = await requireTeam(ctx.db, request.params.id);
      return { data: (await listMembers(ctx.db, team.id)).map(presentMember) };
    },
  );

  app.post(
    '/teams/:id/members',
    {
      config: { sessions: true },
      schema: {
        operationId: 'addTeamMemberByEmail', summary: 'Add a person to a team by e-mail',
        description:
          "Adds the person with the address to the team with the role (member.joined), or gives them the role (member.role_changed). A person not known yet is made and gets an e-mail naming who added them and where, with a sign-in link that works for 72 hours (`invited`). The operator, the team's ADMIN members and its organization's admins.",
        tags: ['Teams'],
        params: IdParams,
        body: Type.Composite([PersonByEmail, Type.Object({ role: RoleSchema })], { additionalProperties: false }),
        response: respond(200, 'The member, and whether they were invited', Type.Object({ data: Type.Ref('Member'), invited: Type.Boolean() })),
      },
    },
    async (request) => {
      await can.team(request, request.params.id, 'api');
      const { email, name, role } = request.body;
      const { added, invited } = await addTeamMemberByEmail(ctx, request.params.id, { email, name }, role, await callerName(ctx, request));
      return { data: presentMember(added), invited };
    },
  );

  app.put(
    '/teams/:team_id/members/:user_id',
    {
      config: { sessions: true },
      schema: {
        operationId: 'putTeamMember', summary: 'Add a member or change their role',
        description:
          "Adds the user to the team (member.joined) or changes the role (member.role_changed). The last ADMIN of a team of no organization keeps the role (409). The operator, the team's ADMIN members and its organization's admins.",
        tags: ['Teams'],
        params: MemberParams,
        body: Type.Object({ role: RoleSchema }, { additionalProperties: false }),
        response: respond(200, 'The member', MemberAnswer),
      },
    },
    async (request) => {
      await can.team(request, request.params.team_id, 'api');
      return { data: presentMember(await putMember(ctx, request.params.team_id, request.params.user_id, request.body.role)) };
    },
  );

  app.delete(
    '/teams/:team_id/members/:user_id',
    {
      config: { sessions: true },
      schema: {
        operationId: 'removeTeamMember', summary: 'Remove a member',
        description:
          "Removes the member (member.left). The last ADMIN of a team of no organization stays (409). The operator, the team's ADMIN members and its organization's admins.",
        tags: ['Teams'],
        params: MemberParams,
        response: respond(204, 'Removed', null),
      },
    },
    async (request, reply) => {
      await can.team(request, request.params.team_id, 'api');
      await removeMember(ctx, request.params.team_id, request.params.user_id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/users',
    {
      schema: {
        operationId: 'createUser', summary: 'Create a user', description: 'A person who can be a team member, an organization admin, and sign in to the console. Operator only.',
        tags: ['Users'],
        body: UserFields,
        response: respond(201, 'The user', Type.Object({ data: Type.Ref('AdminUser') })),
      },
    },
    async (request, reply) => reply.code(201).send({ data: presentUser(await createUser(ctx, request.body)) }),
  );

  app.get(
    '/users/:id',
    {
      config: { sessions: true },
      schema: {
        operationId: 'getUser', summary: 'Read a user', description: 'A person may read only their own user.',
        tags: ['Users'],
        params: IdParams,
        response: respond(200, 'The user', Type.Object({ data: Type.Ref('AdminUser') })),
      },
    },
    async (request) => {
      can.self(request, request.params.id);
      return { data: presentUser(await requireUser(ctx.db, request.params.id)) };
    },
  );
};

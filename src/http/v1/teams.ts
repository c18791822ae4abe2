// GET /teams (spec §4.4) and GET /members (spec §4.5).
import { Type } from '@sinclair/typebox';
import { NoParameters, Uuid } from '../schemas/common.js';
import { sendCached } from './cached-answer.js';
import { admittedKey } from './key-auth.js';
import { memberList, teamList } from './read-answers.js';
import type { V1Routes } from './v1-routes.js';

export const registerTeams: V1Routes = (app, { ctx, respond }) => {
  app.get(
    '/teams',
    {
      config: { scope: 'teams:read' },
      schema: {
        operationId: 'listTeams',
        summary: 'List the teams the key reaches',
        description:
          "A team key's own team, or every team of an organization key's organization, including teams that join later. " +
          'Ordered by name ignoring case (teams without a name last), then id. Needs `teams:read`.',
        tags: ['Teams'],
        querystring: NoParameters,
        response: respond(200, 'The teams', Type.Object({ data: Type.Array(Type.Ref('Team')) }), ['scope_missing']),
      },
    },
    async (request, reply) => {
      const key = admittedKey(request);
      return sendCached(ctx, reply, ['teams', key.home], async (reader) => teamList(reader, key));
    },
  );

  app.get(
    '/members',
    {
      config: { scope: 'members:read' },
      schema: {
        operationId: 'listMembers',
        summary: 'List the members of one team',
        description: 'Every member of one team the key reaches, ordered by joined_at, then id. Needs `members:read`.',
        tags: ['Teams'],
        querystring: Type.Object(
          { team_id: Uuid({ description: 'The team; find ids with GET /teams' }) },
          { additionalProperties: false },
        ),
        response: respond(200, 'The members', Type.Object({ data: Type.Array(Type.Ref('Member')) }), [
          'invalid_request',
          'not_found',
          'scope_missing',
        ]),
      },
    },
    async (request, reply) => {
      const teamId = request.query.team_id;
      const key = admittedKey(request);
      return sendCached(ctx, reply, ['members', key.home, teamId], async (reader) => memberList(reader, key, teamId));
    },
  );
};

// GET /guides and GET /guides/{guideId} (spec §4.2, §4.3).
import { Type } from '@sinclair/typebox';
import { ACCEPTS, Cursor, NoParameters, Uuid } from '../schemas/common.js';
import { sendCached } from './cached-answer.js';
import { guideForKey, guideList } from './read-answers.js';
import { admittedKey } from './key-auth.js';
import { GuidePage } from './schemas.js';
import type { V1Routes } from './v1-routes.js';

const GuideListQuery = Type.Object(
  {
    team_id: Uuid({ description: 'Narrows to one team; when omitted, every team the key reaches' }),
    q: Type.String({
      minLength: 2,
      maxLength: 200,
      pattern: '^[^\\u0000-\\u001f\\u007f]*$',
      [ACCEPTS]: 'text without control characters',
      description:
        'Text the guide title contains, as written but for case (2 to 200 characters): one piece, so `reset password` does not find ' +
        '"Reset a password" (MCP\'s search_guides searches by words: /docs#searching); %, _ and \\ are plain characters',
    }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Rows per page' }),
    cursor: Cursor(),
  },
  { additionalProperties: false },
);

export const registerGuides: V1Routes = (app, { ctx, respond }) => {
  app.get(
    '/guides',
    {
      config: { scope: 'guides:read' },
      schema: {
        operationId: 'listGuides',
        summary: 'List or search guides',
        description:
          'Every guide the key reaches, drafts included, newest first (created_at, then id, descending), in keyset pages. ' +
          'Guides still processing are left out. Listing is never cut by plan: each guide carries its `locked` flag. ' +
          'A cursor is bound to the key and to the `team_id` and `q` it came with. Needs `guides:read`.',
        tags: ['Guides'],
        querystring: Type.Partial(GuideListQuery, { additionalProperties: false }),
        response: respond(200, 'A page of guides', GuidePage, ['invalid_request', 'not_found', 'scope_missing']),
      },
    },
    async (request, reply) => {
      const key = admittedKey(request);
      const { q, cursor, limit } = request.query;
      const teamId = request.query.team_id;
      // The whole answer is kept under the request's own parameters: a page served again needs neither
      // the cursor checked (it was, for this key and these filters) nor the key's reach looked up.
      return sendCached(ctx, reply, ['guides', key.id, teamId, q, cursor, limit], async (reader) =>
        guideList(ctx, reader, key, { teamId, q, limit: limit!, cursor }),
      );
    },
  );

  app.get(
    '/guides/:guideId',
    {
      config: { scope: 'guides:read' },
      schema: {
        operationId: 'getGuide',
        summary: 'Read one guide with its markdown body',
        description:
          'A UUID-shaped `guideId` (any letter case) is read as an id, anything else as a permalink. On a plan without full API ' +
          'access `markdown_body` is a preview and `notice` says why; a locked guide is cut to its short cut. Needs `guides:read`.',
        tags: ['Guides'],
        querystring: NoParameters,
        params: Type.Object({ guideId: Type.String({ description: 'The guide id or its permalink' }) }, { additionalProperties: false }),
        response: respond(200, 'The guide', Type.Object({ data: Type.Ref('Guide') }), ['not_found', 'scope_missing']),
      },
    },
    async (request, reply) => {
      const key = admittedKey(request);
      const { guideId } = request.params;
      return sendCached(ctx, reply, ['guide', key.home, guideId], async (reader) => ({ data: await guideForKey(ctx, reader, key, guideId) }));
    },
  );
};

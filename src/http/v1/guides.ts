// GET /guides and GET /guides/{guideId} (spec §4.2, §4.3).
import { Type } from '@sinclair/typebox';
import { guideBodyForPlan } from '../../domain/guides/guide-body.js';
import { findVisibleGuide, guidePage } from '../../domain/guides/guide-reads.js';
import { reachedTeamIds } from '../../domain/teams.js';
import { keysetList } from '../keyset-page.js';
import { notFound } from '../problem.js';
import { ACCEPTS, Cursor, NoParameters, Uuid } from '../schemas/common.js';
import { sendCached } from './cached-answer.js';
import { admittedKey } from './key-auth.js';
import { presentGuide, presentGuideListItem } from './presenters.js';
import { GuidePage } from './schemas.js';
import type { V1Routes } from './v1-plugin.js';

const GuideListQuery = Type.Object(
  {
    team_id: Uuid({ description: 'Narrows to one team; when omitted, every team the key reaches' }),
    q: Type.String({
      minLength: 2,
      maxLength: 200,
      pattern: '^[^\\u0000-\\u001f\\u007f]*$',
      [ACCEPTS]: 'text without control characters',
      description: 'Case-insensitive match on the guide title (2 to 200 characters); %, _ and \\ are plain characters',
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
      return sendCached(ctx, reply, ['guides', key.id, teamId, q, cursor, limit], async (reader) => {
        const binding = { holder: key.id, filters: [teamId, q] };
        const refusal = "Parameter 'cursor' is not a cursor of this list: pass next_cursor unchanged, with the same team_id and q";
        return keysetList(ctx.cursorSecret, binding, cursor, refusal, async (after) => {
          const teamIds = await reachedTeamIds(reader.db, key.home, teamId);
          if (teamIds === null) throw notFound('No team with that team_id is reachable with this key');
          const organizationId = key.home.type === 'organization' && teamId === undefined ? key.home.id : null;
          const page = await guidePage(reader, { teamIds, organizationId, q, limit: limit!, after });
          return { items: page.items.map(presentGuideListItem), next: page.next };
        });
      });
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
      return sendCached(ctx, reply, ['guide', key.home, guideId], async (reader) => {
        const teamIds = (await reachedTeamIds(reader.db, key.home)) ?? [];
        const found = await findVisibleGuide(reader.db, teamIds, guideId);
        if (!found) throw notFound('No guide this key may see has that id or permalink');
        return { data: presentGuide(found, guideBodyForPlan(found.row, found.plan, found.locked, ctx.settings.previewSteps)) };
      });
    },
  );
};

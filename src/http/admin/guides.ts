// Guides (decisions §7): list a team's, create, read, edit, settle processing, move and delete, each
// write emitting its event.
import { Type } from '@sinclair/typebox';
import { describeGuide } from '../../domain/guides/guide-reads.js';
import type { GuideRow } from '../../domain/guides/guide-record.js';
import {
  createGuide,
  deleteGuide,
  moveGuide,
  requireGuideRow,
  settleProcessing,
  updateGuide,
} from '../../domain/guides/guide-writes.js';
import type { DomainContext } from '../../domain/context.js';
import { keysetList, NOT_THIS_LIST } from '../keyset-page.js';
import { teamGuideList } from '../../domain/team-guide-list.js';
import { Cursor, Nullable, Uuid } from '../schemas/common.js';
import type { AdminRoutes } from './admin-routes.js';
import { presentAdminGuide, presentGuideSummary } from './presenters.js';
import { GuideFields, IdParams, NewGuide } from './schemas.js';

const GuideAnswer = Type.Object({ data: Type.Ref('AdminGuide') });

/** The management API reads the store itself: a read through another process right after a write shows it. */
async function guideAnswer(ctx: DomainContext, row: GuideRow) {
  return { data: presentAdminGuide(await describeGuide({ ...ctx, readCache: undefined }, row)) };
}

export const registerGuides: AdminRoutes = (app, { ctx, can, respond }) => {
  app.get(
    '/guides',
    {
      config: { sessions: true },
      schema: {
        operationId: 'listTeamGuides', summary: 'List a team\'s guides',
        description: "A team's guides, whatever their processing state, newest first, in keyset pages like GET /v1/guides.",
        tags: ['Guides'],
        querystring: Type.Object(
          {
            team_id: Uuid(),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            cursor: Type.Optional(Cursor()),
          },
          { additionalProperties: false },
        ),
        response: respond(200, 'A page of guides', Type.Object({ data: Type.Array(Type.Ref('AdminGuideSummary')), next_cursor: Nullable(Type.String()) })),
      },
    },
    async (request) => {
      const { team_id: teamId, cursor } = request.query;
      await can.team(request, teamId, 'read');
      const binding = { holder: 'admin', filters: ['guides', teamId] };
      return keysetList(ctx.cursorSecret, binding, cursor, NOT_THIS_LIST, async (after) => {
        const page = await teamGuideList(ctx, teamId, request.query.limit ?? 50, after);
        return { items: page.items.map(presentGuideSummary), next: page.next };
      });
    },
  );

  app.post(
    '/guides',
    {
      config: { sessions: true },
      schema: {
        operationId: 'createGuide', summary: 'Create a guide',
        description: 'Creates a guide (guide.created). With `processing: true` it stays out of the API until processing settles.',
        tags: ['Guides'],
        body: NewGuide,
        response: respond(201, 'The guide', GuideAnswer),
      },
    },
    async (request, reply) => {
      await can.team(request, request.body.team_id, 'edit');
      // Only the operator settles processing, so only the operator may start a guide in it.
      if (request.body.processing) can.operator(request, 'Only the operator may create a guide in processing, because only the operator can settle it');
      const guide = await createGuide(ctx, request.body);
      return reply.code(201).send(await guideAnswer(ctx, guide));
    },
  );

  app.get(
    '/guides/:id',
    { config: { sessions: true }, schema: { operationId: 'getGuide', summary: 'Read a guide', description: 'The guide whole, whatever its processing state and the plan.', tags: ['Guides'], params: IdParams, response: respond(200, 'The guide', GuideAnswer) } },
    async (request) => {
      await can.guide(request, request.params.id, 'read');
      return guideAnswer(ctx, await requireGuideRow(ctx.db, request.params.id));
    },
  );

  app.patch(
    '/guides/:id',
    {
      config: { sessions: true },
      schema: {
        operationId: 'updateGuide', summary: 'Change a guide',
        description: 'Edits the guide; a change of a column listed in spec §6.3 emits guide.updated (coalesced).',
        tags: ['Guides'],
        params: IdParams,
        body: Type.Partial(GuideFields, { additionalProperties: false }),
        response: respond(200, 'The guide', GuideAnswer),
      },
    },
    async (request) => {
      await can.guide(request, request.params.id, 'edit');
      return guideAnswer(ctx, await updateGuide(ctx, request.params.id, request.body));
    },
  );

  app.post(
    '/guides/:id/processing',
    {
      schema: {
        operationId: 'settleGuideProcessing', summary: 'Settle a guide\'s processing',
        description: 'Ends processing: `finished` (guide.ready; the guide needs steps) or `failed` (guide.failed). 409 when not processing.',
        tags: ['Guides'],
        params: IdParams,
        body: Type.Object(
          {
            outcome: Type.Unsafe<'finished' | 'failed'>({ type: 'string', enum: ['finished', 'failed'] }),
            error: Type.Optional(Type.String({ maxLength: 2000 })),
          },
          { additionalProperties: false },
        ),
        response: respond(200, 'The guide', GuideAnswer),
      },
    },
    async (request) =>
      guideAnswer(ctx, await settleProcessing(ctx, request.params.id, request.body.outcome, request.body.error ?? null)),
  );

  app.post(
    '/guides/:id/move',
    {
      config: { sessions: true },
      schema: {
        operationId: 'moveGuide', summary: 'Move a guide to another team',
        description: 'Moves the guide to another team: guide.deleted for the old team, guide.created for the new one.',
        tags: ['Guides'],
        params: IdParams,
        body: Type.Object({ team_id: Uuid() }, { additionalProperties: false }),
        response: respond(200, 'The guide', GuideAnswer),
      },
    },
    async (request) => {
      await can.guide(request, request.params.id, 'edit');
      await can.team(request, request.body.team_id, 'edit');
      return guideAnswer(ctx, await moveGuide(ctx, request.params.id, request.body.team_id));
    },
  );

  app.delete(
    '/guides/:id',
    { config: { sessions: true }, schema: { operationId: 'deleteGuide', summary: 'Delete a guide', description: 'Emits guide.deleted.', tags: ['Guides'], params: IdParams, response: respond(204, 'Deleted (guide.deleted)', null) } },
    async (request, reply) => {
      await can.guide(request, request.params.id, 'edit');
      await deleteGuide(ctx, request.params.id);
      return reply.code(204).send();
    },
  );
};

// The audit log (shared decisions §10): management writes and console sign-ins, newest first, in keyset
// pages, for whoever may read them (the policies' auditReach).
import { Type } from '@sinclair/typebox';
import { AUDIT_ACTIONS, auditPage } from '../../domain/audit.js';
import { keysetList, NOT_THIS_LIST } from '../keyset-page.js';
import { invalidRequest } from '../problem.js';
import { Cursor, Nullable, StringEnum, Timestamp, Uuid } from '../schemas/common.js';
import type { AdminRoutes } from './admin-routes.js';
import { presentAuditEvent } from './presenters.js';
import { HomeType } from './schemas.js';

export const registerAuditEvents: AdminRoutes = (app, { ctx, can, respond }) => {
  app.get(
    '/audit-events',
    {
      config: { sessions: true },
      schema: {
        operationId: 'listAuditEvents',
        summary: 'Read the audit log',
        description:
          'Every management write (by the operator or a person signed in to the console) and every console sign-in, newest first, in keyset pages. ' +
          "The operator reads all of them; an organization's admins those of the organization and its teams; a team's ADMIN members those of the team. " +
          '`home_type` with `home_id` narrows to one team or organization (an organization includes its teams), `action` to one kind, `actor_id` to one ' +
          'person, `since` (included) and `until` (not) to a time range. Events name people by id and changes by the names of the fields they set, never by ' +
          'values. They are kept `AUDIT_RETENTION_DAYS` (365 by default).',
        tags: ['Audit log'],
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            cursor: Type.Optional(Cursor()),
            home_type: Type.Optional(HomeType),
            home_id: Type.Optional(Uuid({ description: 'With home_type: only the events of this team or organization' })),
            action: Type.Optional(StringEnum(AUDIT_ACTIONS, { description: 'Only events of this kind' })),
            actor_id: Type.Optional(Uuid({ description: "Only this person's events" })),
            since: Type.Optional(Timestamp({ description: 'Only events at or after this time' })),
            until: Type.Optional(Timestamp({ description: 'Only events before this time; later than `since`' })),
          },
          { additionalProperties: false },
        ),
        response: respond(200, 'A page of audit events', Type.Object({ data: Type.Array(Type.Ref('AdminAuditEvent')), next_cursor: Nullable(Type.String()) })),
      },
    },
    async (request) => {
      const { cursor, action } = request.query;
      const { home_type: homeType, home_id: homeId } = request.query;
      if ((homeType === undefined) !== (homeId === undefined)) throw invalidRequest("Parameters 'home_type' and 'home_id' go together: give both or neither");
      const home = homeType !== undefined && homeId !== undefined ? { type: homeType, id: homeId.toLowerCase() } : undefined;
      const actorId = request.query.actor_id?.toLowerCase();
      // Stored times are RFC 3339 in UTC with milliseconds, compared as text: an offset is converted.
      const since = request.query.since === undefined ? undefined : new Date(request.query.since).toISOString();
      const until = request.query.until === undefined ? undefined : new Date(request.query.until).toISOString();
      if (since !== undefined && until !== undefined && until <= since) throw invalidRequest("Parameter 'until' must be later than 'since'");
      const reach = await can.auditReach(request, home);
      const binding = { holder: 'admin', filters: ['audit', home?.type, home?.id, action, actorId, since, until] };
      return keysetList(ctx.cursorSecret, binding, cursor, NOT_THIS_LIST, async (after) => {
        const page = await auditPage(ctx, reach, { home, action, actorId, since, until }, after, request.query.limit ?? 50);
        return { items: page.rows.map(presentAuditEvent), next: page.next };
      });
    },
  );
};

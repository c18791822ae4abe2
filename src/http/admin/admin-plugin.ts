// The management API under /admin/v1 (decisions §7): the application's back end, behind ADMIN_TOKEN for
// the operator and behind a console session for people, whose rights the policies check route by route.
import type { FastifySchema, RouteOptions } from 'fastify';
import type { DomainContext } from '../../domain/context.js';
import type { EndpointPolicy } from '../../webhooks/endpoints.js';
import type { ErrorCode } from '../error-catalogue.js';
import { ADMIN_EXAMPLES } from '../docs/recorded-examples.js';
import { adminGuide } from '../docs/reference-guides.js';
import { referencePageHandler, renderReferencePage } from '../docs/reference-page.js';
import { installDeprecations } from '../deprecation.js';
import { registerOpenApiDocument } from '../openapi-document.js';
import { RELEASE_VERSION } from '../release.js';
import { lowercaseIdParameters } from '../lowercase-ids.js';
import { noStore } from '../no-store.js';
import { ProblemError } from '../problem.js';
import type { RequestRateLimit } from '../rate-limit.js';
import { Problem } from '../schemas/common.js';
import { responses } from '../schemas/responses.js';
import type { TypeBoxApp } from '../typebox-app.js';
import { Member, TeamRole } from '../v1/schemas.js';
import { actAsCaller, callerHook, credentialOf } from './admin-auth.js';
import { installIdempotency } from '../idempotency.js';
import { faultyBodyRefusal } from '../body-faults.js';

import { strictBodyValidatorCompiler } from './body-validation.js';
import { RouteMethods } from './method-not-allowed.js';
import { registerApiKeys } from './api-keys.js';
import { registerGuides } from './guides.js';
import { registerOrganizations } from './organizations.js';
import { AdminGuide, AdminGuideSummary, ApiKey, AuditEvent, Organization, OrganizationAdmin, Team, User } from './schemas.js';
import { Attempt, Endpoint, EndpointHealth, MailEntry } from './webhook-schemas.js';
import { registerTeams } from './teams.js';
import { registerTenants } from './tenants.js';
import { registerUsers } from './users.js';
import { registerDeliveries } from './deliveries.js';
import { registerMail } from './mail.js';
import { registerAuditEvents } from './audit-events.js';
import { registerWebhookEndpoints } from './webhook-endpoints.js';
import type { AdminDeps } from './admin-routes.js';
import { AdminPolicies } from './policies.js';
import { MANAGEMENT_KEY_NOTE, MANAGEMENT_KEY_OPERATIONS } from './management-key-operations.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body may be left out, and is then taken as `{}`: every field of it is optional. */
    optionalBody?: boolean;
  }
}

const ADMIN_ERRORS: readonly ErrorCode[] = [
  'invalid_request',
  'invalid_key',
  'forbidden',
  'rate_limited',
  'not_found',
  'conflict',
  'idempotency_key_in_use',
  'idempotency_key_reused',
  'limit_reached',
  'payload_too_large',
  'unsupported_media_type',
  'expectation_failed',
  'internal_error',
  'service_unavailable',
];

export interface AdminOptions {
  ctx: DomainContext;
  rateLimit: RequestRateLimit;
  endpointPolicy: EndpointPolicy;
  adminToken: string;
  publicUrl: string;
  /** A request failed because the store could not serve it (readiness). */
  onStoreFault: () => void;
}

/** The operations a management key may call say so, and list its scheme beside the admin token (management-key-operations.ts). */
function markManagementKeyOperation(route: RouteOptions): void {
  const schema = route.schema as (FastifySchema & { operationId?: string; description?: string; security?: unknown }) | undefined;
  if (!schema?.operationId || !MANAGEMENT_KEY_OPERATIONS.has(schema.operationId)) return;
  schema.description = `${schema.description ?? ''}\n\n${MANAGEMENT_KEY_NOTE}`.trim();
  schema.security = [{ adminToken: [] }, { managementKey: [] }];
}

export async function adminPlugin(app: TypeBoxApp, options: AdminOptions): Promise<void> {
  const routeMethods = new RouteMethods();
  app.addHook('onRoute', routeMethods.learn);
  app.addHook('onRoute', markManagementKeyOperation);
  installDeprecations(app, options.publicUrl);
  for (const schema of [Problem, TeamRole, Member, Organization, OrganizationAdmin, Team, User, AdminGuide, AdminGuideSummary, ApiKey, Endpoint, EndpointHealth, Attempt, MailEntry, AuditEvent]) {
    app.addSchema(schema);
  }
  await registerOpenApiDocument(app, {
    info: {
      title: 'Guide service management API',
      // The release's version (CHANGELOG.md): this API may change between releases as the versioning policy allows (/docs/versioning).
      version: RELEASE_VERSION,
      description: "The application's back end: the operator calls it with ADMIN_TOKEN, the console with a session cookie, a management key (webhooks:manage) its home's webhooks.",
    },
    servers: [{ url: `${options.publicUrl}/admin/v1` }],
    components: {
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN, or a console session cookie' },
        managementKey: { type: 'http', scheme: 'bearer', description: "An API key with the webhooks:manage scope: the webhook-endpoint and delivery operations of its home" },
      },
    },
    security: [{ adminToken: [] }],
    tags: [
      { name: 'Organizations', description: 'Organizations, their plan, API settings and admins' },
      { name: 'Teams', description: 'Teams and their members' },
      { name: 'Users', description: 'People: members, organization admins, console users' },
      { name: 'Guides', description: 'Creating, editing, moving and deleting guides, each emitting its event' },
      { name: 'API keys', description: 'Keys for the v1 interface' },
      { name: 'Webhook endpoints', description: 'Where events are delivered, their signing keys, pausing and resuming' },
      { name: 'Deliveries', description: 'Every delivery attempt, and sending one again' },
      { name: 'Mail', description: 'The mail outbox' },
      { name: 'Audit log', description: 'Who changed what, when and from where' },
    ],
  }, ADMIN_EXAMPLES);
  // The management API's reference, for whoever may call it (the operator, or a signed-in person).
  app.get('/openapi.json', { config: { sessions: true, reference: true }, schema: { hide: true } }, async () => app.swagger());
  const baseUrl = `${options.publicUrl}/admin/v1`;
  app.get(
    '/docs',
    { config: { sessions: true, reference: true }, schema: { hide: true } },
    referencePageHandler(() => renderReferencePage(app.swagger() as unknown as Record<string, unknown>, options.publicUrl, { baseUrl, credential: '$ADMIN', guide: adminGuide(baseUrl) })),
  );

  // Set by the hook before any handler runs; a request it cannot identify never reaches one.
  app.decorateRequest('caller', null);
  app.addHook('onRequest', callerHook(options.ctx, options.adminToken, options.rateLimit));
  app.setValidatorCompiler(strictBodyValidatorCompiler());
  app.addHook('preHandler', lowercaseIdParameters);
  app.addHook('preHandler', actAsCaller);
  installIdempotency(app, { ctx: options.ctx, publicUrl: options.publicUrl, credentialOf: credentialOf, onStoreFault: options.onStoreFault });
  app.addHook('onRequest', noStore);
  // No store keeps a NUL character in text (PostgreSQL refuses it): refuse it where it comes in.
  app.addHook('preValidation', faultyBodyRefusal(true));
  // Bodies are JSON only; text/plain would otherwise be parsed as a string and fail as a wrong type.
  app.removeContentTypeParser('text/plain');
  // An empty body is no body (src/http/empty-bodies.ts); one whose body is optional (`config.optionalBody`:
  // every field may be left out) takes no body as an empty object.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.optionalBody) request.body ??= {};
  });
  const deps: AdminDeps = {
    ctx: options.ctx,
    endpointPolicy: options.endpointPolicy,
    can: new AdminPolicies(options.ctx),
    respond: (status, description, success) => responses(status, description, success, { rateHeaders: false, errors: ADMIN_ERRORS }),
  };
  for (const register of [registerOrganizations, registerTenants, registerTeams, registerUsers, registerGuides, registerApiKeys, registerWebhookEndpoints, registerDeliveries, registerMail, registerAuditEvents]) {
    register(app, deps);
  }

  app.setNotFoundHandler(async (request) => {
    throw routeMethods.refusal(request) ?? new ProblemError('not_found', 'There is no such path in the management API');
  });
}

// The public read-only interface under /v1: its OpenAPI document, key admission, the four resources,
// 405 for every other method on their paths, and 404 for unknown paths, all with the same headers.
import { Type } from '@sinclair/typebox';
import type { DomainContext } from '../../domain/context.js';
import { answerPreflight, isPreflight, readableFromAnyOrigin } from '../cross-origin.js';
import type { ErrorCode } from '../error-catalogue.js';
import { installDeprecations } from '../deprecation.js';
import { ProblemError } from '../problem.js';
import { shownName } from '../problem-handler.js';
import type { RequestRateLimit } from '../rate-limit.js';
import { lowercaseIdParameters } from '../lowercase-ids.js';
import { examplesAt, registerOpenApiDocument } from '../openapi-document.js';
import { Problem } from '../schemas/common.js';
import { V1_EXAMPLES } from '../docs/recorded-examples.js';
import { EVENT_PAYLOADS, webhooksSection } from '../schemas/events.js';
import { responses } from '../schemas/responses.js';
import type { TypeBoxApp } from '../typebox-app.js';
import { registerAuthVerify } from './auth-verify.js';
import { FeedEvent } from './event-feed-schemas.js';
import { registerEvents } from './events.js';
import { registerGuides } from './guides.js';
import { tagAnswer } from './entity-tags.js';
import { admit } from './key-auth.js';
import { Guide, GuideListItem, Key, Member, Team, TeamRole } from './schemas.js';
import { registerTeams } from './teams.js';
import type { V1Deps } from './v1-routes.js';

/** Every v1 endpoint can answer every error of spec §7, a method it does not take and an expectation it cannot meet. */
const V1_ERRORS: readonly ErrorCode[] = [
  'invalid_request',
  'invalid_key',
  'key_expired',
  'scope_missing',
  'api_disabled',
  'team_keys_disabled',
  'not_found',
  'rate_limited',
  'method_not_allowed',
  'expectation_failed',
  'internal_error',
  'service_unavailable',
];

// Every v1 answer carries an ETag; a client sends it back to be told 304 when nothing changed.
const ConditionalHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'An ETag of an earlier answer: 304 Not Modified, without a body, while it is still current' })),
});

/** Filled in by the plugin: how the rest of the app reads the generated OpenAPI document. */
export interface OpenApiSource {
  get?: () => Record<string, unknown>;
}

export interface V1Options {
  ctx: DomainContext;
  rateLimit: RequestRateLimit;
  publicUrl: string;
  document: OpenApiSource;
}

const READ_METHODS = 'GET, HEAD';
/** The paths of the interface, whatever the method. */
const V1_PATHS = /^\/v1\/(auth\/verify|guides|guides\/[^/]+|teams|members|events|openapi\.json)$/;

export async function v1Plugin(app: TypeBoxApp, options: V1Options): Promise<void> {
  const { ctx, rateLimit, publicUrl } = options;
  for (const schema of [Problem, TeamRole, Key, GuideListItem, Guide, Team, Member, ...EVENT_PAYLOADS, FeedEvent]) app.addSchema(schema);
  installDeprecations(app, publicUrl);

  await registerOpenApiDocument(app, {
    info: {
      title: 'Guide service API',
      version: '1.0.0',
      description:
        'Read-only REST interface over guides, the teams an API key reaches and their members. ' +
        `Errors are RFC 9457 problems; the reference is at ${publicUrl}/docs.`,
    },
    servers: [{ url: `${publicUrl}/v1` }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key made in the application' } } },
    security: [{ bearer: [] }],
    tags: [
      { name: 'Authentication', description: 'Checking a key' },
      { name: 'Guides', description: 'Step-by-step documents with markdown content' },
      { name: 'Teams', description: 'Teams the key reaches and their members' },
      { name: 'Events', description: 'The events feed: the events webhooks deliver, to read at any time' },
      { name: 'Webhooks', description: 'What the service POSTs to the webhook endpoints admins register: one signed JSON event per delivery' },
    ],
    webhooks: webhooksSection(ctx.settings.appUrl),
  }, examplesAt(V1_EXAMPLES, ctx.settings.appUrl));

  // Admission runs first for every /v1 request, known or not. An unknown path is then 404 and another
  // method on a known path 405 (decisions §4), both answered before any body is read.
  // A browser's preflight is answered before that, counted like a request for the public document: it
  // carries no key, and the interface grants no page access (src/http/cross-origin.ts).
  app.addHook('onRequest', async (request, reply) => {
    if (isPreflight(request)) {
      await admit(ctx, rateLimit, request, reply, { public: true });
      return answerPreflight(reply, publicUrl, V1_PATHS.test(request.url.split('?')[0]!) ? READ_METHODS : null);
    }
    if (!request.is404) return admit(ctx, rateLimit, request, reply, request.routeOptions.config);
    const path = request.url.split('?')[0]!;
    await admit(ctx, rateLimit, request, reply, { public: path === '/v1/openapi.json' });
    if (V1_PATHS.test(path)) {
      throw new ProblemError('method_not_allowed', `The v1 interface is read-only; use ${READ_METHODS}`, { allow: READ_METHODS });
    }
    throw new ProblemError('not_found', 'There is no such path in the v1 interface');
  });

  // A repeated query parameter is refused by name rather than by the type error it would cause, and an
  // integer parameter must be written as digits (schema coercion alone would take 0x10, 1e1 or +5).
  app.addHook('preValidation', async (request) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const properties = (request.routeOptions.schema?.querystring as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value)) throw new ProblemError('invalid_request', `Parameter '${shownName(name)}' is given more than once`);
      if (properties[name]?.type === 'integer' && !/^\d{1,9}$/.test(String(value))) {
        throw new ProblemError('invalid_request', `Parameter '${name}' must be a whole number written in digits`);
      }
    }
  });

  app.addHook('preHandler', lowercaseIdParameters);
  app.addHook('onSend', tagAnswer);
  app.addHook('onRoute', (route) => {
    if (route.schema && !route.schema.hide) route.schema.headers ??= ConditionalHeaders;
  });

  const deps: V1Deps = {
    ctx,
    respond: (status, description, success, errors) =>
      responses(status, description, success, { rateHeaders: true, entityTags: true, errors: [...new Set([...V1_ERRORS, ...errors])] }),
  };
  for (const register of [registerAuthVerify, registerGuides, registerTeams, registerEvents]) register(app, deps);
  // Requests waiting on the events feed answer at once when the process stops, rather than holding it up.
  app.addHook('preClose', async () => ctx.eventFeed?.close());

  options.document.get = () => app.swagger() as unknown as Record<string, unknown>;
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    readableFromAnyOrigin(reply);
    return app.swagger();
  });

  // Reached only if the admission hook let an unknown path through, which it never does.
  app.setNotFoundHandler(async () => {
    throw new ProblemError('not_found', 'There is no such path in the v1 interface');
  });
}

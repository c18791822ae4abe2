// Builds the HTTP application: request ids, problem errors, the public v1 interface, its MCP twin for AI
// assistants, the management API and the reference. It listens nowhere; main.ts or a test decides that.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import type { Store } from '../db/database.js';
import type { DomainContext } from '../domain/context.js';
import type { EndpointPolicy } from '../webhooks/endpoints.js';
import { consolePlugin } from '../console/console-plugin.js';
import { installMetrics, type MetricsEndpoint } from '../metrics/metrics-http.js';
import { adminPlugin } from './admin/admin-plugin.js';
import { faultyBodyRefusal } from './body-faults.js';
import { docsPlugin } from './docs/docs-plugin.js';
import { notFoundPage } from './docs/site-pages.js';
import { installEmptyBodies } from './empty-bodies.js';
import { installExpectContinue } from './expect-continue.js';
import { followConnections } from './graceful-close.js';
import { healthPlugin } from './health.js';
import { clientErrorAnswer, refuseMalformedRequest } from './malformed-requests.js';
import { prefersHtml } from './prefers-html.js';
import { ProblemError } from './problem.js';
import { answerFor, installProblemHandler, sendProblem } from './problem-handler.js';
import type { RequestRateLimit } from './rate-limit.js';
import { logAnswered } from './logged-request.js';
import { requestIds } from './request-id.js';
import { type NextTurn, requestTurns } from './request-turns.js';
import { ACCEPTS, LISTED_AS } from './schemas/common.js';
import type { TypeBoxApp } from './typebox-app.js';
import { admit } from './v1/key-auth.js';
import { type OpenApiSource, v1Plugin } from './v1/v1-plugin.js';
import { mcpPlugin } from './mcp/mcp-plugin.js';

export interface AppOptions {
  ctx: DomainContext;
  publicUrl: string;
  adminToken: string;
  rateLimit: RequestRateLimit;
  loggerInstance: FastifyBaseLogger;
  endpointPolicy: EndpointPolicy;
  store: Store;
  /** False for a worker-only process: it serves only the health probes. */
  serveApi: boolean;
  trustProxy: boolean | number | string;
  /** Without SMTP, console sign-in links are also written to the log so that a local start can sign in. */
  logSignInLinks: boolean;
  /** GET /metrics and the request measurements, with METRICS_TOKEN set (src/metrics). */
  metrics?: MetricsEndpoint;
  /** When a waiting request's turn comes: the event loop's next turn unless a test says otherwise. */
  nextTurn?: NextTurn;
}

const BODY_LIMIT_BYTES = 1024 * 1024;
const MAX_PARAM_LENGTH = 4096;

/** Trusts the nearest `hops` proxies, like Fastify's numeric setting. */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

export async function buildApp(options: AppOptions): Promise<TypeBoxApp> {
  const { publicUrl } = options;
  const onStoreFault = () => options.store.health.noteFault();
  const app = Fastify({
    loggerInstance: options.loggerInstance,
    // Client addresses count refused keys; behind a proxy they come from X-Forwarded-For.
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : options.trustProxy,
    genReqId: requestIds([options.adminToken, ...(options.metrics ? [options.metrics.token] : [])]),
    requestIdHeader: false,
    // One line per request (written when it is answered, logAnswered), not Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // A request without Host is refused by refuseMalformedRequest as a problem with a request id, not by
    // Node with a bare 400.
    http: { requireHostHeader: false },
    // A request that reaches a closing process is answered as usual (with `Connection: close`), not with
    // Fastify's bare 503: the store stays open until every request in flight is answered.
    return503OnClosing: false,
    ajv: {
      // Unknown and repeated parameters are refused, never dropped or coerced into something else.
      // verbose: a refusal can say what the failed schema accepts, in words (problem-handler.ts).
      customOptions: { removeAdditional: false, coerceTypes: true, useDefaults: true, allErrors: false, verbose: true, keywords: [ACCEPTS, LISTED_AS] },
    },
    // Long path values reach their route and get its answer (a 404 for a guideId that names nothing).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A path Fastify cannot decode (broken percent-encoding) names nothing: 404, but on /v1 only after
    // the same admission as any other request, so it carries the same headers and counts the same.
    clientErrorHandler: clientErrorAnswer(publicUrl),
    frameworkErrors: (_error, request, reply) => {
      const notFound = new ProblemError('not_found', 'There is no such path');
      if (!request.url.startsWith('/v1/')) return sendProblem(reply, publicUrl, notFound);
      admit(options.ctx, options.rateLimit, request, reply, {}).then(
        () => sendProblem(reply, publicUrl, notFound),
        (error: Error) => sendProblem(reply, publicUrl, answerFor(error, request, onStoreFault)),
      );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('apiKey', null);
  const connections = followConnections(app.server);
  app.addHook('preClose', async () => connections.closing());
  const measure = installMetrics(app, options.metrics, publicUrl);
  const turns = requestTurns(options.nextTurn);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    turns.take(done);
  });
  // One hook for the log line and the measurement: every hook a request passes costs it.
  app.addHook('onResponse', (request, reply, done) => {
    logAnswered(request, reply);
    measure?.(request, reply);
    done();
  });
  installExpectContinue(app);
  installEmptyBodies(app);
  app.addHook('preValidation', refuseMalformedRequest);
  app.addHook('preValidation', faultyBodyRefusal(false));
  installProblemHandler(app, publicUrl, onStoreFault);
  // A person's browser gets a page with the ways on (not on a worker, which serves no pages to lead to).
  let notFoundHtml: string | undefined;
  app.setNotFoundHandler(async (request, reply) => {
    if (!options.serveApi || !prefersHtml(request)) throw new ProblemError('not_found', 'There is no such path');
    return reply.code(404).type('text/html; charset=utf-8').send((notFoundHtml ??= notFoundPage(publicUrl)));
  });

  await app.register(healthPlugin, { store: options.store });
  if (!options.serveApi) return app;

  const v1Document: OpenApiSource = {};
  await app.register(v1Plugin, { prefix: '/v1', ctx: options.ctx, rateLimit: options.rateLimit, publicUrl, document: v1Document });
  // The same reads for AI assistants over the Model Context Protocol, admitted as v1 is (src/http/mcp).
  await app.register(mcpPlugin, { prefix: '/mcp', ctx: options.ctx, rateLimit: options.rateLimit, publicUrl });
  await app.register(adminPlugin, {
    prefix: '/admin/v1',
    ctx: options.ctx,
    adminToken: options.adminToken,
    rateLimit: options.rateLimit,
    publicUrl,
    endpointPolicy: options.endpointPolicy,
    onStoreFault,
  });
  await app.register(docsPlugin, { document: v1Document, publicUrl, perMinute: options.rateLimit.limit });
  await app.register(consolePlugin, {
    ctx: options.ctx,
    adminToken: options.adminToken,
    rateLimit: options.rateLimit,
    logSignInLinks: options.logSignInLinks,
    log: options.loggerInstance,
  });
  return app;
}

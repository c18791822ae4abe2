// The HTTP side of the metrics: `GET /metrics` (Prometheus text format) behind METRICS_TOKEN, and the hooks
// that measure every answered request by route template. /metrics and the probes are operators' and load
// balancers' traffic, not the API's: they are not measured, not rate-limited (no plugin that limits
// serves them) and not logged at info.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { adminTokenCheck } from '../auth/admin-token.js';
import { bearerToken } from '../http/bearer.js';
import type { ErrorCode } from '../http/error-catalogue.js';
import { ProblemError } from '../http/problem.js';
import { sendProblem } from '../http/problem-handler.js';
import type { RouteRecorder } from './request-durations.js';
import type { ServiceMetrics } from './service-metrics.js';

export const METRICS_PATH = '/metrics';
/** Routes that are not API traffic: not measured, and logged only from warn up. */
export const QUIET_ROUTES: ReadonlySet<string> = new Set([METRICS_PATH, '/healthz', '/readyz']);
/** Route templates whose 2xx answers count as a resend or a resume. */
export const RESEND_ROUTE = '/admin/v1/deliveries/:id/resend';
export const RESUME_ROUTE = '/admin/v1/webhook-endpoints/:id/resume';
/** The route label of a request no route matched (a 404 from the not-found handler). */
export const UNMATCHED_ROUTE = '(unmatched)';

export interface MetricsEndpoint {
  metrics: ServiceMetrics;
  /** METRICS_TOKEN: the bearer token /metrics answers to. */
  token: string;
}

declare module 'fastify' {
  interface FastifyReply {
    /** The code of the problem answered (sendProblem), for the metrics. */
    problemCode: ErrorCode | null;
  }
}

/** Measures one answered request; called from the app's one onResponse hook (each hook a request passes costs). */
export type MeasureAnswer = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Installs, on the root instance before any route: quiet logging of /metrics and the probes (always),
 * and with `endpoint` (METRICS_TOKEN set) the /metrics route, returning what measures each answered
 * request. Without it /metrics does not exist (the not-found handler answers 404) and nothing is measured.
 */
export function installMetrics(app: FastifyInstance, endpoint: MetricsEndpoint | undefined, publicUrl: string): MeasureAnswer | undefined {
  app.decorateReply('problemCode', null);
  const metrics = endpoint?.metrics;
  // Each route template's recorder, made as the route is added: measuring a request costs a look-up.
  const recorders = new Map<string, RouteRecorder>();
  app.addHook('onRoute', (route) => {
    if (QUIET_ROUTES.has(route.url)) {
      // Quieter, never louder: a process logging at error or silent keeps its probes' warnings out too.
      if (!route.logLevel && ['trace', 'debug', 'info'].includes(app.log.level)) route.logLevel = 'warn';
      return;
    }
    if (metrics && !recorders.has(route.url)) recorders.set(route.url, metrics.requestRecorder(route.url));
  });
  if (!endpoint || !metrics) return undefined;

  const isToken = adminTokenCheck(endpoint.token);
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const given = bearerToken(request.headers.authorization);
    if (given === null || !isToken(given)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendProblem(reply, publicUrl, new ProblemError('invalid_key', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'));
    }
    const { contentType, text } = await metrics.exposition();
    return reply.header('cache-control', 'no-store').type(contentType).send(text);
  });

  // What no route matched (the not-found handler's 404s) is measured under one label.
  const unmatched = metrics.requestRecorder(UNMATCHED_ROUTE);
  return (request, reply) => {
    const route = request.routeOptions.url;
    const record = route === undefined ? unmatched : recorders.get(route);
    if (!record) return; // the quiet routes
    const status = reply.statusCode;
    record(request.method, status, reply.elapsedTime / 1000);
    if (reply.problemCode !== null) metrics.problem(reply.problemCode);
    else if (status >= 200 && status < 300 && request.method === 'POST') {
      if (route === RESEND_ROUTE) metrics.resends.inc();
      else if (route === RESUME_ROUTE) metrics.resumes.inc();
    }
  };
}

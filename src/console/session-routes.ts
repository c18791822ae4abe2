// Sign-in for the console under /console/api (issue 6): ask for an e-mailed link, sign in with it (once),
// sign in as the operator with the admin token, see who is signed in, sign out. Signing in sets the
// session cookie; the answer carries the CSRF token that the console sends back on every write.
import { AUDIT_ACTIONS, actingAs, actorFor } from '../domain/audit.js';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainContext } from '../domain/context.js';
import { EVENT_DESCRIPTIONS, SUBSCRIBABLE_EVENTS } from '../domain/events.js';
import { requireUser } from '../domain/users.js';
import { adminTokenCheck } from '../auth/admin-token.js';
import { refuseCredential, refuseWhileSpent } from '../http/credential-refusal.js';
import { ProblemError, invalidRequest } from '../http/problem.js';
import { type RequestRateLimit, applyRateHeaders, rateLimited } from '../http/rate-limit.js';
import type { TypeBoxApp } from '../http/typebox-app.js';
import { consoleHomes } from './console-homes.js';
import { loadGrants } from '../auth/grants.js';
import { SESSION_COOKIE, clearedSessionCookie, readCookie, sessionCookie } from '../auth/session-cookie.js';
import { type ConsoleSession, carriesCsrfToken, endSession, findSession, startSession } from '../auth/sessions.js';
import { ADDRESS_WINDOW_MS, LINKS_PER_ADDRESS, SIGN_IN_LINK_TTL_MS, consumeSignInLink, requestSignInLink } from '../auth/sign-in-links.js';

export interface SessionRouteOptions {
  ctx: DomainContext;
  adminToken: string;
  rateLimit: RequestRateLimit;
  /** Without SMTP the link is written to the log at info level, so that a local start can sign in. */
  logSignInLinks: boolean;
}

const secure = (request: FastifyRequest) => request.protocol === 'https';

/**
 * A sign-in comes from the console's own page: a JSON body (which another site's form cannot send) and,
 * when the browser names it, the same origin. So no other site can sign a visitor in to its own account.
 */
function requireSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let same = false;
  try {
    // Through URL both sides drop a default port the same way.
    same = new URL(origin).host === new URL(`${request.protocol}://${request.host}`).host;
  } catch {
    same = false;
  }
  if (!same) throw new ProblemError('forbidden', 'Sign in from the console itself');
}

async function currentSession(ctx: DomainContext, adminToken: string, request: FastifyRequest): Promise<{ token: string; session: ConsoleSession } | null> {
  const token = readCookie(request.headers.cookie, SESSION_COOKIE);
  const session = token === null ? null : await findSession(ctx, token, adminToken);
  return token !== null && session !== null ? { token, session } : null;
}

async function whoAmI(ctx: DomainContext, session: ConsoleSession) {
  const user = session.userId === null ? null : await requireUser(ctx.db, session.userId);
  const grants = session.userId === null ? null : await loadGrants(ctx.db, session.userId);
  return {
    data: {
      operator: user === null,
      user: user && { id: user.id, email: user.email, name: user.name },
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt,
      /** What the endpoint form offers, each with when it is sent. */
      event_types: SUBSCRIBABLE_EVENTS,
      event_descriptions: EVENT_DESCRIPTIONS,
      /** How many retries follow a failed first attempt, for "retry 3 of 8" in the Deliveries list. */
      webhook_retries: ctx.settings.webhookRetries,
      /** What the audit log's filter offers. */
      audit_actions: AUDIT_ACTIONS,
      ...(await consoleHomes(ctx.db, grants)),
    },
  };
}

async function signIn(options: SessionRouteOptions, request: FastifyRequest, reply: FastifyReply, userId: string | null) {
  const { ctx } = options;
  // Recorded in the audit log as the one signing in, from where they asked.
  const scope = { actor: actorFor(userId), address: request.ip, requestId: request.id };
  const { token, session } = await actingAs(scope, () => startSession(ctx, userId, options.adminToken));
  reply.header('set-cookie', sessionCookie(token, secure(request)));
  return whoAmI(ctx, session);
}

// No address holds a control character, and PostgreSQL refuses a NUL in text: refused as a bad request.
const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f]*$';

export function registerSessionRoutes(app: TypeBoxApp, options: SessionRouteOptions): void {
  const { ctx, rateLimit } = options;
  const isAdminToken = adminTokenCheck(options.adminToken);

  app.post(
    '/console/api/sign-in-links',
    { schema: { hide: true, body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 320, pattern: NO_CONTROL_CHARACTERS }) }, { additionalProperties: false }) } },
    async (request, reply) => {
      requireSameOrigin(request);
      const state = await rateLimit.take(`sign-in-ip:${request.ip}`);
      applyRateHeaders(reply, state);
      if (!state.allowed) throw rateLimited(state);
      // The same answer whatever happens, sent before the address is even looked up, so that neither
      // its words nor its timing tell anybody which addresses have users. The link's budgets count per
      // person and asking client address (request.ip, the forwarded one behind a TRUST_PROXY).
      const { email } = request.body;
      setImmediate(() =>
        requestSignInLink(ctx, email, request.ip).then(
          (result) => {
            // One line per request, naming neither the address asked for nor the client's: what became
            // of it, for the operator (a person's cap spent from many addresses is worth a look).
            if (result.outcome === 'sent' && options.logSignInLinks) {
              request.log.info(
                { sign_in_link_outcome: 'sent', sign_in_link: result.link },
                'sign-in link (SMTP_URL is not set, so the link is logged instead of e-mailed)',
              );
            } else if (result.outcome === 'throttled') {
              const whose = result.budget === 'person' ? "the person's" : "the asking address's";
              request.log[result.budget === 'person' ? 'warn' : 'info'](
                { sign_in_link_outcome: 'throttled', sign_in_link_budget: result.budget },
                `no sign-in link sent: ${whose} budget is spent`,
              );
            } else {
              request.log.info({ sign_in_link_outcome: result.outcome }, 'sign-in link request handled');
            }
          },
          (error: unknown) => request.log.error({ err: error }, 'could not record a sign-in link'),
        ),
      );
      return reply.code(202).send({
        data: {
          message:
            `If the address belongs to a user, a sign-in link is on its way. It works once, within ${SIGN_IN_LINK_TTL_MS / 60_000} minutes. ` +
            `No more than ${LINKS_PER_ADDRESS} links are sent to one address from one network every ${ADDRESS_WINDOW_MS / 60_000} minutes: if none comes, use the last one that did.`,
        },
      });
    },
  );

  app.post(
    '/console/api/session',
    { schema: { hide: true, body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }) } },
    async (request, reply) => {
      requireSameOrigin(request);
      const userId = await consumeSignInLink(ctx, request.body.token);
      if (userId === null) throw invalidRequest('This sign-in link no longer works: a link works once, within 15 minutes. Ask for a new one.');
      return signIn(options, request, reply, userId);
    },
  );

  app.post(
    '/console/api/session/operator',
    { schema: { hide: true, body: Type.Object({ admin_token: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }) } },
    async (request, reply) => {
      requireSameOrigin(request);
      refuseWhileSpent(rateLimit, request, reply);
      if (!isAdminToken(request.body.admin_token)) return refuseCredential(rateLimit, request, reply, 'That is not the admin token');
      return signIn(options, request, reply, null);
    },
  );

  app.get('/console/api/session', { schema: { hide: true } }, async (request, reply) => {
    const current = await currentSession(ctx, options.adminToken, request);
    if (current === null) return refuseCredential(rateLimit, request, reply, 'Not signed in');
    return whoAmI(ctx, current.session);
  });

  app.delete('/console/api/session', { schema: { hide: true } }, async (request, reply) => {
    const current = await currentSession(ctx, options.adminToken, request);
    if (current !== null) {
      if (!carriesCsrfToken(request.headers['x-csrf-token'], current.session)) {
        throw new ProblemError('forbidden', "Signing out must carry the session's X-CSRF-Token header");
      }
      await endSession(ctx, current.token, options.adminToken);
    }
    return reply.code(204).header('set-cookie', clearedSessionCookie(secure(request))).send();
  });
}

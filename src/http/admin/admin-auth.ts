// Who calls the management API: the operator with the ADMIN_TOKEN bearer (compared in constant time), a
// person signed in to the console with a session cookie, or a management key (an API key with
// `webhooks:manage`, shared decisions §11). A session's writes must carry its CSRF token in
// X-CSRF-Token. A person reaches only the routes that declare `config.sessions` (each then checks the
// person's rights with the policies), a key only the webhook-endpoint and delivery operations; every
// other route stays the operator's. Wrong tokens and cookies are refused as credential-refusal.ts says,
// so guessing stops rather than merely slowing down; a wrong key as v1 refuses it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { adminTokenCheck } from '../../auth/admin-token.js';
import { type Grants, loadGrants } from '../../auth/grants.js';
import { SESSION_COOKIE, readCookie } from '../../auth/session-cookie.js';
import { carriesCsrfToken, findSession } from '../../auth/sessions.js';
import { MANAGE_WEBHOOKS, type ApiKey } from '../../domain/api-keys.js';
import { KEY_PREFIX } from '../../domain/api-key-secret.js';
import { actingAs, actorFor, type AuditActor } from '../../domain/audit.js';
import type { DomainContext } from '../../domain/context.js';
import { bearerChallenge, bearerToken } from '../bearer.js';
import { refuseCredential, refuseWhileSpent } from '../credential-refusal.js';
import { ProblemError } from '../problem.js';
import type { RequestRateLimit } from '../rate-limit.js';
import { admit, admittedKey } from '../v1/key-auth.js';
import { MANAGEMENT_KEY_OPERATIONS } from './management-key-operations.js';

export type Caller = { kind: 'operator' } | { kind: 'person'; userId: string; grants: Grants } | { kind: 'api_key'; key: ApiKey };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the caller hook before any management handler runs. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** The route serves signed-in people too; its handler checks their rights. */
    sessions?: boolean;
    /** The route is the API's reference (its document or page): a refusal says what it needs. */
    reference?: boolean;
  }
}

export const OPERATOR: Caller = { kind: 'operator' };
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('management route reached without an identified caller');
  return request.caller;
}

/** Whose Idempotency-Keys the request's are (src/http/idempotency.ts): the operator's, one person's across their sessions, or a key's. */
export function credentialOf(request: FastifyRequest): string {
  const caller = callerOf(request);
  if (caller.kind === 'operator') return 'operator';
  return caller.kind === 'person' ? `person:${caller.userId}` : `api_key:${caller.key.id}`;
}

/** Who the audit log says acts. */
function actorOf(caller: Caller): AuditActor {
  if (caller.kind === 'api_key') return { type: 'api_key', id: caller.key.id };
  return actorFor(caller.kind === 'operator' ? null : caller.userId);
}

/**
 * preHandler, last before the handler: the handler runs as its caller, so that every write it makes is
 * recorded in the audit log as theirs, from their address, in this request. (After the body is read:
 * the body's stream events run outside any scope opened before them.)
 */
export function actAsCaller(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  const caller = callerOf(request);
  actingAs({ actor: actorOf(caller), address: request.ip, requestId: request.id }, done);
}

export function forbidden(detail: string): ProblemError {
  return new ProblemError('forbidden', detail);
}

/** Why the reference is refused: a plain `curl` of it is often someone's first call to this API. */
const REFERENCE_REFUSED =
  "The management API's reference (/admin/v1/openapi.json and /admin/v1/docs) needs the operator token, as Authorization: " +
  "Bearer $ADMIN_TOKEN (the ADMIN_TOKEN setting, or the token in the data directory's admin-token file), or a console " +
  'session; the v1 reference needs no key: /docs and /v1/openapi.json';

export function callerHook(ctx: DomainContext, adminToken: string, rateLimit: RequestRateLimit) {
  const isAdminToken = adminTokenCheck(adminToken);
  // Its 401 challenges for a bearer token (RFC 6750), as v1's: the operator and management keys send one.
  const refuse = (request: FastifyRequest, reply: FastifyReply, detail: string) =>
    refuseCredential(
      rateLimit,
      request,
      reply,
      !request.is404 && request.routeOptions.config.reference === true ? REFERENCE_REFUSED : detail,
      bearerChallenge(bearerToken(request.headers.authorization) === null ? undefined : 'The token is not the admin token'),
    );

  return async function identifyCaller(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.headers.authorization !== undefined) {
      const given = bearerToken(request.headers.authorization);
      // An API key is admitted as v1 admits it (401 counted per address, 429, the organization's policy).
      if (given !== null && given.startsWith(KEY_PREFIX)) {
        await admit(ctx, rateLimit, request, reply, {});
        request.caller = { kind: 'api_key', key: managementKey(request) };
        return;
      }
      refuseWhileSpent(rateLimit, request, reply);
      if (given !== null && isAdminToken(given)) {
        request.caller = OPERATOR;
        return;
      }
      return refuse(request, reply, 'Send the admin token as Authorization: Bearer <ADMIN_TOKEN>');
    }
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = token === null ? null : await findSession(ctx, token, adminToken);
    if (session === null) return refuse(request, reply, 'Sign in to the console, or send the admin token as Authorization: Bearer <ADMIN_TOKEN>');
    if (WRITES.has(request.method) && !carriesCsrfToken(request.headers['x-csrf-token'], session)) {
      throw forbidden("A change from the console must carry the session's X-CSRF-Token header; reload the page and try again");
    }
    if (session.userId === null) {
      request.caller = OPERATOR;
      return;
    }
    if (!request.is404 && request.routeOptions.config.sessions !== true) {
      throw forbidden('Only the operator may do this, with the admin token');
    }
    request.caller = { kind: 'person', userId: session.userId, grants: await loadGrants(ctx.db, session.userId) };
  };
}

/**
 * The admitted key, if it may call this operation (shared decisions §11): a key with `webhooks:manage`,
 * for the webhook-endpoint and delivery operations (MANAGEMENT_KEY_OPERATIONS) and the API's reference;
 * anything else is 403 scope_missing. A path that names no operation is left to be answered 404.
 */
function managementKey(request: FastifyRequest): ApiKey {
  const key = admittedKey(request);
  if (!key.scopes.includes(MANAGE_WEBHOOKS)) {
    throw new ProblemError('scope_missing', `The management API takes an API key only with the ${MANAGE_WEBHOOKS} scope, for webhook endpoints and deliveries`);
  }
  const operation = request.routeOptions.schema?.operationId;
  if (request.is404 || request.routeOptions.config.reference === true || (operation !== undefined && MANAGEMENT_KEY_OPERATIONS.has(operation))) return key;
  throw new ProblemError(
    'scope_missing',
    `A key with ${MANAGE_WEBHOOKS} may call the webhook-endpoint and delivery operations only; this one needs the admin token or a console session`,
  );
}

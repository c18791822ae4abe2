// Who calls the management API: the operator with the ADMIN_TOKEN bearer (compared in constant time), or
// a person signed in to the console with a session cookie. A session's writes must carry its CSRF token
// in X-CSRF-Token. A person reaches only the routes that declare `config.sessions` (each then checks
// the person's rights with the policies); every other route stays the operator's. Wrong tokens and
// cookies are counted per client address like refused API keys; once an address has spent its budget,
// the admin token is not even compared until the window ends, so a guess that happens to be right is
// refused too and guessing stops rather than merely slowing down.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Grants, loadGrants } from '../../console/grants.js';
import { SESSION_COOKIE, readCookie } from '../../console/session-cookie.js';
import { carriesCsrfToken, findSession } from '../../console/sessions.js';
import type { DomainContext } from '../../domain/context.js';
import { bearerToken } from '../bearer.js';
import { ProblemError } from '../problem.js';
import { type RequestRateLimit, applyRateHeaders, rateLimited } from '../rate-limit.js';

export type Caller = { kind: 'operator' } | { kind: 'person'; userId: string; grants: Grants };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the caller hook before any management handler runs. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** The route serves signed-in people too; its handler checks their rights. */
    sessions?: boolean;
  }
}

export const OPERATOR: Caller = { kind: 'operator' };
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const digest = (text: string) => createHash('sha256').update(text).digest();

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('management route reached without an identified caller');
  return request.caller;
}

export function forbidden(detail: string): ProblemError {
  return new ProblemError('forbidden', detail);
}

/** Whether a text is the admin token; comparing digests keeps it constant-time whatever the length. */
export function adminTokenCheck(adminToken: string): (given: string) => boolean {
  const expected = digest(adminToken);
  return (given) => timingSafeEqual(digest(given), expected);
}

// Addresses that spent their budget of wrong credentials, with when (ms) the window ends: per rate limit,
// so that the management API and the console's sign-in share them, and per process.
const spentAddresses = new WeakMap<RequestRateLimit, Map<string, number>>();
const SPENT_PRUNE_AT = 10_000;

function spentOf(rateLimit: RequestRateLimit): Map<string, number> {
  let spent = spentAddresses.get(rateLimit);
  if (!spent) spentAddresses.set(rateLimit, (spent = new Map()));
  return spent;
}

/**
 * Before the admin token is compared: an address that spent its budget of wrong credentials is refused
 * with 429 whatever it sends, until the window ends. Otherwise only wrong guesses would be refused, and a
 * right one would still get in (and 429 against 200 would tell the guesser which was which).
 */
export function refuseWhileSpent(rateLimit: RequestRateLimit, request: FastifyRequest, reply: FastifyReply): void {
  const spent = spentOf(rateLimit);
  const until = spent.get(request.ip);
  if (until === undefined) return;
  const left = until - Date.now();
  if (left <= 0) {
    spent.delete(request.ip);
    return;
  }
  const state = { limit: rateLimit.limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(left / 1000)), allowed: false };
  applyRateHeaders(reply, state);
  throw rateLimited(state);
}

/** Refuses a wrong token or cookie with 401, counted against the client address (429 once spent). */
export async function refuseCredential(rateLimit: RequestRateLimit, request: FastifyRequest, reply: FastifyReply, detail: string): Promise<never> {
  const state = await rateLimit.take(`admin-ip:${request.ip}`);
  applyRateHeaders(reply, state);
  if (!state.allowed) {
    const spent = spentOf(rateLimit);
    const now = Date.now();
    if (spent.size >= SPENT_PRUNE_AT) for (const [ip, until] of spent) if (until <= now) spent.delete(ip);
    spent.set(request.ip, now + state.resetSeconds * 1000);
    throw rateLimited(state);
  }
  throw new ProblemError('invalid_key', detail);
}

export function callerHook(ctx: DomainContext, adminToken: string, rateLimit: RequestRateLimit) {
  const isAdminToken = adminTokenCheck(adminToken);
  const refuse = (request: FastifyRequest, reply: FastifyReply, detail: string) => refuseCredential(rateLimit, request, reply, detail);

  return async function identifyCaller(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.headers.authorization !== undefined) {
      refuseWhileSpent(rateLimit, request, reply);
      const given = bearerToken(request.headers.authorization);
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

// Admission of a v1 request, in the order of decisions §4: the key (401), the rate limit (429), the
// organization's policy (403), then the scope the route needs (403). Requests refused with 401 are
// counted against their client address so that keys cannot be guessed at speed. The MCP endpoint
// (src/http/mcp) admits its requests here too, without a scope, and checks each tool's scope with
// requireScope. A request that waits (the events feed) is admitted again while it waits (readmit).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ApiKey, type Authentication, type KeyPolicy, type Scope, authenticateKey, touchApiKey } from '../../domain/api-keys.js';
import type { DomainContext } from '../../domain/context.js';
import { bearerChallenge, bearerToken } from '../bearer.js';
import { ProblemError } from '../problem.js';
import { type RequestRateLimit, applyRateHeaders, rateLimited } from '../rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
  interface FastifyContextConfig {
    /** The scope a v1 route needs; none for /auth/verify. */
    scope?: Scope;
    /** Served without a key (the OpenAPI document), rate limited by client address. */
    public?: boolean;
  }
}


export interface Admission {
  scope?: Scope;
  public?: boolean;
}

/** Admits a v1 request or throws the problem that refuses it. */
export async function admit(
  ctx: DomainContext,
  rateLimit: RequestRateLimit,
  request: FastifyRequest,
  reply: FastifyReply,
  config: Admission,
): Promise<void> {
  if (config.public) {
    const state = await rateLimit.take(`ip:${request.ip}`);
    applyRateHeaders(reply, state);
    if (!state.allowed) throw rateLimited(state);
    return;
  }

  const bearer = bearerToken(request.headers.authorization);
  const authentication = bearer === null ? ({ outcome: 'invalid' } as const) : await authenticateKey(ctx, bearer);
  if (authentication.outcome !== 'ok') {
    const state = await rateLimit.take(`ip:${request.ip}`);
    applyRateHeaders(reply, state);
    if (!state.allowed) throw rateLimited(state);
    throw keyRefusal(authentication, bearer);
  }

  const { key, policy } = authentication;
  const state = await rateLimit.take(`key:${key.id}`);
  applyRateHeaders(reply, state);
  if (!state.allowed) throw rateLimited(state);
  refuseByPolicy(policy);
  if (config.scope) requireScope(key, config.scope, 'endpoint');
  request.apiKey = key;
  touchApiKey(ctx, key).catch((error: unknown) => request.log.warn({ err: error }, 'could not record the key as used'));
}

/** The 401 of a key that is not accepted (missing, malformed, unknown, revoked or expired), with its challenge. */
function keyRefusal(authentication: Authentication, bearer: string | null): ProblemError {
  if (authentication.outcome === 'expired') {
    return new ProblemError('key_expired', 'The API key has expired; create a new key in the application', bearerChallenge('The API key has expired'));
  }
  if (bearer === null) return new ProblemError('invalid_key', 'Send the API key as Authorization: Bearer <API_KEY>', bearerChallenge());
  return new ProblemError('invalid_key', 'The API key is malformed, unknown or revoked', bearerChallenge('The API key is malformed, unknown or revoked'));
}

/** The 403 of an organization's policy that refuses the key. */
function refuseByPolicy(policy: KeyPolicy): void {
  if (policy === 'api_disabled') throw new ProblemError('api_disabled', 'The organization turned API access off in its API settings');
  if (policy === 'team_keys_disabled') throw new ProblemError('team_keys_disabled', 'The organization allows organization keys only');
}

/**
 * Admits a request that is still waiting (decisions §10, `/v1/events?wait=`) again, without counting it
 * against the rate limit once more: a key revoked or expired since, or an organization's policy changed
 * since, ends the wait with the refusal a new request would get. `fresh` reads the key and its policy
 * from the store rather than the read cache, whose invalidation from another process may still be on
 * its way: asked before anything is answered, so that nothing written after the change goes out.
 */
export async function readmit(ctx: DomainContext, request: FastifyRequest, options: { fresh: boolean }): Promise<void> {
  const bearer = bearerToken(request.headers.authorization);
  const authentication = bearer === null ? ({ outcome: 'invalid' } as const) : await authenticateKey(ctx, bearer, options);
  if (authentication.outcome !== 'ok') throw keyRefusal(authentication, bearer);
  refuseByPolicy(authentication.policy);
}

/** Refuses a key without `scope` with 403 scope_missing naming it; `what` is what needs it (a v1 endpoint, an MCP tool). */
export function requireScope(key: ApiKey, scope: Scope, what: 'endpoint' | 'tool'): void {
  if (!key.scopes.includes(scope)) throw new ProblemError('scope_missing', `This ${what} needs the ${scope} scope`);
}

/** The key admitted for this request; routes behind the admission hook always have one. */
export function admittedKey(request: FastifyRequest): ApiKey {
  if (!request.apiKey) throw new Error('route reached without an admitted key');
  return request.apiKey;
}

// How the management API and the console's sign-in refuse a wrong admin token, session cookie or sign-in:
// 401, counted per client address like refused API keys, and 429 once the address has spent its budget,
// until the window ends, whatever it sends (the lockout, src/auth/lockout.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CredentialLockout } from '../auth/lockout.js';
import { ProblemError } from './problem.js';
import { type RequestRateLimit, applyRateHeaders, rateLimited } from './rate-limit.js';

// One lockout per rate limit, so that the management API and the console's sign-in share it.
const lockouts = new WeakMap<RequestRateLimit, CredentialLockout>();

function lockoutOf(rateLimit: RequestRateLimit): CredentialLockout {
  let lockout = lockouts.get(rateLimit);
  if (!lockout) lockouts.set(rateLimit, (lockout = new CredentialLockout()));
  return lockout;
}

/** Before a credential is compared: an address that spent its budget is refused with 429 until the window ends. */
export function refuseWhileSpent(rateLimit: RequestRateLimit, request: FastifyRequest, reply: FastifyReply): void {
  const left = lockoutOf(rateLimit).remainingMs(request.ip, Date.now());
  if (left === 0) return;
  const state = { limit: rateLimit.limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(left / 1000)), allowed: false };
  applyRateHeaders(reply, state);
  throw rateLimited(state);
}

/**
 * Refuses a wrong token or cookie with 401, counted against the client address (429 once spent). The
 * management API's 401 carries its bearer challenge (`headers`); the console's sign-in, a form, none.
 */
export async function refuseCredential(
  rateLimit: RequestRateLimit,
  request: FastifyRequest,
  reply: FastifyReply,
  detail: string,
  headers: Record<string, string> = {},
): Promise<never> {
  const state = await rateLimit.take(`admin-ip:${request.ip}`);
  applyRateHeaders(reply, state);
  if (!state.allowed) {
    const now = Date.now();
    lockoutOf(rateLimit).lock(request.ip, now + state.resetSeconds * 1000, now);
    throw rateLimited(state);
  }
  throw new ProblemError('invalid_key', detail, headers);
}

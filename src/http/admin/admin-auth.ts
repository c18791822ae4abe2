// The management API's bearer: the ADMIN_TOKEN, compared in constant time. Wrong tokens are counted per
// client address like refused API keys, so the token cannot be guessed at speed.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../bearer.js';
import { ProblemError } from '../problem.js';
import { type RequestRateLimit, applyRateHeaders, rateLimited } from '../rate-limit.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function adminAuthHook(adminToken: string, rateLimit: RequestRateLimit) {
  const expected = digest(adminToken);
  return async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const given = bearerToken(request.headers.authorization);
    // Comparing digests keeps the comparison constant-time whatever the length of what was sent.
    if (given !== null && timingSafeEqual(digest(given), expected)) return;
    const state = await rateLimit.take(`admin-ip:${request.ip}`);
    applyRateHeaders(reply, state);
    if (!state.allowed) throw rateLimited(state);
    throw new ProblemError('invalid_key', 'Send the admin token as Authorization: Bearer <ADMIN_TOKEN>');
  };
}

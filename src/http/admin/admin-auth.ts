// The management API's bearer: the ADMIN_TOKEN, compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../problem.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function adminAuthHook(adminToken: string) {
  const expected = digest(adminToken);
  return async function requireAdmin(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const given = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header)?.[1] : undefined;
    // Comparing digests keeps the comparison constant-time whatever the length of what was sent.
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      throw new ProblemError('invalid_key', 'Send the admin token as Authorization: Bearer <ADMIN_TOKEN>');
    }
  };
}

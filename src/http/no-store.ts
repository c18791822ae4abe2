// Answers of the management API and the console's sign-in carry secrets (a new key, an endpoint's
// signing key, a session's CSRF token) or private data: no proxy or browser cache may keep them.
import type { FastifyReply, FastifyRequest } from 'fastify';

export async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'no-store');
}

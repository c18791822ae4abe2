// Browsers and the interfaces that take API keys (docs/decisions.md "Cross-origin requests (CORS)"): /v1
// and /mcp are for servers, whose keys are secrets, so they grant no cross-origin access. A browser's
// preflight gets a plain answer that grants nothing and links to why, rather than the 401 that admission
// would give it (a preflight never carries the key the page meant to send).
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether the request is a CORS preflight: OPTIONS naming an origin and the method it means to use. */
export function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

/**
 * Answers a preflight: 204 with the methods the path takes (`allow`, when it is a known path) and a Link
 * to the reference's section that says why a page cannot call it, and no Access-Control-Allow-* header,
 * so the browser refuses the call. Nothing in it depends on the origin, so it needs no Vary.
 */
export function answerPreflight(reply: FastifyReply, publicUrl: string, allow: string | null): FastifyReply {
  if (allow !== null) reply.header('allow', allow);
  return reply.code(204).header('link', `<${publicUrl}/docs#cross-origin>; rel="help"`).send();
}

/** The public OpenAPI document may be read from any page (an editor or a viewer loading it by URL): it holds no secret. */
export function readableFromAnyOrigin(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
}

// Whether a request comes from a person's browser rather than a client of the APIs: a person who follows a
// dead link or types an address gets a page (issue 44); an API client, which asks for JSON or for anything
// (curl's `*/*`), gets a problem as before.
import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

// In the order taken when the client likes them equally: `*/*` gets JSON.
const ANSWER_TYPES = ['application/problem+json', 'application/json', 'text/html'];

/** A GET whose Accept header ranks HTML above JSON, as a browser's navigation does. */
export function prefersHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET') return false;
  return new Negotiator({ headers: { accept: request.headers.accept } }).mediaType(ANSWER_TYPES) === 'text/html';
}

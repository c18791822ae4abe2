// Requests the service refuses before any route sees them, with the same problem shape, request id and
// headers as every other answer: a credential or Host header sent twice (Node keeps the first and drops
// the rest, so the service would answer for a request the client did not mean), a query string that
// cannot be decoded or holds NUL (PostgreSQL refuses it in text, so a search with one was a 500 there),
// and what the HTTP parser itself refuses (headers too large, a request not finished in time, bytes that
// are not HTTP).
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from './error-catalogue.js';
import { shownName } from './problem-handler.js';
import { ProblemError, problemBody } from './problem.js';

// Headers Node keeps only the first of; the names as rawHeaders spells them are compared lowercased.
const SINGLE_HEADERS = new Map([
  ['authorization', 'Authorization'],
  ['host', 'Host'],
]);

/** The first header of SINGLE_HEADERS sent more than once, with how many times, or null. */
function repeatedHeader(rawHeaders: readonly string[]): { name: string; count: number } | null {
  const counts = new Map<string, number>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = SINGLE_HEADERS.get(rawHeaders[i]!.toLowerCase());
    if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const [name, count] of counts) if (count > 1) return { name, count };
  return null;
}

interface QueryFault {
  /** The parameter's name as the detail shows it: decoded, or as it was sent when it cannot be shown decoded. */
  name: string;
  kind: 'undecodable' | 'nul';
}

/** Percent-decoded query text (`+` for a space), or null when it is not valid percent-encoded UTF-8. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * The first query parameter whose name or value is not valid percent-encoded UTF-8 (the bytes of a lone
 * surrogate included) or decodes to text holding NUL, or null.
 */
function queryFault(url: string): QueryFault | null {
  const start = url.indexOf('?');
  // Only a percent sign can fail to decode or make a NUL: most queries have none and are not split at all.
  if (start === -1 || url.indexOf('%', start) === -1) return null;
  for (const part of url.slice(start + 1).split('&')) {
    const equals = part.indexOf('=');
    const sentName = equals === -1 ? part : part.slice(0, equals);
    const name = decoded(sentName);
    if (name === null) return { name: sentName, kind: 'undecodable' };
    if (name.includes('\u0000')) return { name: sentName, kind: 'nul' };
    const value = equals === -1 ? '' : decoded(part.slice(equals + 1));
    if (value === null) return { name, kind: 'undecodable' };
    if (value.includes('\u0000')) return { name, kind: 'nul' };
  }
  return null;
}

const QUERY_FAULT_WORDS: Record<QueryFault['kind'], string> = {
  undecodable: 'is not valid percent-encoded UTF-8',
  nul: 'must not contain NUL characters',
};

/**
 * preValidation, for every route: an HTTP/1.1 request without Host (which Node would answer itself with a
 * bare 400, so the server is made with requireHostHeader off), a request carrying Authorization or Host
 * more than once, or a query string that cannot be decoded or holds NUL, is refused. It runs after
 * admission (on /v1 an onRequest hook, after the key, policy and scope), so the refusal carries the rate
 * headers every v1 answer carries and comes where parameters are checked (decisions §4), and before any
 * handler reads the request.
 */
export async function refuseMalformedRequest(request: FastifyRequest): Promise<void> {
  if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
    throw new ProblemError('invalid_request', 'Send the Host header: every HTTP/1.1 request must name the host it is for');
  }
  const repeated = repeatedHeader(request.raw.rawHeaders);
  if (repeated) throw new ProblemError('invalid_request', `Send the ${repeated.name} header once; this request has ${repeated.count}`);
  const fault = queryFault(request.url);
  if (fault !== null) throw new ProblemError('invalid_request', `Parameter '${shownName(fault.name)}' ${QUERY_FAULT_WORDS[fault.kind]}`);
}

const PARSER_REFUSALS: Record<string, { code: ErrorCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'The request headers are larger than the service accepts' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'The request was not received in time' },
};
const NOT_HTTP = { code: 'invalid_request' as const, detail: 'The request is not well-formed HTTP/1.1' };

/**
 * Fastify's clientErrorHandler: what Node's parser refuses never becomes a request, so the answer is
 * written to the socket here, as a problem with a request id of its own, and the connection closed.
 */
export function clientErrorAnswer(publicUrl: string) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal = PARSER_REFUSALS[error.code ?? ''] ?? NOT_HTTP;
    const requestId = randomUUID();
    const problem = problemBody(publicUrl, new ProblemError(refusal.code, refusal.detail), requestId);
    const body = JSON.stringify(problem);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${problem.status} ${problem.title}\r\n` +
          `Content-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

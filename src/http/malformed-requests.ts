// Requests the service refuses before any route sees them, with the same problem shape, request id and
// headers as every other answer: a credential or Host header sent twice (Node keeps the first and drops
// the rest, so the service would answer for a request the client did not mean), a query string that
// cannot be decoded, and what the HTTP parser itself refuses (headers too large, a request not finished
// in time, bytes that are not HTTP).
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from './error-catalogue.js';
import { shownName } from './problem-handler.js';
import { ProblemError, problemBody } from './problem.js';

const SINGLE_HEADERS = ['authorization', 'host'] as const;

/** onRequest: a request carrying Authorization or Host more than once is refused, never half-read. */
export async function refuseRepeatedHeaders(request: FastifyRequest): Promise<void> {
  const raw = request.raw.rawHeaders;
  for (const name of SINGLE_HEADERS) {
    let count = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) count++;
    if (count > 1) throw new ProblemError('invalid_request', `Send the ${name === 'host' ? 'Host' : 'Authorization'} header once; this request has ${count}`);
  }
}

/** The name of the first query parameter whose name or value is not valid percent-encoded UTF-8, or null. */
export function undecodableParameter(url: string): string | null {
  const start = url.indexOf('?');
  if (start === -1) return null;
  for (const part of url.slice(start + 1).split('&')) {
    const equals = part.indexOf('=');
    const name = equals === -1 ? part : part.slice(0, equals);
    let shown: string;
    try {
      shown = decodeURIComponent(name.replaceAll('+', ' '));
    } catch {
      return name;
    }
    try {
      if (equals !== -1) decodeURIComponent(part.slice(equals + 1).replaceAll('+', ' '));
    } catch {
      return shown;
    }
  }
  return null;
}

/** preValidation: a query string that cannot be decoded is refused, naming the parameter. */
export async function refuseUndecodableQuery(request: FastifyRequest): Promise<void> {
  const name = undecodableParameter(request.url);
  if (name !== null) {
    throw new ProblemError('invalid_request', `Parameter '${shownName(name)}' is not valid percent-encoded UTF-8`);
  }
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
    const problem = new ProblemError(refusal.code, refusal.detail);
    const body = JSON.stringify(problemBody(publicUrl, problem, requestId));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${problem.status} ${problemBody(publicUrl, problem, requestId).title}\r\n` +
          `Content-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

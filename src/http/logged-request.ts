// What a log line says about a request. Credentials travel in Authorization (redacted by path in the
// logger options), but clients also put them in the URL: `?api_key=…`, `?token=…`, a key pasted into the
// path, percent-encoded or not; and a client writes Host and, behind a trusted proxy, X-Forwarded-For
// (the address). The logged URL keeps its shape and loses every such value: a part of it is replaced when
// its name says it holds a secret or when it, or what it decodes to, has a credential's shape. An e-mail
// address is personal data and goes the same way (docs/decisions.md, "No e-mail address in the log").
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodings, hasSecretShape, REDACTED, withoutSecretShapes } from './secret-shapes.js';

// Parameter names whose values are never logged: a secret in some client's habits, or an e-mail address
// (whole or in part: `GET /admin/v1/users?email=…`).
const UNLOGGED_NAME = /key|token|secret|passw|auth|session|signature|credential|code|mail/i;

/** Text on both sides of an `@`: an e-mail address, or near enough to one to be a person's. */
const EMAIL_ADDRESS = /[^\s@]@[^\s@]/;

const holdsEmailAddress = (part: string) => decodings(part).some((form) => EMAIL_ADDRESS.test(form));

const redactedPart = (part: string) => (hasSecretShape(part) || holdsEmailAddress(part) ? REDACTED : part);

/** A parameter's name as the service reads it, for the name test; the raw name if it does not decode. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** The URL with every secret-named parameter's value and every secret-shaped or address-holding part replaced. */
export function redactedUrl(url: string): string {
  // Shapes first, on the whole URL: the `/` of a base64 secret would split it between path segments.
  const scrubbed = withoutSecretShapes(url);
  const start = scrubbed.indexOf('?');
  const path = (start === -1 ? scrubbed : scrubbed.slice(0, start)).split('/').map(redactedPart).join('/');
  if (start === -1) return path;
  const query = scrubbed
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals === -1) return redactedPart(part);
      const name = part.slice(0, equals);
      if (UNLOGGED_NAME.test(decodedName(name))) return `${redactedPart(name)}=${REDACTED}`;
      return `${redactedPart(name)}=${redactedPart(part.slice(equals + 1))}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** What the serializer reads of a request: Node's (Fastify's own log lines) or Fastify's (ours, with `ip`). */
type LoggableRequest = Pick<IncomingMessage, 'method' | 'url' | 'headers'> & { ip?: string; socket?: { remoteAddress?: string } };

/** pino's `req` serializer: what Fastify logs by default, with what the client wrote redacted. */
export function loggedRequest(request: LoggableRequest) {
  const host = request.headers.host;
  const address = request.ip ?? request.socket?.remoteAddress;
  return {
    method: request.method,
    url: redactedUrl(request.url ?? ''),
    host: host === undefined ? undefined : redactedPart(host),
    remoteAddress: address === undefined ? undefined : redactedPart(address),
  };
}

/** The one log line of a request (on its response), with what was asked, the status and the time it took. */
export function logAnswered(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ req: request, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime * 10) / 10 }, 'request answered');
}

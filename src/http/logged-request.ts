// What a log line says about a request. Credentials travel in Authorization (redacted by path in the
// logger options), but clients also put them in the URL: `?api_key=…`, `?token=…`, or a key pasted into
// the path. The logged URL keeps its shape and loses every such value, so no log line carries a secret.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KEY_PREFIX } from '../domain/api-key-secret.js';

const REDACTED = '[redacted]';
// Parameter names that hold a secret in some client's habits.
const SECRET_NAME = /key|token|secret|passw|auth|session|signature|credential|code/i;
// API keys and generated admin tokens by their prefixes; a sign-in token (43 base64url characters).
const SECRET_SHAPES = new RegExp(`(?:${KEY_PREFIX}|adm_)[0-9A-Za-z_-]+|(?<![0-9A-Za-z_-])[0-9A-Za-z_-]{43}(?![0-9A-Za-z_-])`, 'g');

/** The URL with every secret-named parameter's value and every secret-shaped text replaced. */
export function redactedUrl(url: string): string {
  const start = url.indexOf('?');
  const path = start === -1 ? url : url.slice(0, start);
  const query =
    start === -1
      ? ''
      : '?' +
        url
          .slice(start + 1)
          .split('&')
          .map((part) => {
            const equals = part.indexOf('=');
            return equals !== -1 && SECRET_NAME.test(part.slice(0, equals)) ? `${part.slice(0, equals)}=${REDACTED}` : part;
          })
          .join('&');
  return (path + query).replace(SECRET_SHAPES, REDACTED);
}

/** What the serializer reads of a request: Node's (Fastify's own log lines) or Fastify's (ours, with `ip`). */
type LoggableRequest = Pick<IncomingMessage, 'method' | 'url' | 'headers'> & { ip?: string; socket?: { remoteAddress?: string } };

/** pino's `req` serializer: what Fastify logs by default, with the URL redacted. */
export function loggedRequest(request: LoggableRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url ?? ''),
    host: request.headers.host,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
  };
}

/** The one log line of a request (on its response), with what was asked, the status and the time it took. */
export function logAnswered(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ req: request, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime * 10) / 10 }, 'request answered');
}

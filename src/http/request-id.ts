// X-Request-Id (decisions §4, §10): an incoming value of 1–128 characters from [A-Za-z0-9._:-] that does
// not have a credential's shape (secret-shapes.ts) and holds none of the service's own secrets (the admin
// and metrics tokens, which may have any shape) is kept; anything else is replaced by a new id, so that a
// key sent as a request id is neither logged, echoed back nor kept in the audit log. The same value is in
// the error body's request_id and the logs.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hasSecretShape } from './secret-shapes.js';

const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id of each request, refusing one that holds any of `secrets`. */
export function requestIds(secrets: readonly string[]): (request: IncomingMessage) => string {
  return (request) => {
    const incoming = request.headers['x-request-id'];
    const kept = typeof incoming === 'string' && ACCEPTED.test(incoming) && !hasSecretShape(incoming) && !secrets.some((secret) => incoming.includes(secret));
    return kept ? incoming : randomUUID();
  };
}

// X-Request-Id (decisions §4, §10): an incoming value of 1–128 characters from [A-Za-z0-9._:-] that does
// not have a credential's shape (secret-shapes.ts) is kept; anything else is replaced by a new id, so that
// a key sent as a request id is neither logged nor echoed back. The same value is in the error body's
// request_id and the logs.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hasSecretShape } from './secret-shapes.js';

const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && ACCEPTED.test(incoming) && !hasSecretShape(incoming) ? incoming : randomUUID();
}

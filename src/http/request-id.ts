// X-Request-Id (decisions §4): an incoming value of 1–128 characters from [A-Za-z0-9._-] is kept,
// anything else is replaced by a new id. The same value is in the error body's request_id and the logs.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ACCEPTED = /^[A-Za-z0-9._-]{1,128}$/;

export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && ACCEPTED.test(incoming) ? incoming : randomUUID();
}

// Every error code the service answers with (spec §7, decisions §4 and §7): its status, its title and
// what it means. The problem body's `type` links to the code's entry in the reference at /docs.

export type ErrorCode =
  | 'invalid_key'
  | 'key_expired'
  | 'scope_missing'
  | 'api_disabled'
  | 'team_keys_disabled'
  | 'rate_limited'
  | 'too_many_waits'
  | 'invalid_request'
  | 'cursor_expired'
  | 'not_found'
  | 'method_not_allowed'
  | 'forbidden'
  | 'conflict'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'limit_reached'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'expectation_failed'
  | 'request_timeout'
  | 'headers_too_large'
  | 'internal_error'
  | 'service_unavailable'
  | 'bad_gateway'
  | 'gateway_timeout';

export interface ErrorEntry {
  status: number;
  title: string;
  meaning: string;
  /**
   * False for refusals whose reason is not the rate window, or that may come before the request was
   * counted: they carry no RateLimit headers, whose remaining count would tell a client it may go on.
   */
  rateHeaders?: false;
}

export const ERROR_CATALOGUE: Record<ErrorCode, ErrorEntry> = {
  invalid_key: {
    status: 401,
    title: 'Invalid API key',
    meaning: 'The bearer key is missing, malformed, unknown or revoked. Send `Authorization: Bearer <API_KEY>` with a key created in the application.',
  },
  key_expired: {
    status: 401,
    title: 'API key expired',
    meaning: 'The key passed its expiry. A new key must be created in the application.',
  },
  scope_missing: {
    status: 403,
    title: 'Scope missing',
    meaning: 'The key lacks the scope this endpoint needs; `detail` names the scope. Create a key with that scope.',
  },
  api_disabled: {
    status: 403,
    title: 'API access disabled',
    meaning: "The key's organization turned API access off in its API settings.",
  },
  team_keys_disabled: {
    status: 403,
    title: 'Team keys disabled',
    meaning: "The team's organization allows organization keys only; use an organization key.",
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    meaning: 'More requests than the limit allows in the current 60-second window (600 per key by default; requests refused with 401 count against the client address). `Retry-After` says how many seconds to wait.',
  },
  too_many_waits: {
    status: 429,
    title: 'Too many waiting requests',
    meaning:
      'GET /v1/events only: the key already holds as many requests waiting with `wait` as it may (10 per service process); the request was not held. Wait for one of them to answer, or ask with `wait=0`. `Retry-After` says when to ask again; no RateLimit headers, since the rate window is not the reason.',
    rateHeaders: false,
  },
  invalid_request: {
    status: 400,
    title: 'Invalid request',
    meaning: 'A parameter or body field is wrong: unknown, repeated, malformed or outside its rules. `detail` names it.',
  },
  cursor_expired: {
    status: 400,
    title: 'Cursor expired',
    meaning:
      'GET /v1/events only: the `after` cursor points before the oldest event the feed still keeps (`EVENTS_RETENTION_DAYS`, 30 by default), so events after it may be gone. Start again from the oldest event kept: ask without `after`.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    meaning: 'Nothing the key may see has that id, or the path does not exist.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    meaning: 'The path does not take this method: the v1 interface is read-only (GET or HEAD), and each management path takes only its own methods. The `Allow` header lists them.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    meaning:
      "Management API only: the signed-in person's role does not allow this (API settings need a team ADMIN or an organization admin; editing guides needs EDITOR or ADMIN; some calls are the operator's, with the admin token), or a change from the console came without the session's `X-CSRF-Token`.",
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    meaning: 'Management API only: the change conflicts with the current state (a taken permalink or e-mail, a guide that is not processing).',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency key in use',
    meaning:
      'Management API: a request with this `Idempotency-Key` is still being answered (a retry sent before the first one came back). Wait `Retry-After` seconds and send it again: it then gets the first answer.',
    rateHeaders: false,
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    meaning:
      'Management API: this `Idempotency-Key` was used in the last 24 hours for a request with another method, path or body. A key stands for one request: make a new key for a new request.',
  },
  limit_reached: {
    status: 409,
    title: 'Limit reached',
    meaning:
      'Management API only: the team or organization already has as many of these as the service allows (webhook endpoints: `WEBHOOK_MAX_ENDPOINTS_PER_HOME`, 20 by default); `detail` names the limit. Delete one to add another.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    meaning: 'Management API and `/mcp` only (v1 takes no body): the request body is larger than the service accepts.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    meaning: 'Management API and `/mcp` only (v1 takes no body): request bodies must be `application/json`.',
  },
  expectation_failed: {
    status: 417,
    title: 'Expectation failed',
    meaning: 'The request has an `Expect` header asking for something other than `100-continue`, the one expectation the service meets. Send the request without it.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    meaning: 'The request was not received completely in time; the connection is closed. Send it again.',
  },
  headers_too_large: {
    status: 431,
    title: 'Request header fields too large',
    meaning: 'The request headers are larger than the service accepts (16 KiB in all); the connection is closed.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    meaning: 'A fault on the service side. Quote `request_id` to support; the cause is in the service log.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    meaning:
      'The service cannot reach its store right now (the database down or restarting, the disk full, the store read-only or busy past its time-out). A write is all or nothing: it was not made, unless the connection was lost while it was being committed, so read before repeating a change that must not happen twice. `Retry-After` says how many seconds to wait before trying again.',
    rateHeaders: false,
  },
  // The load balancer's own answers in the documented deployment (docs/deploy.md, "Behind a load
  // balancer: HAProxy"): the service never answers these itself, but its clients meet them.
  bad_gateway: {
    status: 502,
    title: 'Bad gateway',
    meaning:
      'Answered by the load balancer of the documented deployment, not by the service: the process that took the request stopped before it answered (it was killed, or ran out of memory). The request may have been carried out. Repeat a write with the same `Idempotency-Key`, or read before repeating it.',
    rateHeaders: false,
  },
  gateway_timeout: {
    status: 504,
    title: 'Gateway timeout',
    meaning:
      'Answered by the load balancer of the documented deployment, not by the service: no answer came within its time-out (40 s). The request may have been carried out. Repeat a write with the same `Idempotency-Key`, or read before repeating it.',
    rateHeaders: false,
  },
};

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function errorTypeUrl(publicUrl: string, code: ErrorCode): string {
  return `${publicUrl}/docs#error-${code}`;
}

// Response maps for route schemas: the success body plus every problem the route can answer, each with
// the headers every response carries, so the OpenAPI document lists them.
import { type TSchema, Type } from '@sinclair/typebox';
import type { ErrorCode } from '../error-catalogue.js';
import { ERROR_CATALOGUE } from '../error-catalogue.js';

const COMMON_HEADERS = {
  'X-Request-Id': { type: 'string', description: 'The request id; quote it to support' },
};

const RATE_HEADERS = {
  'RateLimit-Limit': { type: 'integer', description: 'Requests allowed in the window' },
  'RateLimit-Remaining': { type: 'integer', description: 'Requests left in the window' },
  'RateLimit-Reset': { type: 'integer', description: 'Seconds until the window resets' },
  'RateLimit-Policy': { type: 'string', description: 'The policy, as in the IETF draft: "default";q=600;w=60' },
  RateLimit: { type: 'string', description: 'The current state, as in the IETF draft: "default";r=<remaining>;t=<reset>' },
};

export interface ResponseOptions {
  rateHeaders: boolean;
  errors: readonly ErrorCode[];
  /** The success carries an ETag, and If-None-Match naming it is answered 304 without a body. */
  entityTags?: boolean;
}

const ETAG_HEADER = { ETag: { type: 'string', description: 'A strong tag of the body; send it back in If-None-Match' } };

/**
 * Marks a documented header that not every answer of its status carries (openapi-document.ts turns it
 * into `required: false`): the RateLimit headers of a 429 are `rate_limited`'s, not `too_many_waits`'.
 */
export const NOT_ALWAYS = 'x-not-always';

type Headers = Record<string, Record<string, unknown>>;

function sometimes(headers: Headers): Headers {
  return Object.fromEntries(Object.entries(headers).map(([name, schema]) => [name, { ...schema, [NOT_ALWAYS]: true }]));
}

function headersFor(options: ResponseOptions, extra: Headers = {}, rate: 'always' | 'sometimes' | 'never' = options.rateHeaders ? 'always' : 'never') {
  const rateHeaders = rate === 'always' ? RATE_HEADERS : rate === 'sometimes' ? sometimes(RATE_HEADERS) : {};
  return { ...COMMON_HEADERS, ...rateHeaders, ...extra };
}

const CHALLENGE_HEADER = {
  'WWW-Authenticate': {
    type: 'string',
    description:
      'The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused',
  },
};

const EXTRA_ERROR_HEADERS: Partial<Record<ErrorCode, Headers>> = {
  invalid_key: CHALLENGE_HEADER,
  key_expired: CHALLENGE_HEADER,
  rate_limited: { 'Retry-After': { type: 'integer', description: 'Whole seconds to wait, at least 1' } },
  too_many_waits: { 'Retry-After': { type: 'integer', description: 'Whole seconds to wait, at least 1' } },
  service_unavailable: { 'Retry-After': { type: 'integer', description: 'Whole seconds to wait before trying again' } },
  method_not_allowed: { Allow: { type: 'string', description: 'The methods the path takes' } },
};

/** Whether the answers of these codes carry the RateLimit headers: all of them, some, or none. */
function rateHeadersOf(options: ResponseOptions, codes: readonly ErrorCode[]): 'always' | 'sometimes' | 'never' {
  const carrying = options.rateHeaders ? codes.filter((code) => ERROR_CATALOGUE[code].rateHeaders !== false).length : 0;
  return carrying === 0 ? 'never' : carrying === codes.length ? 'always' : 'sometimes';
}

/** A response map: `success` at `status` (no body when `success` is null), and the problems listed. */
export function responses(status: number, description: string, success: TSchema | null, options: ResponseOptions) {
  const map: Record<number, unknown> = {};
  const tagged = options.entityTags ? ETAG_HEADER : {};
  map[status] =
    success === null
      ? { description, type: 'null', headers: headersFor(options) }
      : { description, headers: headersFor(options, tagged), content: { 'application/json': { schema: success } } };
  if (options.entityTags) {
    map[304] = { description: 'Not Modified: If-None-Match names the current ETag; no body', type: 'null', headers: headersFor(options, tagged) };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of options.errors) {
    const errorStatus = ERROR_CATALOGUE[code].status;
    byStatus.set(errorStatus, [...(byStatus.get(errorStatus) ?? []), code]);
  }
  for (const [errorStatus, codes] of byStatus) {
    const extra = Object.assign({}, ...codes.map((code) => EXTRA_ERROR_HEADERS[code] ?? {}));
    map[errorStatus] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].title}`).join('; '),
      headers: headersFor(options, extra, rateHeadersOf(options, codes)),
      content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
    };
  }
  return map;
}

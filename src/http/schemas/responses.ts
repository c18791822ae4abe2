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

function headersFor(options: ResponseOptions, extra: Record<string, unknown> = {}, rateHeaders = options.rateHeaders) {
  return { ...COMMON_HEADERS, ...(rateHeaders ? RATE_HEADERS : {}), ...extra };
}

/** Answers that may come before the request was counted, or whose reason is not the rate window: no rate headers. */
const WITHOUT_RATE_HEADERS: ReadonlySet<ErrorCode> = new Set(['service_unavailable']);

const EXTRA_ERROR_HEADERS: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  rate_limited: { 'Retry-After': { type: 'integer', description: 'Whole seconds to wait, at least 1' } },
  service_unavailable: { 'Retry-After': { type: 'integer', description: 'Whole seconds to wait before trying again' } },
  method_not_allowed: { Allow: { type: 'string', description: 'The methods the path takes' } },
};

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
      headers: headersFor(options, extra, options.rateHeaders && !codes.every((code) => WITHOUT_RATE_HEADERS.has(code))),
      content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
    };
  }
  return map;
}

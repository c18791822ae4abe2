// Checking a delivery before trusting it (spec §5 rule 8, shared decisions §9). By default the Standard
// Webhooks headers (https://www.standardwebhooks.com): `webhook-signature` holds space-separated `v1,` and
// the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, and `webhook-timestamp` must be
// near the receiver's clock, so a captured delivery cannot be replayed later. `X-Service-Signature`
// (`sha256=` and the hex HMAC-SHA256 of the body alone) carries no time: it is checked only when the
// caller names it. The body must be the bytes as received; every comparison takes constant time.
// Hand-written on node:crypto rather than the `standardwebhooks` package: its tolerance is fixed and its
// errors do not say why a delivery was refused, and the SDK has no runtime dependencies.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './generated/v1.js';

/** Every event a delivery can carry, discriminated by `type`, with its data as the OpenAPI document's webhooks section describes it. */
export type WebhookEvent = { [Type in keyof webhooks]: webhooks[Type]['post']['requestBody']['content']['application/json'] }[keyof webhooks];
export type WebhookEventType = WebhookEvent['type'];

/** Why a delivery was refused. A header that is absent, empty or repeated counts as missing. */
export type WebhookVerificationReason =
  /** No `webhook-id` header. */
  | 'missing_id'
  /** No `webhook-timestamp` header. */
  | 'missing_timestamp'
  /** `webhook-timestamp` is not a whole number of seconds since 1970 (digits only). */
  | 'bad_timestamp'
  /** `webhook-timestamp` is further behind the receiver's clock than the tolerance: a late or replayed delivery. */
  | 'timestamp_too_old'
  /** `webhook-timestamp` is further ahead of the receiver's clock than the tolerance: one of the two clocks is wrong. */
  | 'timestamp_in_future'
  /** No `webhook-signature` header (no `X-Service-Signature` with `scheme: 'x-service-signature'`). */
  | 'missing_signature'
  /**
   * No `v1,` signature of `webhook-signature` is the one of this id, timestamp and body under any of the
   * keys (with `scheme: 'x-service-signature'`: `X-Service-Signature` is not `sha256=` and 64 lower-case
   * hex digits, or not the body's under any of the keys). A tampered body, id or timestamp, or a wrong key.
   */
  | 'bad_signature'
  /** The signed body is not a JSON event. */
  | 'invalid_body';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** Request headers as node:http, Express and Fastify give them (lower-case names), or a fetch Headers. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The default: the Standard Webhooks headers, with a timestamp near the receiver's clock. */
export interface StandardWebhooksVerification {
  scheme?: 'standard-webhooks';
  /** How far `webhook-timestamp` may be from the receiver's clock, before or after, in seconds: 300 unless said. */
  toleranceSeconds?: number;
  /** The receiver's clock, as a Date or milliseconds since 1970: `Date.now` unless said. */
  now?: () => Date | number;
}

/**
 * `X-Service-Signature` alone, for a receiver that does not get the Standard Webhooks headers. It has no
 * timestamp, so a captured delivery verifies forever: this gives up replay protection. During a signing-key
 * rotation it stays on the old key, so pass the old key (or both).
 */
export interface ServiceSignatureVerification {
  scheme: 'x-service-signature';
}

export type WebhookVerificationOptions = StandardWebhooksVerification | ServiceSignatureVerification;

const DEFAULT_TOLERANCE_SECONDS = 300;
const STANDARD_SIGNATURE = /^v1,([A-Za-z0-9+/]{43}=)$/;
const SERVICE_SIGNATURE = /^sha256=([0-9a-f]{64})$/;
const TIMESTAMP = /^\d{1,15}$/;

/**
 * The event of a delivery whose signature is right, typed by its `type`; throws WebhookVerificationError
 * saying why otherwise. `rawBody` is the request body exactly as received. `signingKeys` is the endpoint's
 * `signing_key` as the admin API reveals it, or several (during a rotation, the new one and the old one):
 * a signature under any of them is accepted. A Standard Webhooks secret (`whsec_` and padded base64, like
 * the endpoint's `standard_webhooks_secret`) is taken as the bytes it encodes.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  signingKeys: string | readonly string[],
  options: WebhookVerificationOptions = {},
): WebhookEvent {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const keys = hmacKeys(signingKeys);
  if (options.scheme === 'x-service-signature') verifyServiceSignature(body, headers, keys);
  else if (options.scheme === undefined || options.scheme === 'standard-webhooks') verifyStandardSignature(body, headers, keys, options);
  else throw new TypeError(`verifyWebhook: no scheme ${JSON.stringify((options as { scheme: unknown }).scheme)}`);
  return eventOf(body);
}

function verifyStandardSignature(body: Uint8Array, headers: WebhookHeaders, keys: Buffer[], options: StandardWebhooksVerification): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!(Number.isFinite(tolerance) && tolerance >= 0)) throw new RangeError('verifyWebhook: toleranceSeconds must be a number of seconds, 0 or more');
  const nowMs = Number(options.now?.() ?? Date.now());
  if (!Number.isFinite(nowMs)) throw new RangeError('verifyWebhook: now() gave no time');

  const id = headerValue(headers, 'webhook-id');
  if (id === null) refuse('missing_id', 'The delivery has no webhook-id header');
  const timestamp = headerValue(headers, 'webhook-timestamp');
  if (timestamp === null) refuse('missing_timestamp', 'The delivery has no webhook-timestamp header');
  if (!TIMESTAMP.test(timestamp)) refuse('bad_timestamp', 'webhook-timestamp is not a whole number of seconds');
  const age = nowMs / 1000 - Number(timestamp);
  if (age > tolerance) refuse('timestamp_too_old', `webhook-timestamp is ${Math.round(age)} s old, more than the ${tolerance} s allowed`);
  if (-age > tolerance) refuse('timestamp_in_future', `webhook-timestamp is ${Math.round(-age)} s ahead, more than the ${tolerance} s allowed`);

  const header = headerValue(headers, 'webhook-signature');
  if (header === null) refuse('missing_signature', 'The delivery has no webhook-signature header');
  // Signatures of other versions than v1 are passed over, as Standard Webhooks asks.
  const given = header.split(' ').flatMap((entry) => STANDARD_SIGNATURE.exec(entry)?.[1] ?? []);
  const signed = (key: Buffer) => createHmac('sha256', key).update(id).update('.').update(timestamp).update('.').update(body).digest();
  if (!anyMatches(given.map((signature) => Buffer.from(signature, 'base64')), keys.map(signed))) {
    refuse('bad_signature', 'No v1 signature of webhook-signature matches the id, timestamp and body under these signing keys');
  }
}

function verifyServiceSignature(body: Uint8Array, headers: WebhookHeaders, keys: Buffer[]): void {
  const header = headerValue(headers, 'x-service-signature');
  if (header === null) refuse('missing_signature', 'The delivery has no X-Service-Signature header');
  const given = SERVICE_SIGNATURE.exec(header)?.[1];
  if (given === undefined) refuse('bad_signature', 'X-Service-Signature is not sha256= and 64 hex digits');
  if (!anyMatches([Buffer.from(given, 'hex')], keys.map((key) => createHmac('sha256', key).update(body).digest()))) {
    refuse('bad_signature', 'X-Service-Signature does not match the body under these signing keys');
  }
}

/** Whether any given signature is any expected one, each comparison in constant time. */
function anyMatches(given: Buffer[], expected: Buffer[]): boolean {
  return given.some((signature) => expected.some((digest) => signature.length === digest.length && timingSafeEqual(signature, digest)));
}

/** The HMAC keys to try: each key's UTF-8 bytes (as the service keys with its `signing_key`), and for a Standard Webhooks secret also the bytes it encodes. */
function hmacKeys(signingKeys: string | readonly string[]): Buffer[] {
  const keys = [signingKeys].flat();
  if (keys.length === 0 || keys.some((key) => typeof key !== 'string' || key === '')) {
    throw new TypeError('verifyWebhook needs a signing key, or several, each a non-empty string');
  }
  return keys.flatMap((key) => [Buffer.from(key, 'utf8'), ...standardSecretBytes(key)]);
}

/**
 * The bytes a Standard Webhooks secret (`whsec_` and padded base64) encodes; none for another key. A
 * `signing_key` (`whsec_` and unpadded base64url) never reads as one; were one to, its UTF-8 bytes are tried too.
 */
function standardSecretBytes(key: string): Buffer[] {
  const encoded = key.startsWith('whsec_') ? key.slice('whsec_'.length) : '';
  const decoded = Buffer.from(encoded, 'base64');
  return decoded.length > 0 && decoded.toString('base64') === encoded ? [decoded] : [];
}

function eventOf(body: Uint8Array): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    refuse('invalid_body', 'The signed body is not JSON');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
    refuse('invalid_body', 'The signed body is not an event (no type)');
  }
  return event as WebhookEvent;
}

function refuse(reason: WebhookVerificationReason, message: string): never {
  throw new WebhookVerificationError(reason, message);
}

/**
 * The one value of a header, by its name in any case, trimmed; null when absent, empty or repeated.
 * node:http and fetch join a repeated header with ', ', which no value read here holds.
 */
function headerValue(headers: WebhookHeaders, name: string): string | null {
  let value: string | null | undefined;
  if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
  else {
    const record = headers as Record<string, string | string[] | undefined>;
    const key = name in record ? name : Object.keys(record).find((other) => other.toLowerCase() === name);
    const given = key === undefined ? undefined : record[key];
    value = Array.isArray(given) ? (given.length === 1 ? given[0] : null) : given;
  }
  const trimmed = value?.trim();
  return trimmed && !trimmed.includes(', ') ? trimmed : null;
}

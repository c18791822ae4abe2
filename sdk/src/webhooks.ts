// Checking a delivery before trusting it (spec §5 rule 8, shared decisions §9). By default the Standard
// Webhooks headers (https://www.standardwebhooks.com): `webhook-signature` holds space-separated `v1,` and
// the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, and `webhook-timestamp` must be
// near the receiver's clock, so a captured delivery cannot be replayed later. `X-Service-Signature`
// (`sha256=` and the hex HMAC-SHA256 of the body alone) carries no time: it is checked only when the
// caller names it. The body must be the bytes as received; every comparison takes constant time.
// Each header takes the form of the key the admin API reveals for it: `standard_webhooks_secret` for
// webhook-signature (as every Standard Webhooks library does), `signing_key` for X-Service-Signature. Both
// start with `whsec_`; given the other one, the refusal says so rather than that no signature matched.
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
  /**
   * A key is not in the form this header takes: `signing_key` (the X-Service-Signature key) given to verify
   * `webhook-signature`, which takes `standard_webhooks_secret`, or the reverse, or neither form. Found
   * before the delivery is looked at, so every delivery is refused until the receiver has the right form;
   * the message says which key and which form it needs.
   */
  | 'wrong_key_form'
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
 * saying why otherwise. `rawBody` is the request body exactly as received. `keys` is the endpoint's key in
 * the form the admin API reveals for the header checked: by default `standard_webhooks_secret` (the key
 * for `webhook-signature`), with `scheme: 'x-service-signature'` its `signing_key` (the key for
 * `X-Service-Signature`). Or several (during a rotation, the new one and the old one): a signature under
 * any of them is accepted. A key in the other form is refused as `wrong_key_form`.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  keys: string | readonly string[],
  options: WebhookVerificationOptions = {},
): WebhookEvent {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const given = keysGiven(keys);
  if (options.scheme === 'x-service-signature') verifyServiceSignature(body, headers, given.map(signingKeyBytes));
  else if (options.scheme === undefined || options.scheme === 'standard-webhooks') verifyStandardSignature(body, headers, given.map(standardSecretBytes), options);
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
    refuse('bad_signature', 'No v1 signature of webhook-signature matches the id, timestamp and body under these keys');
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

interface GivenKey {
  key: string;
  /** How a message names it, never by its value: `key 2 of 2: ` among several, nothing for one. */
  which: string;
}

function keysGiven(keys: string | readonly string[]): GivenKey[] {
  const list = [keys].flat();
  if (list.length === 0 || list.some((key) => typeof key !== 'string' || key === '')) {
    throw new TypeError('verifyWebhook needs a key, or several, each a non-empty string');
  }
  return list.map((key, index) => ({ key, which: list.length > 1 ? `key ${index + 1} of ${list.length}: ` : '' }));
}

/**
 * The bytes a Standard Webhooks secret encodes: `whsec_` and padded base64, as `standard_webhooks_secret`
 * is. A `signing_key` also starts with `whsec_`, but 43 characters of unpadded base64url follow, which never
 * read back as padded base64.
 */
function standardSecretBytes({ key, which }: GivenKey): Buffer {
  if (isStandardSecret(key)) return Buffer.from(key.slice('whsec_'.length), 'base64');
  const what = key.startsWith('whsec_') ? 'this looks like the X-Service-Signature key (signing_key)' : 'this is not a Standard Webhooks secret (whsec_ and base64)';
  refuse('wrong_key_form', `${which}${what}; Standard Webhooks needs standard_webhooks_secret (whsec_…), revealed beside it`);
}

/** The bytes of a `signing_key`, which keys X-Service-Signature as UTF-8; a Standard Webhooks secret is refused. */
function signingKeyBytes(given: GivenKey): Buffer {
  if (isStandardSecret(given.key)) {
    refuse('wrong_key_form', `${given.which}this looks like the Standard Webhooks secret (standard_webhooks_secret); X-Service-Signature needs signing_key (whsec_…), revealed beside it`);
  }
  return Buffer.from(given.key, 'utf8');
}

function isStandardSecret(key: string): boolean {
  const encoded = key.startsWith('whsec_') ? key.slice('whsec_'.length) : '';
  return encoded !== '' && Buffer.from(encoded, 'base64').toString('base64') === encoded;
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

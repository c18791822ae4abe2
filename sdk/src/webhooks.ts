// Checking a delivery before trusting it (spec §5 rule 8): `X-Service-Signature` is `sha256=` and the
// lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the endpoint's signing key (UTF-8). The
// body must be the bytes as received, before any JSON parsing; the comparison takes constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './generated/v1.js';

/** Every event a delivery can carry, discriminated by `type`, with its data as the OpenAPI document's webhooks section describes it. */
export type WebhookEvent = { [Type in keyof webhooks]: webhooks[Type]['post']['requestBody']['content']['application/json'] }[keyof webhooks];
export type WebhookEventType = WebhookEvent['type'];

export type WebhookVerificationReason =
  /** No X-Service-Signature header (or more than one). */
  | 'missing_signature'
  /** The signature is not `sha256=` and 64 hex digits, or not the body's under this key. */
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

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

/**
 * The event of a delivery whose signature is right, typed by its `type`; throws WebhookVerificationError
 * saying why otherwise. `rawBody` is the request body exactly as received.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, signingKey: string): WebhookEvent {
  const header = headerValue(headers, 'x-service-signature');
  if (header === null) throw new WebhookVerificationError('missing_signature', 'The delivery has no X-Service-Signature header');
  const given = SIGNATURE.exec(header.trim())?.[1];
  if (given === undefined) throw new WebhookVerificationError('bad_signature', 'X-Service-Signature is not sha256= and 64 hex digits');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const expected = createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(body).digest();
  if (!timingSafeEqual(Buffer.from(given, 'hex'), expected)) {
    throw new WebhookVerificationError('bad_signature', 'X-Service-Signature does not match the body under this signing key');
  }
  let event: unknown;
  try {
    event = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not JSON');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not an event (no type)');
  }
  return event as WebhookEvent;
}

/** The one value of a header, by its name in any case; null when absent or repeated. */
function headerValue(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const key = name in record ? name : Object.keys(record).find((other) => other.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  if (Array.isArray(value)) return value.length === 1 ? value[0]! : null;
  return value ?? null;
}

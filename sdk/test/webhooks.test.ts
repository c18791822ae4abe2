// verifyWebhook on real deliveries of a live service. By default it checks the Standard Webhooks headers
// with the endpoint's standard_webhooks_secret: the event comes back typed by its `type` when a `v1,`
// signature of `webhook-signature` is the id's, timestamp's and body's under one of the keys and the
// timestamp is within the tolerance of the receiver's clock; a replay, a tampered delivery, a wrong key or a
// delivery stripped of those headers is refused with a typed reason. `X-Service-Signature` alone is checked
// only when asked for by name, with the endpoint's signing_key. Given the other header's form of the key it
// says so in words. Deliveries signed anew here (another key, another time, another body) are signed by the
// service's own signing code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody, standardSignature, standardWebhooksSecret } from '../../src/webhooks/signing.js';
import { type StandardWebhooksVerification, verifyWebhook, type WebhookEvent, type WebhookHeaders, WebhookVerificationError, type WebhookVerificationOptions } from '../src/index.js';
import { DELIVERING, type Delivery, type LiveService, realDelivery, startLiveService } from './live-service.js';

let live: LiveService;
/** The endpoint's signing_key: the key for X-Service-Signature. */
let signingKey: string;
/** The endpoint's standard_webhooks_secret: the same key, for webhook-signature. */
let secret: string;
let delivered: Delivery;
/** The delivery's webhook-timestamp, in seconds. */
let sentAt: number;

beforeAll(async () => {
  live = await startLiveService(DELIVERING);
  delivered = await realDelivery(live, 'Réinitialiser ✓ 🔑');
  signingKey = delivered.signingKey;
  secret = delivered.standardWebhooksSecret;
  sentAt = Number(delivered.headers['webhook-timestamp']);
});
afterAll(() => live.t.close());

/** A key the service could have handed out, but not this endpoint's, in both forms. */
const OTHER_KEY = 'whsec_another-endpoint-key-0123456789abcdefghijklmnop';
const OTHER_SECRET = standardWebhooksSecret(OTHER_KEY);
/** The standard_webhooks_secret of a key one character longer than the endpoint's. */
const nearSecret = () => standardWebhooksSecret(`${signingKey}x`);

/** The delivery's headers with some changed (undefined: taken off). */
const headersWith = (changes: Delivery['headers']): Delivery['headers'] => ({ ...delivered.headers, ...changes });

/** A receiver's clock `seconds` after the delivery's timestamp. */
const clockAt = (seconds: number): StandardWebhooksVerification => ({ now: () => (sentAt + seconds) * 1000 });

/** What verifyWebhook throws. */
function refusalError(verify: () => unknown): WebhookVerificationError {
  try {
    verify();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('verified');
}

/** What verifyWebhook throws, as its reason. */
const refusal = (verify: () => unknown): string => refusalError(verify).reason;

/** The reason verifyWebhook refuses the delivery's body with these headers and keys. */
const refused = (headers: WebhookHeaders, keys: string | string[] = secret, options?: WebhookVerificationOptions) =>
  refusal(() => verifyWebhook(delivered.body, headers, keys, options));

/** The type of the delivery's event when it verifies with these headers and keys. */
const verifiedType = (headers: WebhookHeaders, keys: string | string[] = secret, options?: WebhookVerificationOptions) =>
  verifyWebhook(delivered.body, headers, keys, options).type;

/** Standard Webhooks headers for `body` at `timestamp` (seconds), signed by the service's code under `key`. */
function signedAt(timestamp: number, key = signingKey, body = delivered.body) {
  const id = String(delivered.headers['webhook-id']);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': standardSignature(key, id, String(timestamp), body) };
}

describe('verifyWebhook, by default: the Standard Webhooks headers', () => {
  it('a real delivery verifies with its standard_webhooks_secret and no options; the event comes back typed by its type', () => {
    const event: WebhookEvent = verifyWebhook(delivered.body, delivered.headers, secret);
    expect(event.type).toBe('guide.created');
    if (event.type !== 'guide.created') throw new Error('unreachable');
    // Narrowed by `type`: the guide.created data, as the OpenAPI document's webhooks section has it.
    expect(event.data.guide.title).toBe('Réinitialiser ✓ 🔑');
    expect(event.id).toBe(delivered.headers['webhook-id']);
  });

  it('takes the raw body as bytes too, and headers as a fetch Headers or a record in any case', () => {
    const headers = new Headers();
    for (const name of ['Webhook-Id', 'Webhook-Timestamp', 'Webhook-Signature']) headers.set(name, String(delivered.headers[name.toLowerCase()]));
    expect(verifyWebhook(Buffer.from(delivered.body, 'utf8'), headers, secret).type).toBe('guide.created');
    expect(verifiedType(Object.fromEntries(headers.entries()))).toBe('guide.created');
    expect(verifiedType({ 'WEBHOOK-ID': headers.get('webhook-id')!, 'Webhook-Timestamp': headers.get('webhook-timestamp')!, 'webhook-signature': headers.get('webhook-signature')! })).toBe('guide.created');
  });

  it('given signing_key, the X-Service-Signature key, it is wrong_key_form and says that Standard Webhooks needs standard_webhooks_secret, not "no matching signature"', () => {
    expect(signingKey).toMatch(/^whsec_/);
    const error = refusalError(() => verifyWebhook(delivered.body, delivered.headers, signingKey));
    expect(error.reason).toBe('wrong_key_form');
    expect(error.message).toContain('this looks like the X-Service-Signature key (signing_key); Standard Webhooks needs standard_webhooks_secret (whsec_…)');
    expect(error.message).not.toContain(signingKey);
    // The key is looked at before the delivery: a stripped or stale one says the same.
    expect(refused({}, signingKey)).toBe('wrong_key_form');
    expect(refused(delivered.headers, signingKey, clockAt(3600))).toBe('wrong_key_form');
    // Among a rotation's keys, the one in the wrong form is named, even beside a right one.
    const among = refusalError(() => verifyWebhook(delivered.body, delivered.headers, [secret, signingKey]));
    expect(among.reason).toBe('wrong_key_form');
    expect(among.message).toMatch(/^key 2 of 2: this looks like the X-Service-Signature key \(signing_key\)/);
  });

  it('a key that is neither form (no whsec_ and base64) is wrong_key_form too, naming the key it needs', () => {
    for (const key of [secret.slice('whsec_'.length), 'gsk_notawebhookkey0123456789', 'whsec_', 'whsec_ not base64 ']) {
      const error = refusalError(() => verifyWebhook(delivered.body, delivered.headers, key));
      expect(error.reason, key).toBe('wrong_key_form');
      expect(error.message, key).toContain('Standard Webhooks needs standard_webhooks_secret (whsec_…)');
    }
  });

  it('a tampered body, id or timestamp, or another key, is bad_signature', () => {
    expect(refusal(() => verifyWebhook(delivered.body.replace('Réinitialiser', 'Reinitialiser'), delivered.headers, secret))).toBe('bad_signature');
    expect(refusal(() => verifyWebhook(`${delivered.body} `, delivered.headers, secret))).toBe('bad_signature');
    expect(refused(headersWith({ 'webhook-id': '00000000-0000-4000-8000-000000000000' }))).toBe('bad_signature');
    expect(refused(headersWith({ 'webhook-timestamp': String(sentAt - 1) }))).toBe('bad_signature');
    expect(refused(delivered.headers, OTHER_SECRET)).toBe('bad_signature');
    expect(refused(delivered.headers, nearSecret())).toBe('bad_signature');
  });

  it('several keys (a rotation window): a signature under any of them is accepted', () => {
    expect(verifiedType(delivered.headers, [OTHER_SECRET, secret])).toBe('guide.created');
    expect(verifiedType(delivered.headers, [secret, OTHER_SECRET])).toBe('guide.created');
    expect(refused(delivered.headers, [OTHER_SECRET, nearSecret()])).toBe('bad_signature');
  });

  it('webhook-signature with several signatures (v1,<new> v1,<old> in a rotation): any v1 one that matches is enough, other versions are passed over', () => {
    const real = String(delivered.headers['webhook-signature']);
    const underOther = signedAt(sentAt, OTHER_KEY)['webhook-signature'];
    for (const both of [`${underOther} ${real}`, `${real} ${underOther}`]) {
      expect(verifiedType(headersWith({ 'webhook-signature': both }))).toBe('guide.created');
      expect(verifiedType(headersWith({ 'webhook-signature': both }), OTHER_SECRET)).toBe('guide.created');
      expect(refused(headersWith({ 'webhook-signature': both }), nearSecret())).toBe('bad_signature');
    }
    // Only a v1 signature counts: the same bytes under another version, or malformed, do not.
    expect(verifiedType(headersWith({ 'webhook-signature': `v2,${real.slice(3)} ${real}` }))).toBe('guide.created');
    expect(refused(headersWith({ 'webhook-signature': `v2,${real.slice(3)}` }))).toBe('bad_signature');
    expect(refused(headersWith({ 'webhook-signature': real.slice(3) }))).toBe('bad_signature');
    expect(refused(headersWith({ 'webhook-signature': real.slice(0, -2) }))).toBe('bad_signature');
  });

  it('a delivery stripped of a Standard Webhooks header is refused, each with its reason, even with a right X-Service-Signature', () => {
    expect(delivered.headers['x-service-signature']).toBe(signBody(signingKey, delivered.body));
    const stripped = headersWith({ 'webhook-id': undefined, 'webhook-timestamp': undefined, 'webhook-signature': undefined });
    expect(refused(stripped)).toBe('missing_id');
    expect(refused(headersWith({ 'webhook-id': undefined }))).toBe('missing_id');
    expect(refused(headersWith({ 'webhook-timestamp': undefined }))).toBe('missing_timestamp');
    expect(refused(headersWith({ 'webhook-signature': undefined }))).toBe('missing_signature');
    expect(refused(headersWith({ 'webhook-id': ' ' }))).toBe('missing_id');
  });

  it('a repeated header counts as missing, whether given as an array or joined with ", " as node:http and fetch do', () => {
    const signature = String(delivered.headers['webhook-signature']);
    const underOther = signedAt(sentAt, OTHER_KEY)['webhook-signature'];
    expect(refused(headersWith({ 'webhook-signature': [signature, signature] }))).toBe('missing_signature');
    expect(refused(headersWith({ 'webhook-signature': `${underOther}, ${signature}` }))).toBe('missing_signature');
    const headers = new Headers(delivered.headers as Record<string, string>);
    headers.append('webhook-signature', underOther);
    expect(refused(headers)).toBe('missing_signature');
    // An array of one is one value.
    expect(verifiedType(headersWith({ 'webhook-id': [String(delivered.headers['webhook-id'])] }))).toBe('guide.created');
  });

  it('webhook-timestamp must be a whole number of seconds: bad_timestamp', () => {
    for (const timestamp of ['soon', `${sentAt}.0`, `${sentAt}s`, `-${sentAt}`, `0x${sentAt.toString(16)}`, '1e9', '9'.repeat(16)]) {
      expect(refused(headersWith({ 'webhook-timestamp': timestamp })), timestamp).toBe('bad_timestamp');
    }
  });

  it('webhook-timestamp may be toleranceSeconds (300 unless said) behind the receiver’s clock; further is timestamp_too_old', () => {
    expect(verifiedType(delivered.headers, secret, clockAt(300))).toBe('guide.created');
    expect(refused(delivered.headers, secret, clockAt(301))).toBe('timestamp_too_old');
    expect(refused(delivered.headers, secret, clockAt(300.5))).toBe('timestamp_too_old');
    expect(verifiedType(delivered.headers, secret, { toleranceSeconds: 30, now: () => new Date((sentAt + 30) * 1000) })).toBe('guide.created');
    expect(refused(delivered.headers, secret, { toleranceSeconds: 30, now: () => new Date((sentAt + 31) * 1000) })).toBe('timestamp_too_old');
    expect(verifiedType(delivered.headers, secret, { toleranceSeconds: 3600, ...clockAt(3600) })).toBe('guide.created');
  });

  it('and as far ahead of it; further is timestamp_in_future', () => {
    expect(verifiedType(delivered.headers, secret, clockAt(-300))).toBe('guide.created');
    expect(refused(delivered.headers, secret, clockAt(-301))).toBe('timestamp_in_future');
    expect(refused(delivered.headers, secret, { toleranceSeconds: 0, ...clockAt(-1) })).toBe('timestamp_in_future');
    // A delivery signed ten minutes ahead, checked against the real clock.
    expect(refused(signedAt(Math.floor(Date.now() / 1000) + 600))).toBe('timestamp_in_future');
  });

  it('a real delivery replayed six minutes later is timestamp_too_old, and cannot be re-stamped or stripped into one that verifies', () => {
    const sixMinutesLater = { now: () => Date.now() + 6 * 60_000 };
    expect(verifiedType(delivered.headers)).toBe('guide.created');
    expect(refused(delivered.headers, secret, sixMinutesLater)).toBe('timestamp_too_old');
    const then = String(Math.floor(sixMinutesLater.now() / 1000));
    expect(refused(headersWith({ 'webhook-timestamp': then }), secret, sixMinutesLater)).toBe('bad_signature');
    expect(refused({ 'x-service-signature': delivered.headers['x-service-signature'] }, secret, sixMinutesLater)).toBe('missing_id');
  });

  it('a signed body that is not an event is invalid_body', () => {
    for (const body of ['not json', '[1,2]', '{"id":"e"}']) {
      expect(refusal(() => verifyWebhook(body, signedAt(sentAt, signingKey, body), secret, clockAt(0)))).toBe('invalid_body');
    }
  });

  it('a mistake of the caller’s is a TypeError or RangeError, not a refusal: no key, a bad tolerance or clock, an unknown scheme', () => {
    expect(() => verifyWebhook(delivered.body, delivered.headers, [])).toThrow(TypeError);
    expect(() => verifyWebhook(delivered.body, delivered.headers, '')).toThrow(TypeError);
    expect(() => verifyWebhook(delivered.body, delivered.headers, undefined as unknown as string)).toThrow(TypeError);
    expect(() => verifyWebhook(delivered.body, delivered.headers, secret, { toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => verifyWebhook(delivered.body, delivered.headers, secret, { toleranceSeconds: Number.NaN })).toThrow(RangeError);
    expect(() => verifyWebhook(delivered.body, delivered.headers, secret, { now: () => new Date('never') })).toThrow(RangeError);
    expect(() => verifyWebhook(delivered.body, delivered.headers, secret, { scheme: 'standard' } as unknown as WebhookVerificationOptions)).toThrow(TypeError);
    // @ts-expect-error X-Service-Signature has no timestamp, so it takes no tolerance.
    expect(verifiedType(delivered.headers, signingKey, { scheme: 'x-service-signature', toleranceSeconds: 60 })).toBe('guide.created');
  });
});

describe("verifyWebhook on a real delivery in a rotation's overlap", () => {
  let overlapping: Delivery;
  beforeAll(async () => {
    overlapping = await realDelivery(live, 'Signed by both keys', 24);
  });

  it('verifies with the new secret, the old one, or both; X-Service-Signature alone only with the old signing_key until the overlap ends', () => {
    const { body, headers, signingKey: newKey, oldSigningKey, standardWebhooksSecret: newSecret, oldStandardWebhooksSecret } = overlapping;
    const oldKey = oldSigningKey!;
    const oldSecret = oldStandardWebhooksSecret!;
    for (const keys of [[newSecret], [oldSecret], [newSecret, oldSecret]]) expect(verifyWebhook(body, headers, keys).type).toBe('guide.created');
    expect(refusal(() => verifyWebhook(body, headers, OTHER_SECRET))).toBe('bad_signature');
    const legacy = { scheme: 'x-service-signature' } as const;
    expect(verifyWebhook(body, headers, oldKey, legacy).type).toBe('guide.created');
    expect(verifyWebhook(body, headers, [newKey, oldKey], legacy).type).toBe('guide.created');
    expect(refusal(() => verifyWebhook(body, headers, newKey, legacy))).toBe('bad_signature');
  });
});

describe("verifyWebhook with scheme: 'x-service-signature' (X-Service-Signature alone, no replay protection)", () => {
  const legacy = { scheme: 'x-service-signature' } as const;

  it('accepts a delivery stripped of the Standard Webhooks headers when asked for by name, with signing_key (any of the keys), however late', () => {
    const stripped = { 'x-service-signature': delivered.headers['x-service-signature'] };
    expect(refused(stripped)).toBe('missing_id');
    expect(verifiedType(stripped, signingKey, legacy)).toBe('guide.created');
    expect(verifiedType(stripped, [OTHER_KEY, signingKey], legacy)).toBe('guide.created');
    expect(verifiedType(new Headers({ 'X-Service-Signature': String(stripped['x-service-signature']) }), signingKey, legacy)).toBe('guide.created');
    expect(verifiedType(headersWith({ 'webhook-timestamp': '0' }), signingKey, legacy)).toBe('guide.created');
  });

  it('given standard_webhooks_secret, the webhook-signature key, it is wrong_key_form and says that X-Service-Signature needs signing_key', () => {
    for (const keys of [secret, [signingKey, secret]]) {
      const error = refusalError(() => verifyWebhook(delivered.body, delivered.headers, keys, legacy));
      expect(error.reason).toBe('wrong_key_form');
      expect(error.message).toContain('this looks like the Standard Webhooks secret (standard_webhooks_secret); X-Service-Signature needs signing_key');
      expect(error.message).not.toContain(secret);
    }
  });

  it('refuses a tampered body, another key, a missing, repeated or malformed signature, and a signed body that is not an event', () => {
    const signature = String(delivered.headers['x-service-signature']);
    expect(refusal(() => verifyWebhook(delivered.body.replace('Réinitialiser', 'Reinitialiser'), delivered.headers, signingKey, legacy))).toBe('bad_signature');
    expect(refused(delivered.headers, [OTHER_KEY, `${signingKey}-`], legacy)).toBe('bad_signature');
    expect(refused({}, signingKey, legacy)).toBe('missing_signature');
    expect(refused({ 'x-service-signature': [signature, signature] }, signingKey, legacy)).toBe('missing_signature');
    expect(refused({ 'x-service-signature': `${signature}, ${signature}` }, signingKey, legacy)).toBe('missing_signature');
    expect(refused({ 'x-service-signature': signature.toUpperCase() }, signingKey, legacy)).toBe('bad_signature');
    expect(refused({ 'x-service-signature': signature.slice(0, -2) }, signingKey, legacy)).toBe('bad_signature');
    for (const body of ['not json', '[1,2]']) {
      expect(refusal(() => verifyWebhook(body, { 'x-service-signature': signBody(signingKey, body) }, signingKey, legacy))).toBe('invalid_body');
    }
  });
});

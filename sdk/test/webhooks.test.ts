// verifyWebhook on real deliveries of a live service: the event comes back typed by its `type`; a
// tampered body, a wrong key, a missing or malformed signature and a signed body that is not JSON are
// refused with a typed error saying why.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '../src/index.js';
import { DELIVERING, type Delivery, type LiveService, realDelivery, startLiveService } from './live-service.js';

let live: LiveService;
let signingKey: string;
let delivered: Delivery;

beforeAll(async () => {
  live = await startLiveService(DELIVERING);
  delivered = await realDelivery(live, 'Réinitialiser ✓ 🔑');
  signingKey = delivered.signingKey;
});
afterAll(() => live.t.close());

/** What verifyWebhook throws, as its reason. */
function refusal(verify: () => unknown): string {
  try {
    verify();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
  throw new Error('verified');
}

describe('verifyWebhook', () => {
  it('returns a real delivery’s event, typed by its type', () => {
    const event: WebhookEvent = verifyWebhook(delivered.body, delivered.headers, signingKey);
    expect(event.type).toBe('guide.created');
    if (event.type !== 'guide.created') throw new Error('unreachable');
    // Narrowed by `type`: the guide.created data, as the OpenAPI document's webhooks section has it.
    expect(event.data.guide.title).toBe('Réinitialiser ✓ 🔑');
    expect(event.id).toBe(delivered.headers['webhook-id']);
  });

  it('takes the raw body as bytes too, and headers as a fetch Headers in any case', () => {
    const headers = new Headers({ 'X-Service-Signature': String(delivered.headers['x-service-signature']) });
    expect(verifyWebhook(Buffer.from(delivered.body, 'utf8'), headers, signingKey).type).toBe('guide.created');
    expect(verifyWebhook(delivered.body, { 'X-Service-Signature': delivered.headers['x-service-signature'] }, signingKey).type).toBe('guide.created');
  });

  it('refuses a tampered body, another key, a missing, repeated or malformed signature, and a signed body that is not an event', () => {
    const tampered = delivered.body.replace('Réinitialiser', 'Reinitialiser');
    expect(refusal(() => verifyWebhook(tampered, delivered.headers, signingKey))).toBe('bad_signature');
    expect(refusal(() => verifyWebhook(delivered.body, delivered.headers, `${signingKey}x`))).toBe('bad_signature');
    expect(refusal(() => verifyWebhook(delivered.body, {}, signingKey))).toBe('missing_signature');
    const signature = String(delivered.headers['x-service-signature']);
    expect(refusal(() => verifyWebhook(delivered.body, { 'x-service-signature': [signature, signature] }, signingKey))).toBe('missing_signature');
    expect(refusal(() => verifyWebhook(delivered.body, { 'x-service-signature': signature.toUpperCase() }, signingKey))).toBe('bad_signature');
    expect(refusal(() => verifyWebhook(delivered.body, { 'x-service-signature': signature.slice(0, -2) }, signingKey))).toBe('bad_signature');
    const sign = (body: string) => ({ 'x-service-signature': `sha256=${createHmac('sha256', signingKey).update(body).digest('hex')}` });
    expect(refusal(() => verifyWebhook('not json', sign('not json'), signingKey))).toBe('invalid_body');
    expect(refusal(() => verifyWebhook('[1,2]', sign('[1,2]'), signingKey))).toBe('invalid_body');
  });
});

// Standard Webhooks beside the specification's own headers (shared decisions §9): every delivery carries
// `webhook-id` (the event id, the same on every attempt and resend), `webhook-timestamp` and
// `webhook-signature`, and a receiver verifies real deliveries with the `standardwebhooks` package and the
// endpoint's `standard_webhooks_secret`. The specification's headers and signature stay as they were.
import { verify as verifyServiceSignature } from '@octokit/webhooks-methods';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryRequest } from '../../src/webhooks/delivery-request.js';
import { standardWebhooksSecret } from '../../src/webhooks/signing.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';
import type { Received, Receiver } from '../support/receiver.js';
import { createEndpoint, eventIdOf, QUICK_DELIVERY_ENV, settle, signingKeyAnswerOf, useTestReceivers, waitForAttempts } from '../support/webhooks.js';

const t = useTestService(QUICK_DELIVERY_ENV);
const newReceiver = useTestReceivers();
// Registered after the receivers' own hook, so it runs before they close: a receiver closes once the
// service's keep-alive connections to it are idle.
afterEach(() => settle(t));

/** The headers of a received request as the Standard Webhooks libraries take them. */
const headersOf = (request: Received) => request.headers as Record<string, string>;

/** A team and an endpoint of its own on a receiver of the test's own, so that no other test's delivery lands there. */
async function teamWithEndpoint(): Promise<{ team: any; endpoint: any; key: Awaited<ReturnType<typeof signingKeyAnswerOf>>; receiver: Receiver }> {
  const receiver = await newReceiver();
  const { team } = await soloTeam(t);
  const endpoint = await createEndpoint(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
  await receiver.waitFor(1); // its ping
  return { team, endpoint, key: await signingKeyAnswerOf(t, endpoint.id), receiver };
}

describe('Standard Webhooks', () => {
  it('the signing-key answer adds the key as Standard Webhooks libraries take it: whsec_ and the base64 of its UTF-8 bytes', async () => {
    const { endpoint, key } = await teamWithEndpoint();
    expect(Object.keys(key).sort()).toEqual(['old_key', 'signing_key', 'standard_webhooks_secret']);
    expect(key.old_key).toBeNull();
    expect(key.standard_webhooks_secret).toBe('whsec_' + Buffer.from(key.signing_key, 'utf8').toString('base64'));
    expect(key.standard_webhooks_secret).toBe(standardWebhooksSecret(key.signing_key));

    const rotated = await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().data;
    expect(fresh.signing_key).not.toBe(key.signing_key);
    expect(fresh.standard_webhooks_secret).toBe(standardWebhooksSecret(fresh.signing_key));
    expect(await signingKeyAnswerOf(t, endpoint.id)).toEqual(fresh);
  });

  it('real deliveries verify with the standardwebhooks package; the specification headers are unchanged', async () => {
    const { team, key, receiver } = await teamWithEndpoint();
    await createGuide(t, team.id, { title: 'Réinitialiser ✓' });
    const [ping, created] = await receiver.waitFor(2);
    const webhook = new Webhook(key.standard_webhooks_secret);
    for (const request of [ping!, created!]) {
      const payload = webhook.verify(request.body, headersOf(request)) as { id: string; type: string };
      expect(payload.type).toBe(request.headers['x-service-event']);
      expect(request.headers['webhook-id']).toBe(eventIdOf(request));
      expect(request.headers['webhook-timestamp']).toMatch(/^\d+$/);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      // The specification's own headers and signature, as before.
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('Service-Webhooks/1');
      expect(request.headers['x-service-delivery']).toMatch(/^[0-9a-f-]{36}$/);
      expect(await verifyServiceSignature(key.signing_key, request.body, String(request.headers['x-service-signature']))).toBe(true);
    }
  });

  it('a tampered body, id, timestamp or another key is refused', async () => {
    const { team, key, receiver } = await teamWithEndpoint();
    await createGuide(t, team.id);
    const [, created] = await receiver.waitFor(2);
    const webhook = new Webhook(key.standard_webhooks_secret);
    const headers = headersOf(created!);
    const refuse = (body: string, changed: Record<string, string>, hook = webhook) =>
      expect(() => hook.verify(body, { ...headers, ...changed })).toThrow(WebhookVerificationError);
    refuse(created!.body.replace('"guide.created"', '"guide.deleted"'), {});
    refuse(created!.body + ' ', {});
    refuse(created!.body, { 'webhook-id': '00000000-0000-4000-8000-000000000000' });
    refuse(created!.body, { 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) });
    // Replay protection: a timestamp far from now is refused even with a matching signature.
    const old = new Date(Date.now() - 3600_000);
    refuse(created!.body, { 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': webhook.sign(headers['webhook-id']!, old, created!.body) });
    refuse(created!.body, {}, new Webhook(standardWebhooksSecret(key.signing_key + 'x')));
    expect(() => webhook.verify(created!.body, headers)).not.toThrow();
  });

  it('webhook-id is the event id on every attempt: a retry and a manual resend carry the same one, freshly timed and signed', async () => {
    const { team, endpoint, key, receiver } = await teamWithEndpoint();
    receiver.answer = (request) => (request.headers['x-service-event'] === 'guide.created' && receiver.received.indexOf(request) === 1 ? { status: 500 } : { status: 200 });
    await createGuide(t, team.id);
    const [, failed, retried] = await receiver.waitFor(3);
    expect(failed!.headers['webhook-id']).toBe(eventIdOf(failed!));
    expect(retried!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
    expect(retried!.headers['x-service-delivery']).not.toBe(failed!.headers['x-service-delivery']);
    expect(retried!.body).toBe(failed!.body);

    // Sent again once the retry's success is recorded: a resend asked for before that would be cancelled by
    // it (a delivered event is settled, shared decisions §11).
    await waitForAttempts(t, endpoint.id, (attempts) => attempts.some((a) => a.id === retried!.headers['x-service-delivery'] && a.status === 'delivered'));
    const resent = await t.adminRaw('POST', `/deliveries/${failed!.headers['x-service-delivery']}/resend`);
    expect(resent.statusCode, resent.body).toBe(202);
    const [, , , again] = await receiver.waitFor(4);
    expect(again!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);

    const webhook = new Webhook(key.standard_webhooks_secret);
    for (const request of [failed!, retried!, again!]) expect(() => webhook.verify(request.body, headersOf(request))).not.toThrow();
    // The Deliveries list keeps the headers as sent, these included.
    const isAgain = (attempt: any) => attempt.id === again!.headers['x-service-delivery'] && attempt.request_headers !== null;
    const recorded = (await waitForAttempts(t, endpoint.id, (attempts) => attempts.some(isAgain))).find(isAgain);
    expect(recorded.request_headers).toMatchObject({
      'webhook-id': again!.headers['webhook-id'],
      'webhook-timestamp': again!.headers['webhook-timestamp'],
      'webhook-signature': again!.headers['webhook-signature'],
    });
  });

  it('the signature is the one the standardwebhooks package makes for the same id, time and body', () => {
    const signingKey = 'whsec_test-key-0123456789';
    const body = JSON.stringify({ id: 'e', text: 'ünïcödé ✓' });
    const sentAt = new Date('2026-11-21T09:30:00.000Z');
    const request = deliveryRequest(
      { url: 'https://hooks.example.com/x' },
      { current: signingKey, old: null },
      { id: 'delivery', event_id: 'event-id', type: 'ping', payload: body },
      sentAt.getTime(),
    );
    expect(request.headers['webhook-id']).toBe('event-id');
    expect(request.headers['webhook-timestamp']).toBe(String(sentAt.getTime() / 1000));
    expect(request.headers['webhook-signature']).toBe(new Webhook(standardWebhooksSecret(signingKey)).sign('event-id', sentAt, body));
  });
});

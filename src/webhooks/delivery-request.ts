// The request of one delivery attempt (spec §6.1, §5 rule 8): POST of the event's exact body bytes to the
// endpoint's URL, with the event name, the attempt's own delivery id and the signature over the body; and
// the Standard Webhooks headers (shared decisions §9): `webhook-id` the event id (the same on every attempt
// and resend, for idempotency), `webhook-timestamp` the attempt's send time in whole seconds, and
// `webhook-signature` over both and the body. The timestamp is the wall clock when the request is built,
// just before it leaves: receivers compare it with their own clocks for replay protection. During a
// rotation's overlap (signing.ts) the old key signs `X-Service-Signature` and both sign `webhook-signature`.
// A test event (a ping, or a test of another type) says so in `X-Service-Test: true`, on every attempt, so
// a receiver can tell it from what happened without a field the specification's envelope does not have
// (shared decisions §11); real events carry no such header.
import type { OutgoingDelivery } from './sender.js';
import { type SigningKeys, signBody, standardSignature } from './signing.js';

export function deliveryRequest(
  endpoint: { url: string },
  keys: SigningKeys,
  attempt: { id: string; event_id: string; type: string; payload: string; test?: boolean },
  sentAtMs: number = Date.now(),
): OutgoingDelivery {
  const timestamp = String(Math.floor(sentAtMs / 1000));
  const signers = keys.old ? [keys.current, keys.old.key] : [keys.current];
  return {
    url: endpoint.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1',
      'x-service-event': attempt.type,
      'x-service-delivery': attempt.id,
      'x-service-signature': signBody(keys.old?.key ?? keys.current, attempt.payload),
      'webhook-id': attempt.event_id,
      'webhook-timestamp': timestamp,
      'webhook-signature': signers.map((key) => standardSignature(key, attempt.event_id, timestamp, attempt.payload)).join(' '),
      ...(attempt.test ? { 'x-service-test': 'true' } : {}),
    },
    body: attempt.payload,
  };
}

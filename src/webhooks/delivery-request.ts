// The request of one delivery attempt (spec §6.1, §5 rule 8): POST of the event's exact body bytes to the
// endpoint's URL, with the event name, the attempt's own delivery id and the signature over the body.
import type { OutgoingDelivery } from './sender.js';
import { signBody } from './signing.js';

export function deliveryRequest(
  endpoint: { url: string; signing_key: string },
  attempt: { id: string; type: string; payload: string },
): OutgoingDelivery {
  return {
    url: endpoint.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1',
      'x-service-event': attempt.type,
      'x-service-delivery': attempt.id,
      'x-service-signature': signBody(endpoint.signing_key, attempt.payload),
    },
    body: attempt.payload,
  };
}

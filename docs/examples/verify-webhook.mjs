// Verifies a webhook delivery of the guide service by its Standard Webhooks headers, with Node's standard
// library only. `secrets`: the endpoint's standard_webhooks_secret, or during a rotation's overlap the new
// one and the old one. Answers the event; throws unless one of the keys signed the delivery and it was sent
// within five minutes of now (so that a captured delivery cannot be replayed later).
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 5 * 60;

/** rawBody: the body's bytes as received, before any JSON parsing; headers: as node:http gives them. */
export function verifyWebhook(rawBody, headers, secrets) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) throw new Error('not a signed delivery: a webhook-* header is missing');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    throw new Error('webhook-timestamp is more than five minutes from now: a replay, or a clock that is wrong');
  }
  // One `v1,<base64>` per key that signed: two during a rotation's overlap.
  const given = signatures.split(' ').filter((s) => s.startsWith('v1,')).map((s) => Buffer.from(s.slice(3), 'base64'));
  for (const secret of secrets) {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
    if (given.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected))) {
      return JSON.parse(rawBody.toString('utf8'));
    }
  }
  throw new Error('no webhook-signature matches: a changed body, or a key this receiver does not hold');
}

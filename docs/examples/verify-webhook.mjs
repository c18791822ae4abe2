// Verifies a webhook delivery of the guide service by its Standard Webhooks headers, with Node's standard
// library only. `secrets`: the endpoint's standard_webhooks_secret (the key for webhook-signature), or
// during a rotation's overlap the new one and the old one. Answers the event; throws unless one of the
// keys signed the delivery and it was sent within five minutes of now (so that a captured delivery cannot
// be replayed later).
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 5 * 60;

/** rawBody: the body's bytes as received, before any JSON parsing; headers: as node:http gives them. */
export function verifyWebhook(rawBody, headers, secrets) {
  const keys = secrets.map(keyOf);
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) throw new Error('not a signed delivery: a webhook-* header is missing');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    throw new Error('webhook-timestamp is more than five minutes from now: a replay, or a clock that is wrong');
  }
  // One `v1,<base64>` per key that signed: two during a rotation's overlap.
  const given = signatures.split(' ').filter((s) => s.startsWith('v1,')).map((s) => Buffer.from(s.slice(3), 'base64'));
  for (const key of keys) {
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
    if (given.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected))) {
      return JSON.parse(rawBody.toString('utf8'));
    }
  }
  throw new Error('no webhook-signature matches: a changed body, or a key this receiver does not hold');
}

/** The key bytes of a standard_webhooks_secret: what follows `whsec_`, in base64. */
function keyOf(secret) {
  const encoded = secret.replace(/^whsec_/, '');
  const key = Buffer.from(encoded, 'base64');
  // signing_key starts with whsec_ too, but it keys X-Service-Signature, and what follows it is not base64.
  if (key.length === 0 || key.toString('base64') !== encoded) {
    throw new Error('this looks like the X-Service-Signature key (signing_key); Standard Webhooks needs standard_webhooks_secret (whsec_…)');
  }
  return key;
}

// Delivery signatures (spec §5 rule 8, decisions §6): `sha256=` and the lowercase hex HMAC-SHA256 of the
// exact body bytes, keyed with the endpoint's signing key as UTF-8.
import { createHmac, randomBytes } from 'node:crypto';

export function signBody(signingKey: string, body: string | Buffer): string {
  return 'sha256=' + createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(body).digest('hex');
}

export function newSigningKey(): string {
  return 'whsec_' + randomBytes(32).toString('base64url');
}

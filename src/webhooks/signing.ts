// Delivery signatures (spec §5 rule 8, decisions §6): `sha256=` and the lowercase hex HMAC-SHA256 of the
// exact body bytes, keyed with the endpoint's signing key as UTF-8. Beside it, the Standard Webhooks
// signature (shared decisions §9, https://www.standardwebhooks.com): `v1,` and the base64 HMAC-SHA256 of
// `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the same bytes, which receivers' Standard Webhooks
// libraries take as `whsec_` and their base64.
//
// A rotation may keep the key it replaced for an overlap (decisions §10): until the overlap ends,
// `X-Service-Signature` stays on the old key (its receivers know one key) and `webhook-signature` carries
// both signatures, the new one first; afterwards the new key signs both. Which keys sign is decided
// once per attempt, at the service clock's now, so an attempt's headers agree with each other.
import { createHmac, randomBytes } from 'node:crypto';
import { timestamp } from '../domain/clock.js';

/** An endpoint's keys as stored: the key, and the one a rotation replaced with the end of its overlap. */
export interface StoredSigningKeys {
  signing_key: string;
  old_signing_key: string | null;
  old_signing_key_ends_at: string | null;
}

/** The keys that sign at one moment: the endpoint's key, and the replaced one while its overlap lasts. */
export interface SigningKeys {
  current: string;
  old: { key: string; endsAt: string } | null;
}

export function signingKeysAt(stored: StoredSigningKeys, now: Date): SigningKeys {
  const endsAt = stored.old_signing_key_ends_at;
  const overlapping = stored.old_signing_key !== null && endsAt !== null && timestamp(now) < endsAt;
  return { current: stored.signing_key, old: overlapping ? { key: stored.old_signing_key!, endsAt: endsAt! } : null };
}

export function signBody(signingKey: string, body: string | Buffer): string {
  return 'sha256=' + createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(body).digest('hex');
}

/**
 * The `webhook-signature` value of one attempt. The signed content is fed to the HMAC piece by piece
 * rather than joined into one more copy of the body. (A string key is taken as its UTF-8 bytes.)
 */
export function standardSignature(signingKey: string, webhookId: string, timestampSeconds: string, body: string): string {
  return 'v1,' + createHmac('sha256', signingKey).update(webhookId).update('.').update(timestampSeconds).update('.').update(body).digest('base64');
}

/** The signing key in the form Standard Webhooks libraries take: `whsec_` and the base64 of its UTF-8 bytes. */
export function standardWebhooksSecret(signingKey: string): string {
  return 'whsec_' + Buffer.from(signingKey, 'utf8').toString('base64');
}

export function newSigningKey(): string {
  return 'whsec_' + randomBytes(32).toString('base64url');
}

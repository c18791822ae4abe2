// Delivery signatures (spec §5 rule 8, decisions §6): `sha256=` and the lowercase hex HMAC-SHA256 of the
// exact body bytes, keyed with the endpoint's signing key as UTF-8. Beside it, the Standard Webhooks
// signature (shared decisions §9, https://www.standardwebhooks.com): `v1,` and the base64 HMAC-SHA256 of
// `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the same bytes, which receivers' Standard Webhooks
// libraries take as `whsec_` and their base64.
import { createHmac, randomBytes } from 'node:crypto';

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

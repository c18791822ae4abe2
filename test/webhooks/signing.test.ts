// Delivery signatures (spec §5 rule 8, §6.1; decisions §6): `X-Service-Signature` is `sha256=` plus the
// lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the endpoint's signing key as UTF-8.
import { createHmac } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { newSigningKey, signBody } from '../../src/webhooks/signing.js';
import { soloTeam, useTestService } from '../support/service.js';
import { endpointWithKey, useSharedReceiver, waitForAttempts } from '../support/webhooks.js';

/** The expected signature, computed here from bytes, independently of the service. */
function expectedSignature(key: string, body: Buffer): string {
  return 'sha256=' + createHmac('sha256', Buffer.from(key, 'utf8')).update(body).digest('hex');
}

const NON_ASCII_TITLE = 'Écran — 日本語 ✓';

describe('signBody (spec §5 rule 8)', () => {
  const key = 'whsec_test-key-0123456789';
  const bodies: [string, string][] = [
    ['ASCII JSON', '{"id":"1","type":"ping","data":{"message":"hello"}}'],
    ['non-ASCII JSON (UTF-8)', JSON.stringify({ type: 'guide.created', data: { guide: { title: NON_ASCII_TITLE } } })],
    ['emoji outside the BMP', '{"title":"🚀 launch 𝄞"}'],
    ['empty body', ''],
  ];

  it.each(bodies)('is sha256= plus the lowercase hex HMAC-SHA256 of the exact UTF-8 bytes: %s', (_label, body) => {
    const signature = signBody(key, body);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signature).toBe(expectedSignature(key, Buffer.from(body, 'utf8')));
  });

  it('signs a Buffer and the string of the same bytes alike', () => {
    const body = JSON.stringify({ title: NON_ASCII_TITLE });
    expect(signBody(key, Buffer.from(body, 'utf8'))).toBe(signBody(key, body));
  });

  it('signs non-ASCII text over its UTF-8 bytes, not Latin-1 or UTF-16', () => {
    const body = `{"title":"${NON_ASCII_TITLE}"}`;
    const signature = signBody(key, body);
    expect(signature).toBe(expectedSignature(key, Buffer.from(body, 'utf8')));
    expect(signature).not.toBe(expectedSignature(key, Buffer.from(body, 'latin1')));
    expect(signature).not.toBe(expectedSignature(key, Buffer.from(body, 'utf16le')));
  });

  it('uses the signing key as its UTF-8 bytes', () => {
    const unicodeKey = 'clé-🔑-ключ';
    const body = '{"type":"ping"}';
    expect(signBody(unicodeKey, body)).toBe(expectedSignature(unicodeKey, Buffer.from(body, 'utf8')));
    expect(signBody(unicodeKey, body)).not.toBe('sha256=' + createHmac('sha256', Buffer.from(unicodeKey, 'latin1')).update(body).digest('hex'));
  });

  it('agrees with a known HMAC-SHA256 test vector (RFC 4231 case 2)', () => {
    expect(signBody('Jefe', 'what do ya want for nothing?')).toBe('sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('is accepted by @octokit/webhooks-methods verify, for ASCII and non-ASCII bodies', async () => {
    for (const [, body] of bodies.filter(([, body]) => body !== '')) {
      // (verify refuses an empty payload outright, so the empty body is left out here)
      expect(await verify(key, body, signBody(key, body))).toBe(true);
    }
  });

  it('is rejected by verify when the body differs by one byte', async () => {
    const body = JSON.stringify({ title: NON_ASCII_TITLE, n: 1 });
    const signature = signBody(key, body);
    const changed = Buffer.from(body, 'utf8');
    changed[changed.length - 2] = changed[changed.length - 2]! ^ 0x01; // "1" -> "0"
    expect(changed.toString('utf8')).not.toBe(body);
    expect(await verify(key, changed.toString('utf8'), signature)).toBe(false);
    expect(await verify(key, body + ' ', signature)).toBe(false);
  });

  it('is rejected by verify with a different key', async () => {
    const body = JSON.stringify({ title: NON_ASCII_TITLE });
    expect(await verify(key + 'x', body, signBody(key, body))).toBe(false);
    expect(await verify(newSigningKey(), body, signBody(key, body))).toBe(false);
  });
});

describe('newSigningKey (spec §5 rule 8)', () => {
  /** The random part of a key: what follows a readable prefix such as `whsec_`, if any. */
  function randomPart(signingKey: string): string {
    return signingKey.replace(/^[a-z]+_/, '');
  }

  it('gives distinct keys', () => {
    const keys = Array.from({ length: 1000 }, () => newSigningKey());
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys.map(randomPart)).size).toBe(keys.length);
  });

  it('carries at least 32 random bytes, encoded', () => {
    for (let i = 0; i < 20; i++) {
      const part = randomPart(newSigningKey());
      expect(part).toMatch(/^[A-Za-z0-9_-]+$/); // base64url: safe to show, copy and paste
      expect(Buffer.from(part, 'base64url').length).toBeGreaterThanOrEqual(32);
    }
  });

  it('varies in every byte position across keys (no fixed or low-entropy part)', () => {
    const decoded = Array.from({ length: 200 }, () => Buffer.from(randomPart(newSigningKey()), 'base64url'));
    const length = Math.min(...decoded.map((bytes) => bytes.length));
    expect(length).toBeGreaterThanOrEqual(32);
    for (let position = 0; position < length; position++) {
      // 200 uniformly random bytes show far more than 8 distinct values at each position.
      expect(new Set(decoded.map((bytes) => bytes[position])).size, `byte ${position}`).toBeGreaterThan(8);
    }
  });
});

describe('signed deliveries end to end (spec §5 rule 8, §6.1; decisions §6)', () => {
  const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_TIMEOUT_MS: '2000' });
  const receiver = useSharedReceiver();

  const endpointFor = (teamId: string) => endpointWithKey(t, { type: 'team', id: teamId }, receiver.url, ['guide.created', 'guide.updated']);

  /** The attempt of `eventType` once its outcome is recorded. */
  async function recordedAttempt(endpointId: string, eventType: string, timeoutMs = 10_000) {
    const delivered = (attempt: any) => attempt.event_type === eventType && attempt.status === 'delivered';
    return (await waitForAttempts(t, endpointId, (attempts) => attempts.some(delivered), timeoutMs)).find(delivered);
  }

  function expectSignedWith(signingKey: string, delivery: { body: string; headers: Record<string, unknown> }) {
    const raw = Buffer.from(delivery.body, 'utf8');
    expect(Number(delivery.headers['content-length'])).toBe(raw.length); // the body arrived whole
    expect(delivery.headers['x-service-signature']).toBe(expectedSignature(signingKey, raw));
  }

  it('a delivery verifies with the endpoint signing key over the raw body bytes', async () => {
    const { team } = await soloTeam(t);
    const { signingKey } = await endpointFor(team.id);
    const [ping] = await receiver.waitFor(1);
    expect(ping!.headers['x-service-event']).toBe('ping');
    expectSignedWith(signingKey, ping!);
    expect(await verify(signingKey, ping!.body, String(ping!.headers['x-service-signature']))).toBe(true);
  });

  it('a body with non-ASCII text (a guide title) still verifies over its UTF-8 bytes', async () => {
    const { team } = await soloTeam(t);
    const { endpoint, signingKey } = await endpointFor(team.id);
    await receiver.waitFor(1);
    const guide = await t.admin('POST', '/guides', { team_id: team.id, title: NON_ASCII_TITLE, description: 'Überblick: ça marche 🚀' });
    const [, created] = await receiver.waitFor(2);
    expect(created!.headers['x-service-event']).toBe('guide.created');
    const body = JSON.parse(created!.body);
    expect(body.data.guide).toMatchObject({ id: guide.id, title: NON_ASCII_TITLE, description: 'Überblick: ça marche 🚀' });
    expectSignedWith(signingKey, created!);
    expect(await verify(signingKey, created!.body, String(created!.headers['x-service-signature']))).toBe(true);
    expect(await verify(signingKey, created!.body.replace('✓', '✔'), String(created!.headers['x-service-signature']))).toBe(false);

    // The Deliveries list keeps the same bytes and the same signature as were sent.
    const recorded = await recordedAttempt(endpoint.id, 'guide.created');
    expect(recorded.request_body).toBe(created!.body);
    expect(recorded.request_headers['x-service-signature']).toBe(created!.headers['x-service-signature']);
  });

  it('after a rotation, deliveries are signed with the new key and no longer verify with the old one', async () => {
    const { team } = await soloTeam(t);
    const { endpoint, signingKey: oldKey } = await endpointFor(team.id);
    await receiver.waitFor(1);
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`);
    const { signing_key: newKey } = await t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
    expect(newKey).not.toBe(oldKey);
    await t.admin('POST', '/guides', { team_id: team.id, title: NON_ASCII_TITLE });
    const [, created] = await receiver.waitFor(2);
    const signature = String(created!.headers['x-service-signature']);
    expect(await verify(newKey, created!.body, signature)).toBe(true);
    expect(await verify(oldKey, created!.body, signature)).toBe(false);
  });
});

// Signing-key rotation with an overlap (decisions §10, issue 34): `keep_old_for_hours` keeps the replaced
// key signing for that long: `X-Service-Signature` with the old key alone, `webhook-signature` with both
// (the new one first); at the end the new key signs both, and the upkeep forgets the old key. A receiver
// that moves to "both keys" at any moment inside the window and to "the new key only" after it sees no
// failed delivery.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { type SigningKeys, signBody, signingKeysAt, standardWebhooksSecret } from '../../src/webhooks/signing.js';
import type { Received } from '../support/receiver.js';
import { soloTeam, useTestService } from '../support/service.js';
import { allAttempts, endpointWithKey, QUICK_DELIVERY_ENV, settle, useSharedReceiver } from '../support/webhooks.js';
import { eventually } from '../support/waiting.js';
import { expectProblem } from '../http/admin/helpers.js';

const t = useTestService(QUICK_DELIVERY_ENV);
const receiver = useSharedReceiver();
const HOUR_MS = 3_600_000;

/** Whether a delivery verifies, on both of its headers, with one of the keys a receiver accepts. */
function verifiesWith(accepted: readonly string[], request: Received): boolean {
  const xSignature = String(request.headers['x-service-signature']);
  const standard = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(request.headers[name])]));
  const byXSignature = accepted.some((key) => signBody(key, request.body) === xSignature);
  const byStandard = accepted.some((key) => {
    try {
      new Webhook(standardWebhooksSecret(key)).verify(request.body, standard);
      return true;
    } catch {
      return false;
    }
  });
  return byXSignature && byStandard;
}

/**
 * Moves the service's clock once the endpoint's queue is let go. A jump past the lease of a batch still
 * holding the queue would look like a worker stalled for hours, whose queue another claim takes over
 * (and whose attempt in flight may then go out twice, as at-least-once allows): not what this test is about.
 */
async function advanceWhenIdle(endpointId: string, ms: number): Promise<void> {
  await settle(t);
  await eventually('the queue let go', async () => {
    const queue = await t.service.ctx.db.selectFrom('webhook_queues').select('claim_token').where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
    return queue.claim_token === null;
  });
  t.clock.advance(ms);
}

async function rotate(endpointId: string, body?: unknown) {
  return t.admin('POST', `/webhook-endpoints/${endpointId}/signing-key/rotate`, body);
}

describe('which keys sign at a moment', () => {
  const stored = { signing_key: 'new', old_signing_key: 'old', old_signing_key_ends_at: '2026-11-28T12:00:00.000Z' };
  const at = (iso: string): SigningKeys => signingKeysAt(stored, new Date(iso));

  it('the old key signs beside the new one until the overlap ends, and not from its end on', () => {
    expect(at('2026-11-28T11:59:59.999Z')).toEqual({ current: 'new', old: { key: 'old', endsAt: stored.old_signing_key_ends_at } });
    expect(at('2026-11-28T12:00:00.000Z')).toEqual({ current: 'new', old: null });
    expect(signingKeysAt({ ...stored, old_signing_key: null, old_signing_key_ends_at: null }, new Date(0))).toEqual({ current: 'new', old: null });
  });
});

describe('POST /webhook-endpoints/{id}/signing-key/rotate with keep_old_for_hours (decisions §10)', () => {
  it('a receiver that accepts both keys at a random moment in the window, and later only the new one, sees no failed delivery', async () => {
    const { team } = await soloTeam(t);
    const { endpoint, signingKey: oldKey } = await endpointWithKey(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    let accepted = [oldKey];
    const refused: Received[] = [];
    receiver.answer = (request) => {
      if (verifiesWith(accepted, request)) return { status: 204 };
      refused.push(request);
      return { status: 401 };
    };
    await receiver.waitFor(1);
    // Each delivery is found by the guide it carries, never as the last request come: on a loaded machine
    // a request may outlast WEBHOOK_TIMEOUT_MS and come again, as at-least-once allows.
    const guideIds: string[] = [];
    const deliverOne = async (): Promise<Received> => {
      const guide = await t.admin('POST', '/guides', { team_id: team.id, title: `Guide ${guideIds.length + 1}` });
      guideIds.push(guide.id);
      return eventually(`the delivery of ${guide.title}`, () => receiver.received.findLast((request) => JSON.parse(request.body).data?.guide?.id === guide.id));
    };
    await deliverOne();

    const rotated = await rotate(endpoint.id, { keep_old_for_hours: 24 });
    const newKey = rotated.signing_key;
    expect(rotated.old_key).toMatchObject({ signing_key: oldKey, standard_webhooks_secret: standardWebhooksSecret(oldKey) });
    // Inside the window: the receiver switches to both keys after a random number of deliveries (0–4),
    // while the clock moves through the window.
    const switchAfter = Math.floor(Math.random() * 5);
    for (let i = 0; i <= 4; i++) {
      if (i === switchAfter) accepted = [oldKey, newKey];
      if (i === 2) await advanceWhenIdle(endpoint.id, 12 * HOUR_MS);
      const inWindow = await deliverOne();
      expect(inWindow.headers['x-service-signature']).toBe(signBody(oldKey, inWindow.body));
      expect(String(inWindow.headers['webhook-signature']).split(' ')).toHaveLength(2);
    }
    // The window ends: the new key signs both headers, and the receiver drops the old key.
    await advanceWhenIdle(endpoint.id, 13 * HOUR_MS);
    const afterWindow = await deliverOne();
    expect(afterWindow.headers['x-service-signature']).toBe(signBody(newKey, afterWindow.body));
    expect(String(afterWindow.headers['webhook-signature']).split(' ')).toHaveLength(1);
    accepted = [newKey];
    await deliverOne();
    await deliverOne();

    await settle(t);
    expect(refused).toEqual([]);
    const delivered = receiver.received.map((request) => JSON.parse(request.body).data?.guide?.id).filter(Boolean);
    expect(new Set(delivered)).toEqual(new Set(guideIds));
    const attempts = await allAttempts(t, endpoint.id);
    expect(attempts.filter((attempt) => attempt.response_status === 401)).toEqual([]);
    const events = new Set(attempts.map((attempt) => attempt.event_id));
    expect(attempts.filter((attempt) => attempt.status === 'delivered').map((attempt) => attempt.event_id).sort()).toEqual([...events].sort());
  });

  it('answers the new key and the old one with its end; the reveal and the endpoint show the end until it comes', async () => {
    const { team } = await soloTeam(t);
    const { endpoint, signingKey: oldKey } = await endpointWithKey(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    const before = t.clock.now().getTime();
    const rotated = await rotate(endpoint.id, { keep_old_for_hours: 72 });
    const after = t.clock.now().getTime();
    expect(rotated).toEqual({
      signing_key: expect.stringMatching(/^whsec_/),
      standard_webhooks_secret: standardWebhooksSecret(rotated.signing_key),
      old_key: { signing_key: oldKey, standard_webhooks_secret: standardWebhooksSecret(oldKey), ends_at: expect.any(String) },
    });
    const endsAt = Date.parse(rotated.old_key.ends_at);
    expect(endsAt).toBeGreaterThanOrEqual(before + 72 * HOUR_MS);
    expect(endsAt).toBeLessThanOrEqual(after + 72 * HOUR_MS);
    expect(await t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`)).toEqual(rotated);
    expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).old_signing_key_ends_at).toBe(rotated.old_key.ends_at);

    await advanceWhenIdle(endpoint.id, 72 * HOUR_MS);
    expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`)).old_key).toBeNull();
    expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).old_signing_key_ends_at).toBeNull();
    // The upkeep forgets the old key: no secret is kept longer than it signs.
    await eventually('the old key forgotten', async () => {
      t.service.ctx.outbox.wake();
      const row = await t.service.ctx.db.selectFrom('webhook_endpoints').select(['old_signing_key', 'old_signing_key_ends_at']).where('id', '=', endpoint.id).executeTakeFirstOrThrow();
      return row.old_signing_key === null && row.old_signing_key_ends_at === null;
    });
    await settle(t);
  });

  it('without keep_old_for_hours, with 0, or with no body at all, the old key stops at once', async () => {
    const { team } = await soloTeam(t);
    const { endpoint } = await endpointWithKey(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    await rotate(endpoint.id, { keep_old_for_hours: 5 });
    for (const body of [undefined, {}, { keep_old_for_hours: 0 }]) {
      const rotated = await rotate(endpoint.id, body);
      expect(rotated.old_key).toBeNull();
      expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).old_signing_key_ends_at).toBeNull();
    }
    await settle(t);
  });

  it('a rotation during an overlap keeps only the key it replaces', async () => {
    const { team } = await soloTeam(t);
    const { endpoint, signingKey: first } = await endpointWithKey(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    const second = (await rotate(endpoint.id, { keep_old_for_hours: 24 })).signing_key;
    const third = await rotate(endpoint.id, { keep_old_for_hours: 1 });
    expect(third.old_key.signing_key).toBe(second);
    expect(JSON.stringify(third)).not.toContain(first);
    await settle(t);
  });

  it.each([[73], [-1], [1.5], ['24'], [null]])('refuses keep_old_for_hours %j with 400 naming the field', async (hours) => {
    const { team } = await soloTeam(t);
    const { endpoint, signingKey } = await endpointWithKey(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    const refused = await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`, { keep_old_for_hours: hours });
    expectProblem(refused, 400, 'invalid_request');
    expect(refused.json().detail).toContain('keep_old_for_hours');
    expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`)).signing_key).toBe(signingKey);
    await settle(t);
  });
});

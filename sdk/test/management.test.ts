// A management key through the SDK (shared decisions §11): its home's webhook endpoints through their
// whole life against a live service, and writes that are safe to retry: each carries an Idempotency-Key,
// the same on every retry of it, so a create whose answer was lost registers one endpoint, and a retry
// that meets the first still running waits as the service says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../test/support/receiver.js';
import { createKey } from '../../test/support/service.js';
import { GuideService } from '../src/index.js';
import { DELIVERING, type LiveService, startLiveService } from './live-service.js';

let live: LiveService;
let receiver: Receiver;
let home: { type: 'team'; id: string };
let managementKey: string;

beforeAll(async () => {
  live = await startLiveService(DELIVERING);
  receiver = await startReceiver();
  const organization = await live.t.admin('POST', '/organizations', { name: 'SDK managed', plan: 'growth' });
  const team = await live.t.admin('POST', '/teams', { name: 'SDK team', organization_id: organization.id });
  home = { type: 'team', id: team.id };
  managementKey = (await createKey(live.t, home, { scopes: ['webhooks:manage'] })).secret;
});
afterAll(async () => {
  await receiver?.close();
  await live?.t.close();
});

describe('webhookEndpoints with a management key', () => {
  it('registers, lists, changes, pings, pauses, resumes, rotates, pages through deliveries, sends one again and deletes', async () => {
    const sdk = new GuideService({ apiKey: managementKey, baseUrl: live.baseUrl });
    const created = await sdk.webhookEndpoints.create({ home, url: `${receiver.url}/sdk`, events: ['guide.created'] });
    expect(created).toMatchObject({ home, status: 'active', events: ['guide.created'] });
    expect((await sdk.webhookEndpoints.list(home)).map((endpoint) => endpoint.id)).toContain(created.id);
    expect((await sdk.webhookEndpoints.update(created.id, { description: 'From the SDK' })).description).toBe('From the SDK');
    await sdk.webhookEndpoints.ping(created.id);
    await sdk.webhookEndpoints.ping(created.id, { eventType: 'guide.created' });
    expect((await sdk.webhookEndpoints.pause(created.id)).status).toBe('paused');
    expect((await sdk.webhookEndpoints.resume(created.id, { redeliverMissed: true })).status).toBe('active');
    const before = await sdk.webhookEndpoints.signingKey(created.id);
    const rotated = await sdk.webhookEndpoints.rotateSigningKey(created.id, { keepOldForHours: 1 });
    expect(rotated.signing_key).not.toBe(before.signing_key);
    expect(rotated.old_key?.signing_key).toBe(before.signing_key);
    await receiver.waitFor(3, 20_000);
    const attempts = [];
    for await (const attempt of sdk.webhookEndpoints.deliveries(created.id, { limit: 1 })) attempts.push(attempt);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    const resent = await sdk.deliveries.resend(attempts[0]!.id);
    expect(resent.id).not.toBe(attempts[0]!.id);
    expect((await sdk.webhookEndpoints.health(created.id)).endpoint_id).toBe(created.id);
    await sdk.webhookEndpoints.delete(created.id);
    expect((await sdk.webhookEndpoints.list(home)).map((endpoint) => endpoint.id)).not.toContain(created.id);
  });

  it('a create whose answer was lost is sent again with the same Idempotency-Key, and registers one endpoint', async () => {
    const keys: string[] = [];
    let lost = false;
    // The first answer is dropped after the service made the endpoint, as a connection cut would.
    const dropping: typeof fetch = async (input, init) => {
      if (init?.method !== undefined && init.method !== 'GET') keys.push(new Headers(init.headers).get('idempotency-key') ?? '');
      const answer = await fetch(input, init);
      if (init?.method === 'POST' && !lost) {
        lost = true;
        throw new TypeError('fetch failed: the connection was reset');
      }
      return answer;
    };
    const sdk = new GuideService({ apiKey: managementKey, baseUrl: live.baseUrl, fetch: dropping });
    const url = `${receiver.url}/once-${Date.now()}`;
    const created = await sdk.webhookEndpoints.create({ home, url, events: ['guide.created'] });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const registered = (await sdk.webhookEndpoints.list(home)).filter((endpoint) => endpoint.url === url);
    expect(registered.map((endpoint) => endpoint.id)).toEqual([created.id]);
    // A new call is a new write, with a key of its own.
    await sdk.webhookEndpoints.update(created.id, { description: 'next' });
    expect(keys).toHaveLength(3);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('a key of the caller\'s own makes a write safe to repeat across calls: the second call gets the first answer', async () => {
    const sdk = new GuideService({ apiKey: managementKey, baseUrl: live.baseUrl });
    const url = `${receiver.url}/job-${Date.now()}`;
    const first = await sdk.webhookEndpoints.create({ home, url, events: ['guide.created'] }, { idempotencyKey: `deploy-${url}` });
    const second = await sdk.webhookEndpoints.create({ home, url, events: ['guide.created'] }, { idempotencyKey: `deploy-${url}` });
    expect(second.id).toBe(first.id);
    expect((await sdk.webhookEndpoints.list(home)).filter((endpoint) => endpoint.url === url)).toHaveLength(1);
  });
});

describe('a retry that meets the first still running', () => {
  it('waits for Retry-After on 409 idempotency_key_in_use and sends the same key again', async () => {
    const calls: { at: number; key: string | null }[] = [];
    const script = [
      new Response(JSON.stringify({ type: 'x', title: 'x', status: 409, detail: 'still running', code: 'idempotency_key_in_use', request_id: 'r' }), {
        status: 409,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
      }),
      new Response(JSON.stringify({ data: { id: 'e' } }), { status: 201, headers: { 'content-type': 'application/json' } }),
    ];
    const scripted: typeof fetch = async (_input, init) => {
      calls.push({ at: Date.now(), key: new Headers(init?.headers).get('idempotency-key') });
      return script.shift()!;
    };
    const sdk = new GuideService({ apiKey: 'gsk_test', baseUrl: 'http://api.test', fetch: scripted });
    expect(await sdk.webhookEndpoints.create({ home: { type: 'team', id: 'x' }, url: 'https://hooks.example.com', events: ['guide.created'] })).toEqual({ id: 'e' });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.key).toBe(calls[0]!.key);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1_000);
  });
});

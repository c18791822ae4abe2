// The webhook rows of the management API (decisions §6, §7; spec §5 rule 8, §6.1): endpoints, their
// signing key, the Deliveries list and resend, the 30 days the list is kept, and keys kept out of the log.
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  expectInvalid,
  expectNotFound,
  LOWER_UUID,
  RFC3339_MS,
  UNKNOWN_ID,
} from '../http/admin/helpers.js';
import type { Received, Receiver } from '../support/receiver.js';
import { createGuide, organizationWithTeams, soloTeam, type TestService, useTestService } from '../support/service.js';
import { eventually, sleep } from '../support/waiting.js';
import {
  allAttempts,
  closedPortUrl,
  createEndpoint,
  deliveriesPage,
  eventIdOf,
  requestsOfType,
  signingKeyOf,
  useWebhookFixtures,
} from '../support/webhooks.js';

const BASE_ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_COALESCE_MS: '0',
  WEBHOOK_RETRY_DELAYS: '50ms,50ms,50ms',
  WEBHOOK_TIMEOUT_MS: '1000',
};
const t = useTestService(BASE_ENV);

const DAY = 86_400_000;
/** The fields of an attempt in the Deliveries list (decisions §6), sorted. */
const ATTEMPT_FIELDS = [
  'attempt_number',
  'created_at',
  'due_at',
  'duration_ms',
  'endpoint_id',
  'error',
  'event_id',
  'event_type',
  'id',
  'next_attempt_at',
  'request_body',
  'request_headers',
  'response_body',
  'response_status',
  'sent_at',
  'status',
  'test',
];

const { receiver, ownService, otherReceiver } = useWebhookFixtures(t, BASE_ENV);

/** Waits for the `n`-th request of `type` and answers it. */
async function nthOfType(r: Receiver, type: string, n = 1): Promise<Received> {
  return eventually(`${n} ${type} deliveries`, async () => requestsOfType(r, type)[n - 1]);
}

/** Waits until no attempt of the endpoint is scheduled or in flight. */
async function quiet(s: TestService, endpointId: string): Promise<any[]> {
  return eventually('the endpoint to have nothing due', async () => {
    const attempts = await allAttempts(s, endpointId);
    return attempts.every((a) => a.status !== 'scheduled' && a.status !== 'sending') ? attempts : null;
  });
}

async function newEndpoint(s: TestService, teamId: string, url = receiver.url, events = ['guide.created', 'guide.updated', 'guide.deleted']) {
  return createEndpoint(s, { type: 'team', id: teamId }, url, events);
}

// ---------------------------------------------------------------------------------------------------

describe('POST /webhook-endpoints (decisions §7)', () => {
  it('answers 201 with id, home, url, events, status active, paused_reason null and created_at, and sends the endpoint a ping', async () => {
    const { team } = await soloTeam(t);
    const response = await t.adminRaw('POST', '/webhook-endpoints', {
      home: { type: 'team', id: team.id },
      url: receiver.url,
      events: ['guide.created', 'member.joined'],
      description: 'Our CRM',
    });
    expect(response.statusCode, response.body).toBe(201);
    const endpoint = response.json().data;
    expect(endpoint.id).toMatch(LOWER_UUID);
    expect(endpoint).toMatchObject({
      home: { type: 'team', id: team.id },
      url: receiver.url,
      status: 'active',
      paused_reason: null,
      description: 'Our CRM',
    });
    expect([...endpoint.events].sort()).toEqual(['guide.created', 'member.joined']);
    expect(endpoint.created_at).toMatch(RFC3339_MS);
    expect(endpoint.old_signing_key_ends_at).toBeNull();
    const ping = await nthOfType(receiver, 'ping');
    expect(JSON.parse(ping.body).type).toBe('ping');
  });

  it('answers the signing key in both forms with the new endpoint, in that answer only, and the creation ping verifies with it (shared decisions §11)', async () => {
    const { team } = await soloTeam(t);
    const response = await t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json().data;
    const { signing_key: signingKey, standard_webhooks_secret: secret, ...endpoint } = created;
    expect(signingKey).toMatch(/^whsec_/);
    expect(secret).toBe(`whsec_${Buffer.from(signingKey, 'utf8').toString('base64')}`);
    const revealed = await t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
    expect(revealed).toMatchObject({ signing_key: signingKey, standard_webhooks_secret: secret });
    // The ping that left with the creation verifies with the key of the same answer, in either header.
    const ping = await nthOfType(receiver, 'ping');
    expect(await verify(signingKey, ping.body, String(ping.headers['x-service-signature']))).toBe(true);
    expect(new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>)).toMatchObject({ type: 'ping' });
    // Reads and changes of the endpoint never show the key.
    const reads = [
      await t.admin('GET', `/webhook-endpoints/${endpoint.id}`),
      (await t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${team.id}`))[0],
      await t.admin('PATCH', `/webhook-endpoints/${endpoint.id}`, { description: 'Changed' }),
    ];
    for (const read of reads) {
      expect(JSON.stringify(read)).not.toMatch(/whsec|signing_key"|standard_webhooks_secret/);
      expect(Object.keys(read).sort()).toEqual(Object.keys(endpoint).sort());
    }
  });

  it('registers an organization endpoint', async () => {
    const { organization } = await organizationWithTeams(t, 'growth', 1);
    const endpoint = await t.admin('POST', '/webhook-endpoints', {
      home: { type: 'organization', id: organization.id },
      url: receiver.url,
      events: ['guide.deleted'],
    });
    expect(endpoint).toMatchObject({ home: { type: 'organization', id: organization.id }, events: ['guide.deleted'], status: 'active' });
    await nthOfType(receiver, 'ping');
  });

  it('accepts a url of exactly 2048 characters', async () => {
    const { team } = await soloTeam(t);
    const prefix = `${receiver.url}?pad=`;
    const url = prefix + 'a'.repeat(2048 - prefix.length);
    expect(url).toHaveLength(2048);
    const endpoint = await newEndpoint(t, team.id, url);
    expect(endpoint.url).toBe(url);
    const ping = await nthOfType(receiver, 'ping');
    expect(ping.path).toBe(url.slice(url.indexOf('/hook')));
  });

  const valid = () => ({ url: 'https://hooks.example.com/in', events: ['guide.created'] });
  it.each([
    ['url', 'not http or https', { url: 'ftp://hooks.example.com/in' }],
    ['url', 'not absolute', { url: 'hooks.example.com/in' }],
    ['url', 'over 2048 characters', { url: `https://hooks.example.com/${'a'.repeat(2049 - 'https://hooks.example.com/'.length)}` }],
    ['url', 'not a string', { url: 42 }],
    ['url', 'missing', { url: undefined }],
    ['events', 'empty', { events: [] }],
    ['events', 'an unknown event', { events: ['guide.exploded'] }],
    ['events', 'a duplicated event', { events: ['guide.created', 'guide.created'] }],
    ['events', 'ping, which is not picked', { events: ['ping'] }],
    ['events', 'missing', { events: undefined }],
    ['colour', 'an unknown field', { colour: 'red' }],
    ['description', 'over 500 characters', { description: 'd'.repeat(501) }],
  ])('refuses with 400 naming %s when it is %s', async (field, _why, change) => {
    const { team } = await soloTeam(t);
    const body: Record<string, unknown> = { home: { type: 'team', id: team.id }, ...valid(), ...change };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    expectInvalid(await t.adminRaw('POST', '/webhook-endpoints', body), field);
    expect(await t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${team.id}`)).toEqual([]);
  });

  // The shape of the url is checked whatever WEBHOOK_ALLOW_PRIVATE_NETWORKS says (it is 'true' here).
  it.each(['http://', 'https://', 'http:///hook', 'http://hooks.example.com:99999/in'])(
    'refuses %s, which is not a usable absolute URL, with 400 naming url',
    async (url) => {
      const { team } = await soloTeam(t);
      expectInvalid(await t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url, events: ['guide.created'] }), 'url');
      expect(await t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${team.id}`)).toEqual([]);
    },
  );

  it('refuses a home of an unknown type with 400 naming home.type', async () => {
    expectInvalid(await t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'user', id: UNKNOWN_ID }, ...valid() }), 'home.type');
  });

  it.each(['team', 'organization'])('answers 404 for a %s home that does not exist', async (type) => {
    expectNotFound(await t.adminRaw('POST', '/webhook-endpoints', { home: { type, id: UNKNOWN_ID }, ...valid() }));
  });
});

describe('GET, PATCH and DELETE /webhook-endpoints (decisions §7)', () => {
  it('GET /webhook-endpoints lists the endpoints of the home given by home_type and home_id, and no other', async () => {
    const { team } = await soloTeam(t);
    const { team: otherTeam } = await soloTeam(t);
    const { organization } = await organizationWithTeams(t, 'growth', 1);
    const a = await newEndpoint(t, team.id);
    const b = await newEndpoint(t, team.id, `${receiver.url}/b`);
    const c = await newEndpoint(t, otherTeam.id);
    const d = await t.admin('POST', '/webhook-endpoints', { home: { type: 'organization', id: organization.id }, url: receiver.url, events: ['guide.created'] });
    const ids = async (type: string, id: string) => (await t.admin('GET', `/webhook-endpoints?home_type=${type}&home_id=${id}`)).map((e: any) => e.id).sort();
    expect(await ids('team', team.id)).toEqual([a.id, b.id].sort());
    expect(await ids('team', otherTeam.id)).toEqual([c.id]);
    expect(await ids('organization', organization.id)).toEqual([d.id]);
    const listed = (await t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${team.id}`)).find((e: any) => e.id === a.id);
    // The list shows what the registration answered, but the signing key, which only that answer carries.
    const { signing_key: _key, standard_webhooks_secret: _secret, ...registered } = a;
    expect(listed).toEqual(registered);
    expectInvalid(await t.adminRaw('GET', `/webhook-endpoints?home_type=team`), 'home_id');
    expectInvalid(await t.adminRaw('GET', `/webhook-endpoints?home_type=user&home_id=${team.id}`), 'home_type');
  });

  it('GET /webhook-endpoints/{id} answers the endpoint, and 404 for an unknown id', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id);
    const got = await t.admin('GET', `/webhook-endpoints/${endpoint.id}`);
    expect(got).toMatchObject({ id: endpoint.id, home: endpoint.home, url: endpoint.url, status: 'active', paused_reason: null, created_at: endpoint.created_at });
    expect([...got.events].sort()).toEqual([...endpoint.events].sort());
    expectNotFound(await t.adminRaw('GET', `/webhook-endpoints/${UNKNOWN_ID}`));
  });

  it('PATCH changes url, events and description, and deliveries follow the change', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id, receiver.url, ['guide.created']);
    await nthOfType(receiver, 'ping');
    const moved = await otherReceiver();
    const changed = await t.admin('PATCH', `/webhook-endpoints/${endpoint.id}`, {
      url: moved.url,
      events: ['guide.deleted'],
      description: 'Moved',
    });
    expect(changed).toMatchObject({ id: endpoint.id, url: moved.url, events: ['guide.deleted'], description: 'Moved', status: 'active' });
    expect(await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).toMatchObject({ url: moved.url, events: ['guide.deleted'], description: 'Moved' });
    const cleared = await t.admin('PATCH', `/webhook-endpoints/${endpoint.id}`, { description: null });
    expect(cleared).toMatchObject({ url: moved.url, events: ['guide.deleted'], description: null });

    const guide = await createGuide(t, team.id); // guide.created is no longer picked
    await t.admin('DELETE', `/guides/${guide.id}`);
    const deleted = await nthOfType(moved, 'guide.deleted');
    expect(JSON.parse(deleted.body).data.guide.id).toBe(guide.id);
    await sleep(200);
    expect(requestsOfType(moved, 'guide.created')).toEqual([]);
    expect(receiver.received.map((r) => r.headers['x-service-event'])).toEqual(['ping']);
  });

  it('PATCH refuses a bad url or events with 400 naming the field, and an unknown id with 404', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id);
    expectInvalid(await t.adminRaw('PATCH', `/webhook-endpoints/${endpoint.id}`, { url: 'ftp://hooks.example.com/in' }), 'url');
    expectInvalid(await t.adminRaw('PATCH', `/webhook-endpoints/${endpoint.id}`, { events: [] }), 'events');
    expectInvalid(await t.adminRaw('PATCH', `/webhook-endpoints/${endpoint.id}`, { events: ['ping'] }), 'events');
    expectInvalid(await t.adminRaw('PATCH', `/webhook-endpoints/${endpoint.id}`, { home: endpoint.home }), 'home');
    expectNotFound(await t.adminRaw('PATCH', `/webhook-endpoints/${UNKNOWN_ID}`, { description: 'x' }));
    expect(await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).toMatchObject({ url: endpoint.url, events: endpoint.events });
  });

  it('DELETE answers 204, then the endpoint is 404 everywhere', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id);
    await nthOfType(receiver, 'ping');
    const response = await t.adminRaw('DELETE', `/webhook-endpoints/${endpoint.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expectNotFound(await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}`));
    expectNotFound(await t.adminRaw('DELETE', `/webhook-endpoints/${endpoint.id}`));
    expectNotFound(await t.adminRaw('PATCH', `/webhook-endpoints/${endpoint.id}`, { description: 'x' }));
    expectNotFound(await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/deliveries`));
    expectNotFound(await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/signing-key`));
    expect(await t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${team.id}`)).toEqual([]);
    await createGuide(t, team.id);
    await sleep(200);
    expect(receiver.received.map((r) => r.headers['x-service-event'])).toEqual(['ping']);
  });
});

describe('signing key (spec §5 rule 8; decisions §6, §7)', () => {
  it('GET /signing-key answers the key that signs every delivery to the endpoint', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id);
    const key = await signingKeyOf(t, endpoint.id);
    expect(key).toEqual(expect.any(String));
    expect(key.length).toBeGreaterThanOrEqual(16);
    await createGuide(t, team.id);
    const delivered = [await nthOfType(receiver, 'ping'), await nthOfType(receiver, 'guide.created')];
    for (const request of delivered) expect(await verify(key, request.body, String(request.headers['x-service-signature']))).toBe(true);
    expectNotFound(await t.adminRaw('GET', `/webhook-endpoints/${UNKNOWN_ID}/signing-key`));
  });

  it('POST /signing-key/rotate answers a new key; the next delivery is signed with the new key only', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id);
    await nthOfType(receiver, 'ping');
    const oldKey = await signingKeyOf(t, endpoint.id);
    const response = await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`);
    expect(response.statusCode, response.body).toBe(200);
    const newKey = response.json().data.signing_key;
    expect(newKey).toEqual(expect.any(String));
    expect(newKey).not.toBe(oldKey);
    expect(await signingKeyOf(t, endpoint.id)).toBe(newKey);
    await createGuide(t, team.id);
    const next = await nthOfType(receiver, 'guide.created');
    const signature = String(next.headers['x-service-signature']);
    expect(await verify(newKey, next.body, signature)).toBe(true);
    expect(await verify(oldKey, next.body, signature)).toBe(false);
    expectNotFound(await t.adminRaw('POST', `/webhook-endpoints/${UNKNOWN_ID}/signing-key/rotate`));
  });
});

describe('GET /webhook-endpoints/{id}/deliveries (decisions §6, §7)', () => {
  /** An endpoint with a delivered ping, a guide.created that failed once (500 "boom") and then was delivered. */
  async function historyWithARetry(s: TestService) {
    const { team } = await soloTeam(s);
    let created = 0;
    receiver.answer = (request) => {
      if (request.headers['x-service-event'] !== 'guide.created') return { status: 200, body: 'pong' };
      created += 1;
      return created === 1 ? { status: 500, body: 'boom' } : { status: 202, body: 'thanks' };
    };
    const endpoint = await newEndpoint(s, team.id);
    await nthOfType(receiver, 'ping');
    await createGuide(s, team.id);
    await nthOfType(receiver, 'guide.created', 2);
    const attempts = await quiet(s, endpoint.id);
    return { team, endpoint, attempts };
  }

  it('lists every attempt with every field decisions §6 names, matching exactly what the receiver got', async () => {
    const { endpoint, attempts } = await historyWithARetry(t);
    const key = await signingKeyOf(t, endpoint.id);
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) {
      expect(Object.keys(attempt).sort()).toEqual(ATTEMPT_FIELDS);
      const request = receiver.received.find((r) => r.headers['x-service-delivery'] === attempt.id);
      expect(request, `the receiver got delivery ${attempt.id}`).toBeDefined();
      expect(attempt.id).toMatch(LOWER_UUID);
      expect(attempt.endpoint_id).toBe(endpoint.id);
      expect(attempt.event_id).toBe(eventIdOf(request!));
      expect(attempt.event_type).toBe(request!.headers['x-service-event']);
      expect(attempt.request_body).toBe(request!.body);
      expect(attempt.request_headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'Service-Webhooks/1',
        'x-service-event': attempt.event_type,
        'x-service-delivery': attempt.id,
        'x-service-signature': request!.headers['x-service-signature'],
      });
      expect(await verify(key, attempt.request_body, attempt.request_headers['x-service-signature'])).toBe(true);
      expect(Number.isInteger(attempt.duration_ms) && attempt.duration_ms >= 0).toBe(true);
      for (const field of ['created_at', 'sent_at', 'due_at']) expect(attempt[field], field).toMatch(RFC3339_MS);
    }
    const [second, first, ping] = attempts;
    expect(ping).toMatchObject({ event_type: 'ping', attempt_number: 1, status: 'delivered', response_status: 200, response_body: 'pong', error: null, next_attempt_at: null });
    expect(first).toMatchObject({ event_type: 'guide.created', attempt_number: 1, status: 'failed', response_status: 500, response_body: 'boom' });
    expect(first.error).toEqual(expect.any(String));
    expect(first.next_attempt_at).toMatch(RFC3339_MS);
    expect(first.next_attempt_at).toBe(second.due_at);
    expect(second).toMatchObject({ event_type: 'guide.created', event_id: first.event_id, attempt_number: 2, status: 'delivered', response_status: 202, response_body: 'thanks', error: null, next_attempt_at: null });
    expect(second.request_body).toBe(first.request_body);
    expect(second.id).not.toBe(first.id);
  });

  it('lists attempts newest first', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id);
    await nthOfType(receiver, 'ping');
    const guides = [];
    for (let i = 0; i < 4; i++) {
      guides.push(await createGuide(t, team.id, { title: `Guide ${i}` }));
      await nthOfType(receiver, 'guide.created', i + 1);
      await sleep(3);
    }
    const attempts = await quiet(t, endpoint.id);
    expect(attempts.map((a) => (a.event_type === 'ping' ? 'ping' : JSON.parse(a.request_body).data.guide.id))).toEqual([
      ...guides.map((g) => g.id).reverse(),
      'ping',
    ]);
    for (let i = 1; i < attempts.length; i++) expect(attempts[i - 1].created_at >= attempts[i].created_at).toBe(true);
  });

  it('pages with limit and cursor walk every attempt exactly once, in the order of the whole list', async () => {
    const { team } = await soloTeam(t);
    receiver.answer = (request) => (JSON.parse(request.body).data?.guide?.title === 'fails' ? { status: 500 } : { status: 200 });
    const endpoint = await newEndpoint(t, team.id);
    for (let i = 0; i < 5; i++) await createGuide(t, team.id, { title: i === 2 ? 'fails' : `ok ${i}` });
    await eventually('the failing guide to use up its retries', async () => ((await quiet(t, endpoint.id)).length === 1 + 5 + 3 ? true : null));
    const whole = await allAttempts(t, endpoint.id);
    expect(whole).toHaveLength(9);
    for (const limit of [1, 2, 4, 8, 9, 50]) {
      const walked: any[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const body = await deliveriesPage(t, endpoint.id, { limit: String(limit), ...(cursor ? { cursor } : {}) });
        expect(body.data.length).toBeLessThanOrEqual(limit);
        walked.push(...body.data);
        cursor = body.next_cursor;
        pages += 1;
      } while (cursor && pages < 50);
      expect(walked.map((a) => a.id), `limit ${limit}`).toEqual(whole.map((a) => a.id));
      expect(new Set(walked.map((a) => a.id)).size).toBe(whole.length);
    }
  });

  it('a tampered cursor, or one used with another filter or endpoint, is 400 naming cursor', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id);
    for (let i = 0; i < 3; i++) await createGuide(t, team.id);
    await nthOfType(receiver, 'guide.created', 3);
    await quiet(t, endpoint.id);
    const { next_cursor: cursor } = await deliveriesPage(t, endpoint.id, { limit: '1' });
    expect(cursor).toEqual(expect.any(String));
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const tampered = [flip(cursor!, 0), flip(cursor!, cursor!.length - 1), flip(cursor!, cursor!.indexOf('.') - 1), `${cursor}x`, 'not-a-cursor', cursor!.split('.')[0]!];
    for (const bad of tampered) {
      expectInvalid(await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=1&cursor=${encodeURIComponent(bad)}`), 'cursor');
    }
    expectInvalid(await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=1&status=delivered&cursor=${encodeURIComponent(cursor!)}`), 'cursor');
    const other = await newEndpoint(t, team.id);
    expectInvalid(await t.adminRaw('GET', `/webhook-endpoints/${other.id}/deliveries?limit=1&cursor=${encodeURIComponent(cursor!)}`), 'cursor');
  });

  it('the status filter lists only attempts in that status, and pages within it', async () => {
    const { team } = await soloTeam(t);
    receiver.answer = (request) => (request.headers['x-service-event'] === 'guide.deleted' ? { status: 500 } : { status: 200 });
    const endpoint = await newEndpoint(t, team.id);
    const guide = await createGuide(t, team.id);
    await createGuide(t, team.id);
    await t.admin('DELETE', `/guides/${guide.id}`);
    await eventually('the guide.deleted retries to run out', async () => ((await quiet(t, endpoint.id)).length === 1 + 2 + 4 ? true : null));
    const whole = await allAttempts(t, endpoint.id);
    const failed = await allAttempts(t, endpoint.id, { status: 'failed' });
    const delivered = await allAttempts(t, endpoint.id, { status: 'delivered' });
    expect(failed.map((a) => a.id)).toEqual(whole.filter((a) => a.status === 'failed').map((a) => a.id));
    expect(failed).toHaveLength(4);
    expect(failed.every((a) => a.event_type === 'guide.deleted')).toBe(true);
    expect(delivered.map((a) => a.id)).toEqual(whole.filter((a) => a.status === 'delivered').map((a) => a.id));
    expect(delivered).toHaveLength(3);
    expect(await allAttempts(t, endpoint.id, { status: 'missed' })).toEqual([]);
    // Paging inside the filter.
    const first = await deliveriesPage(t, endpoint.id, { status: 'failed', limit: '3' });
    const second = await deliveriesPage(t, endpoint.id, { status: 'failed', limit: '3', cursor: first.next_cursor! });
    expect([...first.data, ...second.data].map((a) => a.id)).toEqual(failed.map((a) => a.id));
    expect(second.next_cursor).toBeNull();
    expectInvalid(await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/deliveries?status=lost`), 'status');
    expectInvalid(await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=0`), 'limit');
    expectInvalid(await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=101`), 'limit');
    expectNotFound(await t.adminRaw('GET', `/webhook-endpoints/${UNKNOWN_ID}/deliveries`));
  });
});

describe('POST /deliveries/{id}/resend (spec §3.4; decisions §7)', () => {
  it('answers 202 with a new attempt (new id, attempt_number + 1), which the receiver then gets with the same body and a new delivery id', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await newEndpoint(t, team.id);
    await createGuide(t, team.id);
    const original = await nthOfType(receiver, 'guide.created');
    const [delivered] = (await quiet(t, endpoint.id)).filter((a) => a.event_type === 'guide.created');
    expect(delivered).toMatchObject({ id: original.headers['x-service-delivery'], attempt_number: 1, status: 'delivered' });

    const response = await t.adminRaw('POST', `/deliveries/${delivered.id}/resend`);
    expect(response.statusCode, response.body).toBe(202);
    const attempt = response.json().data;
    expect(Object.keys(attempt).sort()).toEqual(ATTEMPT_FIELDS);
    expect(attempt.id).toMatch(LOWER_UUID);
    expect(attempt.id).not.toBe(delivered.id);
    expect(attempt).toMatchObject({ endpoint_id: endpoint.id, event_id: delivered.event_id, event_type: 'guide.created', attempt_number: 2 });
    expect(attempt.request_body).toBe(original.body);

    const resent = await nthOfType(receiver, 'guide.created', 2);
    expect(resent.headers['x-service-delivery']).toBe(attempt.id);
    expect(resent.body).toBe(original.body);
    expect(eventIdOf(resent)).toBe(eventIdOf(original));
    expect(await verify(await signingKeyOf(t, endpoint.id), resent.body, String(resent.headers['x-service-signature']))).toBe(true);
    const after = (await quiet(t, endpoint.id)).filter((a) => a.event_id === delivered.event_id);
    expect(after.map((a) => [a.attempt_number, a.status])).toEqual([
      [2, 'delivered'],
      [1, 'delivered'],
    ]);
  });

  it('resending a failed attempt whose retries ran out sends the event once more', async () => {
    const { team } = await soloTeam(t);
    const url = await closedPortUrl();
    const endpoint = await newEndpoint(t, team.id, url, ['guide.created']);
    const attempts = await eventually('the ping retries to run out', async () => {
      const list = await quiet(t, endpoint.id);
      return list.length === 4 ? list : null;
    });
    expect(attempts.every((a) => a.status === 'failed')).toBe(true);
    await t.admin('PATCH', `/webhook-endpoints/${endpoint.id}`, { url: receiver.url });
    const response = await t.adminRaw('POST', `/deliveries/${attempts[3].id}/resend`);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().data.attempt_number).toBe(5);
    const ping = await nthOfType(receiver, 'ping');
    expect(ping.headers['x-service-delivery']).toBe(response.json().data.id);
    expect(ping.body).toBe(attempts[0].request_body);
  });

  it('answers 404 for an unknown delivery id', async () => {
    expectNotFound(await t.adminRaw('POST', `/deliveries/${UNKNOWN_ID}/resend`));
  });
});

describe('the Deliveries list keeps 30 days (decisions §6)', () => {
  it('attempts older than 30 days are pruned by the worker; younger ones stay', async () => {
    const s = await ownService();
    const { team } = await soloTeam(s);
    const endpoint = await newEndpoint(s, team.id);
    await createGuide(s, team.id);
    await nthOfType(receiver, 'guide.created');
    const old = await quiet(s, endpoint.id);
    expect(old).toHaveLength(2);

    s.clock.advance(29 * DAY);
    const middle = await createGuide(s, team.id);
    await nthOfType(receiver, 'guide.created', 2);
    await quiet(s, endpoint.id); // its arrival comes before its outcome is written
    s.clock.advance(2 * DAY); // the first attempts are now 31 days old, the middle one 2 days
    s.service.ctx.outbox.wake();
    const kept = await eventually('the old attempts to be pruned', async () => {
      const list = await allAttempts(s, endpoint.id);
      return list.some((a) => old.some((o) => o.id === a.id)) ? null : list;
    });
    expect(kept).toHaveLength(1);
    expect(JSON.parse(kept[0].request_body).data.guide.id).toBe(middle.id);
    expect(kept[0].status).toBe('delivered');

    // New deliveries still work after the pruning.
    await createGuide(s, team.id);
    await nthOfType(receiver, 'guide.created', 3);
    expect((await quiet(s, endpoint.id)).length).toBe(2);
  });
});

describe('signing keys never appear in the log (spec §5 rule 8)', () => {
  it('no log line carries a signing key, through creation, reveal, rotation, deliveries and failures', async () => {
    const logLines: string[] = [];
    const s = await ownService({}, { logLines });
    const { team } = await soloTeam(s);
    const keys: string[] = [];
    let created = 0;
    receiver.answer = (request) => {
      if (request.headers['x-service-event'] !== 'guide.created') return { status: 200 };
      created += 1;
      return created % 2 === 1 ? { status: 500, body: 'no' } : { status: 200 };
    };
    const endpoint = await newEndpoint(s, team.id);
    keys.push(await signingKeyOf(s, endpoint.id));
    keys.push((await s.admin('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`)).signing_key);
    keys.push(await signingKeyOf(s, endpoint.id));
    await createGuide(s, team.id);
    await nthOfType(receiver, 'guide.created', 2);
    keys.push((await s.admin('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`)).signing_key);
    await s.admin('POST', `/webhook-endpoints/${endpoint.id}/ping`);
    await nthOfType(receiver, 'ping', 2);
    // An endpoint that cannot be reached, and one that hangs.
    const refused = await newEndpoint(s, team.id, await closedPortUrl());
    keys.push(await signingKeyOf(s, refused.id));
    await eventually('the refused ping to run out of retries', async () => ((await quiet(s, refused.id)).length === 4 ? true : null));
    const hanging = await otherReceiver();
    hanging.answer = 'hang';
    const slow = await newEndpoint(s, team.id, hanging.url);
    keys.push(await signingKeyOf(s, slow.id));
    await hanging.waitFor(1);
    await quiet(s, endpoint.id);
    // A failing resend too, and a refused one.
    const [last] = await allAttempts(s, endpoint.id);
    await s.admin('POST', `/deliveries/${last.id}/resend`);
    await quiet(s, endpoint.id);

    expect(new Set(keys).size).toBeGreaterThanOrEqual(4);
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      for (const key of keys) expect(line.includes(key), `log line carries a signing key: ${line.slice(0, 200)}`).toBe(false);
      expect(line).not.toMatch(/whsec_/);
    }
  });
});

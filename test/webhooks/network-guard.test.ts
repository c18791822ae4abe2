// Outbound-request safety (decisions §6; spec §6.1): unless WEBHOOK_ALLOW_PRIVATE_NETWORKS is true, an
// endpoint whose address is loopback, private, link-local, multicast or otherwise non-public is refused at
// registration and again at each delivery, checking the address actually connected to; redirects are
// never followed.
//
// Safety of the tests themselves: nothing here sends anywhere but loopback. IP literals appear only in
// registration checks on a service without a delivery worker (ROLE=api), and names are resolved by an
// injected resolver that, after registration, only ever answers loopback.
import type { LookupAddress } from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, type Resolver } from '../../src/webhooks/network-guard.js';
import { WebhookSender } from '../../src/webhooks/sender.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { soloTeam, startTestService, type TestService } from '../support/service.js';
import { useSharedReceiver, waitForAttempts } from '../support/webhooks.js';

const PUBLIC_ADDRESS = '93.184.216.34';

function portOf(receiver: Receiver): number {
  return Number(new URL(receiver.url).port);
}

function answer(...addresses: string[]): LookupAddress[] {
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}

/** A resolver from a table; names not in it do not resolve. Counts calls per name. */
function tableResolver(table: Record<string, (call: number) => LookupAddress[]>) {
  const calls: Record<string, number> = {};
  const resolver: Resolver = (hostname, callback) => {
    const call = (calls[hostname] = (calls[hostname] ?? 0) + 1);
    const entry = table[hostname];
    queueMicrotask(() => (entry ? callback(null, entry(call)) : callback(notFound(hostname), [])));
  };
  return { resolver, calls };
}

const byAttemptNumber = (attempts: any[]) => [...attempts].sort((a, b) => a.attempt_number - b.attempt_number);

describe('isPublicAddress (decisions §6: loopback, private, link-local, multicast and other non-public space is refused)', () => {
  const nonPublic: [string, string][] = [
    ['127.0.0.1', 'IPv4 loopback'],
    ['127.255.255.255', 'the end of IPv4 loopback 127/8'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.254', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12, first block'],
    ['172.20.10.5', 'private 172.16/12'],
    ['172.31.255.254', 'private 172.16/12, last block'],
    ['192.168.0.1', 'private 192.168/16'],
    ['192.168.255.254', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT 100.64/10'],
    ['100.127.255.254', 'carrier-grade NAT 100.64/10'],
    ['0.0.0.0', '"this" network'],
    ['224.0.0.1', 'IPv4 multicast'],
    ['239.255.255.250', 'IPv4 multicast'],
    ['255.255.255.255', 'limited broadcast'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd12::1', 'IPv6 unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex (how WHATWG URL writes [::ffff:127.0.0.1])'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped cloud metadata, hex'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
  ];
  it.each(nonPublic)('%s (%s) is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // Only 2000::/3 is global unicast; the rest of IPv6 is reserved or special, so not public either.
  const reservedV6: [string, string][] = [
    ['::127.0.0.1', 'IPv4-compatible loopback (::/96, deprecated)'],
    ['::10.0.0.1', 'IPv4-compatible private (::/96, deprecated)'],
    ['::a9fe:a9fe', 'IPv4-compatible cloud metadata (::/96, deprecated)'],
    ['fec0::1', 'site-local fec0::/10 (deprecated, still internal where used)'],
  ];
  it.each(reservedV6)('%s (%s) is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  const isPublic: [string, string][] = [
    ['8.8.8.8', 'public IPv4'],
    ['1.1.1.1', 'public IPv4'],
    ['93.184.216.34', 'public IPv4'],
    ['172.32.0.1', 'just past private 172.16/12'],
    ['172.15.255.254', 'just before private 172.16/12'],
    ['2606:4700:4700::1111', 'public IPv6'],
  ];
  it.each(isPublic)('%s (%s) is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['garbage', '', 'localhost', '256.1.1.1', '127.0.0.1:80', '[::1]', 'http://8.8.8.8/'])('%j is not an address, so not public', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});

type Inject = (method: string, path: string, body?: unknown) => ReturnType<TestService['adminRaw']>;

function expectUrlRefused(response: Awaited<ReturnType<Inject>>) {
  expect(response.statusCode, response.body).toBe(400);
  const problem = response.json();
  expect(problem.code).toBe('invalid_request');
  expect(problem.status).toBe(400);
  expect(problem.detail).toMatch(/\burl\b/);
}

describe('registration refuses non-public endpoints by default, with the system resolver (decisions §6)', () => {
  // The production set-up: WEBHOOK_ALLOW_PRIVATE_NETWORKS unset, real name resolution (only `localhost`
  // is looked up, from /etc/hosts). ROLE=api: no delivery worker, so even a wrongly accepted endpoint
  // would never be sent to.
  let t: TestService;
  let teamId: string;
  beforeAll(async () => {
    t = await startTestService({ ROLE: 'api' });
    teamId = (await soloTeam(t)).team.id;
  });
  afterAll(() => t.close());

  const register = (url: string) => t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'team', id: teamId }, url, events: ['guide.created'] });

  it.each([
    ['http://127.0.0.1:9/x', 'loopback literal'],
    ['http://localhost/x', 'localhost'],
    ['http://10.0.0.1/x', 'private literal'],
    ['http://[::1]/x', 'IPv6 loopback literal'],
    ['http://169.254.169.254/latest', 'cloud metadata literal'],
    ['http://[::ffff:127.0.0.1]/x', 'IPv4-mapped loopback literal'],
    ['http://0x7f000001/x', 'hex loopback (URL parsing makes it 127.0.0.1)'],
    ['http://2130706433/x', 'decimal loopback (URL parsing makes it 127.0.0.1)'],
    ['https://192.168.1.1/x', 'private literal over https'],
    ['http://127.1/x', 'short loopback (URL parsing makes it 127.0.0.1)'],
    ['http://0/x', '"this" host (URL parsing makes it 0.0.0.0)'],
    ['http://[fe80::1]/x', 'IPv6 link-local literal'],
  ])('%s (%s) is refused with 400 invalid_request naming url', async (url) => {
    expectUrlRefused(await register(url));
    expect(await t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${teamId}`)).toEqual([]);
  });
});

describe('registration refuses IPv6 literals outside public space (decisions §6: "otherwise non-public space")', () => {
  let t: TestService;
  let teamId: string;
  beforeAll(async () => {
    t = await startTestService({ ROLE: 'api' });
    teamId = (await soloTeam(t)).team.id;
  });
  afterAll(() => t.close());

  it('http://[::127.0.0.1]/x (IPv4-compatible loopback) is refused with 400 invalid_request naming url', async () => {
    expectUrlRefused(await t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'team', id: teamId }, url: 'http://[::127.0.0.1]/x', events: ['guide.created'] }));
  });
});

describe('registration checks names with the resolver in use (decisions §6)', () => {
  let t: TestService;
  const names = tableResolver({
    'internal.example.test': () => answer('10.0.0.5'),
    'mixed.example.test': () => answer(PUBLIC_ADDRESS, '127.0.0.1'),
    'v6-local.example.test': () => answer('fd00::5'),
    'public.example.test': () => answer(PUBLIC_ADDRESS),
  });
  let teamId: string;
  beforeAll(async () => {
    t = await startTestService({ ROLE: 'api' }, { resolver: names.resolver });
    teamId = (await soloTeam(t)).team.id;
  });
  afterAll(() => t.close());

  const register = (url: string) => t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'team', id: teamId }, url, events: ['guide.created'] });

  it('a name the resolver maps to a private address (10.0.0.5) is refused without naming the address (decisions §10)', async () => {
    const response = await register('http://internal.example.test:5432/hook');
    expectUrlRefused(response);
    expect(response.json().detail).toContain('internal.example.test does not resolve to a public address');
    expect(response.json().detail).not.toMatch(/10\.0\.0\.5|10\.0/);
  });

  it('a name the resolver maps to an IPv6 unique-local address is refused', async () => {
    expectUrlRefused(await register('http://v6-local.example.test/hook'));
  });

  it('a name with any non-public address among its answers is refused', async () => {
    expectUrlRefused(await register('http://mixed.example.test/hook'));
  });

  it('changing an endpoint URL to a non-public address is refused too', async () => {
    const created = await register('http://public.example.test/hook');
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    const changed = await t.adminRaw('PATCH', `/webhook-endpoints/${id}`, { url: 'http://10.0.0.1/x' });
    expectUrlRefused(changed);
    expect((await t.admin('GET', `/webhook-endpoints/${id}`)).url).toBe('http://public.example.test/hook');
    await t.admin('DELETE', `/webhook-endpoints/${id}`);
  });

  it('a name the resolver maps to a public address is accepted', async () => {
    const before = names.calls['public.example.test'] ?? 0;
    const response = await register('http://public.example.test/hook');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ url: 'http://public.example.test/hook', status: 'active' });
    expect(names.calls['public.example.test']).toBeGreaterThan(before); // it was actually checked
    await t.admin('DELETE', `/webhook-endpoints/${response.json().data.id}`);
  });
});

describe('DNS rebinding: the address is checked again at each delivery (decisions §6)', () => {
  let t: TestService;
  let receiver: Receiver;
  // Public for the registration check (the first lookup), loopback ever after: the real receiver's
  // address. Nothing can be sent to the public address, whatever the service does.
  const names = tableResolver({ 'rebind.example.test': (call) => (call === 1 ? answer(PUBLIC_ADDRESS) : answer('127.0.0.1')) });
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestService(
      { WEBHOOK_COALESCE_MS: '0', WEBHOOK_RETRY_DELAYS: '100ms,100ms', WEBHOOK_TIMEOUT_MS: '2000' },
      { resolver: names.resolver, random: () => 0 },
    );
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('a name public at registration and loopback at delivery is not delivered to; the attempt fails as not public and is retried', async () => {
    const { team } = await soloTeam(t);
    const url = `http://rebind.example.test:${portOf(receiver)}/hook`;
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url, events: ['guide.created'] });

    // The ping's first attempt and its retries all run into the check.
    const attempts = byAttemptNumber(await waitForAttempts(t, endpoint.id, (list) => list.filter((a) => a.status === 'failed').length >= 2));
    const [first, second] = attempts;
    expect(first).toMatchObject({ event_type: 'ping', attempt_number: 1, status: 'failed', response_status: null });
    expect(first.error).toBe('rebind.example.test does not resolve to a public address');
    expect(first.next_attempt_at).not.toBeNull();
    expect(Date.parse(first.next_attempt_at)).toBeGreaterThanOrEqual(Date.parse(first.sent_at));
    expect(second).toMatchObject({ event_type: 'ping', attempt_number: 2, status: 'failed', response_status: null });
    expect(second.error).toBe('rebind.example.test does not resolve to a public address');

    expect(names.calls['rebind.example.test']).toBeGreaterThanOrEqual(3); // registration + each delivery
    expect(receiver.received).toEqual([]);
    expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).status).toBe('active');
  });
});

describe('the check applies to the address actually connected to (decisions §6): WebhookSender', () => {
  const receiver = useSharedReceiver();

  const delivery = (url: string) => ({ url, headers: { 'content-type': 'application/json' }, body: '{"type":"ping"}' });

  it('a name that resolves to loopback is not connected to when private networks are not allowed', async () => {
    const { resolver, calls } = tableResolver({ 'loopback-name.example.test': () => answer('127.0.0.1') });
    const sender = new WebhookSender({ timeoutMs: 1000, allowPrivateNetworks: false, resolver });
    try {
      const outcome = await sender.send(delivery(`http://loopback-name.example.test:${portOf(receiver)}/hook`));
      expect(outcome.delivered).toBe(false);
      expect(outcome.status).toBeNull();
      expect(outcome.error).toMatch(/public address/);
      expect(calls['loopback-name.example.test']).toBeGreaterThanOrEqual(1);
    } finally {
      await sender.close();
    }
    expect(receiver.received).toEqual([]);
  });

  it('a name that resolves only to loopback addresses (::1 and 127.0.0.1) is connected to by neither', async () => {
    const { resolver } = tableResolver({ 'two-loopbacks.example.test': () => answer('::1', '127.0.0.1') });
    const sender = new WebhookSender({ timeoutMs: 1000, allowPrivateNetworks: false, resolver });
    try {
      const outcome = await sender.send(delivery(`http://two-loopbacks.example.test:${portOf(receiver)}/hook`));
      expect(outcome.delivered).toBe(false);
      expect(outcome.error).toMatch(/public address/);
    } finally {
      await sender.close();
    }
    expect(receiver.received).toEqual([]);
  });

  it('an IP literal on loopback (no name lookup at all) is refused by the connected-address check', async () => {
    const sender = new WebhookSender({ timeoutMs: 1000, allowPrivateNetworks: false });
    try {
      const outcome = await sender.send(delivery(`http://127.0.0.1:${portOf(receiver)}/hook`));
      expect(outcome.delivered).toBe(false);
      expect(outcome.status).toBeNull();
      expect(outcome.error).toMatch(/^127\.0\.0\.1 is not a public address$/);
    } finally {
      await sender.close();
    }
    expect(receiver.received).toEqual([]);
  });

  it('the same sender with private networks allowed does deliver to loopback (the refusals above are the guard)', async () => {
    const { resolver } = tableResolver({ 'loopback-name.example.test': () => answer('127.0.0.1') });
    const sender = new WebhookSender({ timeoutMs: 1000, allowPrivateNetworks: true, resolver });
    try {
      const outcome = await sender.send(delivery(receiver.url));
      expect(outcome).toMatchObject({ delivered: true, status: 200, error: null });
    } finally {
      await sender.close();
    }
    expect(receiver.received).toHaveLength(1);
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_NETWORKS true (decisions §1, §6)', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('registration on loopback is accepted and deliveries arrive there', async () => {
    const { team } = await soloTeam(t);
    const response = await t.adminRaw('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
    expect(response.statusCode, response.body).toBe(201);
    const endpoint = response.json().data;
    const [ping] = await receiver.waitFor(1);
    expect(ping!.headers['x-service-event']).toBe('ping');
    await t.admin('POST', '/guides', { team_id: team.id, title: 'Loopback guide' });
    const [, created] = await receiver.waitFor(2);
    expect(created!.headers['x-service-event']).toBe('guide.created');
    const attempts = await waitForAttempts(t, endpoint.id, (list) => list.length === 2 && list.every((a) => a.status === 'delivered'));
    expect(attempts.map((a) => a.response_status)).toEqual([200, 200]);
  });
});

describe('redirects are never followed, even to an allowed address (spec §6.1, §3.4)', () => {
  let t: TestService;
  let first: Receiver;
  let second: Receiver;
  beforeAll(async () => {
    first = await startReceiver();
    second = await startReceiver();
    t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_RETRY_DELAYS: '1h', WEBHOOK_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await t.close();
    await first.close();
    await second.close();
  });
  afterEach(() => {
    first.received.length = 0;
    second.received.length = 0;
  });

  it.each([301, 302, 303, 307, 308])('a %i to a second receiver is not followed; the attempt fails and is retried', async (status) => {
    first.answer = { status, headers: { location: second.url } };
    const { team } = await soloTeam(t);
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: first.url, events: ['guide.created'] });
    await first.waitFor(1);
    const attempts = await waitForAttempts(t, endpoint.id, (list) => list.some((a) => a.status === 'failed'));
    const attempt = attempts.find((a) => a.attempt_number === 1);
    expect(attempt).toMatchObject({ attempt_number: 1, status: 'failed', response_status: status });
    expect(attempt.error).toMatch(/redirect/);
    expect(attempt.next_attempt_at).not.toBeNull();
    expect(first.received).toHaveLength(1);
    expect(second.received).toEqual([]);
  });

  it('the WebhookSender itself does not follow a redirect', async () => {
    first.answer = { status: 302, headers: { location: second.url } };
    const sender = new WebhookSender({ timeoutMs: 1000, allowPrivateNetworks: true });
    try {
      const outcome = await sender.send({ url: first.url, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(outcome).toMatchObject({ delivered: false, status: 302 });
      expect(outcome.error).toMatch(/redirect/);
    } finally {
      await sender.close();
    }
    expect(first.received).toHaveLength(1);
    expect(second.received).toEqual([]);
  });
});

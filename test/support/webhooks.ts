// Helpers for the webhook tests: receivers set up per file or per test, endpoints, the Deliveries list
// (decisions §6, §7), the requests a receiver got, and the `data` guide events carry (spec §6.3).
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { OutgoingDelivery } from '../../src/webhooks/sender.js';
import type { LaneLimits } from '../../src/webhooks/worker.js';
import { freePort } from './processes.js';
import { type Received, type Receiver, startReceiver } from './receiver.js';
import { type Reply, ScriptedTransport } from './scripted-transport.js';
import { soloTeam, startTestService, type TestService, type TestServiceOptions } from './service.js';
import { eventually, sleep } from './waiting.js';

// --- receivers and services a test file sets up ------------------------------------------------------

/** An object that stands for whatever `current` answers when it is used (set up by a hook, later). */
function lateBound<T extends object>(current: () => T | undefined, what: string): T {
  const target = (): T => {
    const value = current();
    if (!value) throw new Error(`${what} is not started yet`);
    return value;
  };
  return new Proxy({} as T, {
    get: (_proxy, property) => Reflect.get(target(), property),
    set: (_proxy, property, value) => Reflect.set(target(), property, value),
  });
}

/**
 * One receiver for the tests of a file (or describe block): started before them, closed after them, and
 * emptied and answering 200 again after each test.
 */
export function useSharedReceiver(): Receiver {
  let current: Receiver | undefined;
  beforeAll(async () => {
    current = await startReceiver();
  });
  afterAll(() => current?.close());
  afterEach(() => {
    current!.received.length = 0;
    current!.answer = { status: 200 };
  });
  return lateBound(() => current, 'the shared receiver');
}

/** Answers a function that starts a receiver; each receiver started by a test closes after that test. */
export function useTestReceivers(): () => Promise<Receiver> {
  const open: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((receiver) => receiver.close()));
  });
  return async () => {
    const receiver = await startReceiver();
    open.push(receiver);
    return receiver;
  };
}

/**
 * For test files whose tests share the service `t`: `receiver` is a new receiver for each test, and
 * `ownService` (a service of the test's own, on `baseEnv` and `env`) and `otherReceiver` open more, all
 * closed after the test, newest first. Before the test's receiver closes, `t` is let settle.
 */
export function useWebhookFixtures(t: TestService, baseEnv: Record<string, string>) {
  let current: Receiver | undefined;
  const cleanup: (() => Promise<unknown>)[] = [];
  beforeEach(async () => {
    current = await startReceiver();
  });
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
    // The receiver closes once its keep-alive connections are idle: let the shared service finish what it sends.
    await settle(t);
    await current!.close();
  });
  afterAll(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });
  return {
    receiver: lateBound(() => current, 'the receiver of the test'),
    async ownService(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestService> {
      const service = await startTestService({ ...baseEnv, ...env }, options);
      cleanup.push(() => service.close());
      return service;
    },
    async otherReceiver(): Promise<Receiver> {
      const other = await startReceiver();
      cleanup.push(() => other.close());
      return other;
    },
  };
}

/** A team endpoint of a service whose worker sends through a scripted transport, its ping answered 2xx. */
export interface ScriptedEndpoint {
  s: TestService;
  transport: ScriptedTransport;
  team: any;
  endpoint: any;
}

/**
 * For test files whose tests each start a service of their own on `env` whose worker sends through a
 * scripted transport (no jitter: a retry falls due exactly one delay later; no lingering, so a batch that
 * sent all that was due lets its queue go at once), with a team endpoint whose ping was answered 2xx:
 * the clock moves only when the test moves it, so tests check what was sent, never how fast. Each
 * service closes after its test, its hanging deliveries answered.
 */
export function useScriptedEndpoints(env: Record<string, string>) {
  const open: ScriptedEndpoint[] = [];
  afterEach(async () => {
    for (const { s, transport } of open.splice(0)) {
      transport.hangUpAll();
      await s.close();
    }
  });
  return async (reply: (delivery: OutgoingDelivery) => Reply, lanes: Partial<LaneLimits> = {}): Promise<ScriptedEndpoint> => {
    const transport = new ScriptedTransport();
    transport.reply = (_path, delivery) => reply(delivery);
    const s = await startTestService(env, { transport, lanes: { lingerMs: 0, ...lanes }, random: () => 0 });
    const { team } = await soloTeam(s);
    const made: ScriptedEndpoint = { s, transport, team, endpoint: null };
    open.push(made);
    made.endpoint = await createEndpoint(s, { type: 'team', id: team.id }, 'http://127.0.0.1:9/hook', ['guide.created']);
    await eventually('the ping to prove the endpoint', async () => {
      const queue = await s.service.ctx.db.selectFrom('webhook_queues').select(['proven', 'claim_token']).where('endpoint_id', '=', made.endpoint.id).executeTakeFirstOrThrow();
      return queue.proven === 1 && queue.claim_token === null;
    });
    return made;
  };
}

/** Moves the service's clock and wakes its worker, as time passing would. */
export function advanceClock(s: TestService, ms: number): void {
  s.clock.advance(ms);
  s.service.ctx.outbox.wake();
}

/** The title of the guide a guide event's delivery is about; null for other events. */
export const guideTitleOf = (delivery: OutgoingDelivery): string | null => JSON.parse(delivery.body).data?.guide?.title ?? null;

/** The ids of the deliveries a scripted transport started for one event, in the order they started. */
export const startedFor = (transport: ScriptedTransport, eventId: string): string[] =>
  transport.started.filter((started) => JSON.parse(started.body).id === eventId).map((started) => started.deliveryId);

/** The guide.created event of a guide at an endpoint, once its attempts (by attempt number) are as `ready` wants them. */
export async function guideCreatedAttempts(s: TestService, endpointId: string, guideId: string, ready: (attempts: any[]) => boolean): Promise<{ eventId: string; attempts: any[] }> {
  return eventually(`the attempts of guide ${guideId}'s guide.created`, async () => {
    const found = (await allAttempts(s, endpointId)).find((a) => a.event_type === 'guide.created' && JSON.parse(a.request_body).data.guide.id === guideId);
    if (!found) return undefined;
    const attempts = await attemptsOf(s, endpointId, found.event_id);
    return ready(attempts) ? { eventId: found.event_id as string, attempts } : undefined;
  });
}

/** Waits (a while at most) until the service has no attempt scheduled (which includes those in flight). */
export async function settle(s: TestService, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const busy = await s.service.ctx.db
      .selectFrom('webhook_attempts')
      .select('id')
      .where('status', '=', 'scheduled')
      .limit(1)
      .execute();
    if (busy.length === 0) return;
    await sleep(20);
  }
}

/** A URL on a loopback port where nothing listens. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/hook`;
}

// --- endpoints -------------------------------------------------------------------------------------

export type Home = { type: 'team' | 'organization'; id: string };

/** Registers an endpoint through the management API and answers it. */
export async function createEndpoint(s: TestService, home: Home, url: string, events: string[]): Promise<any> {
  return s.admin('POST', '/webhook-endpoints', { home, url, events });
}

/** An endpoint's signing-key answer: the key, and the same key as Standard Webhooks libraries take it. */
export async function signingKeyAnswerOf(
  s: TestService,
  endpointId: string,
): Promise<{ signing_key: string; standard_webhooks_secret: string; old_key: { signing_key: string; standard_webhooks_secret: string; ends_at: string } | null }> {
  return s.admin('GET', `/webhook-endpoints/${endpointId}/signing-key`);
}

/** The signing key of an endpoint. */
export async function signingKeyOf(s: TestService, endpointId: string): Promise<string> {
  return (await signingKeyAnswerOf(s, endpointId)).signing_key;
}

/** A service that delivers at once and retries within a second: for tests of what deliveries carry. */
export const QUICK_DELIVERY_ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_COALESCE_MS: '0',
  WEBHOOK_RETRY_DELAYS: '100ms,100ms,100ms',
  WEBHOOK_TIMEOUT_MS: '1000',
};

/** Registers an endpoint, then reads its signing key. */
export async function endpointWithKey(s: TestService, home: Home, url: string, events: string[]): Promise<{ endpoint: any; signingKey: string }> {
  const endpoint = await createEndpoint(s, home, url, events);
  return { endpoint, signingKey: await signingKeyOf(s, endpoint.id) };
}

// --- the Deliveries list ---------------------------------------------------------------------------

/** One page of an endpoint's Deliveries list, which must answer 200. */
export async function deliveriesPage(s: TestService, endpointId: string, query: Record<string, string> = {}) {
  const response = await s.adminRaw('GET', `/webhook-endpoints/${endpointId}/deliveries?${new URLSearchParams(query)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: any[]; next_cursor: string | null };
}

/** Every attempt to an endpoint (filtered by `query`), newest first, walking all pages of the Deliveries list. */
export async function allAttempts(s: TestService, endpointId: string, query: Record<string, string> = {}): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const body = await deliveriesPage(s, endpointId, { ...query, limit: '100', ...(cursor ? { cursor } : {}) });
    items.push(...body.data);
    cursor = body.next_cursor;
  } while (cursor);
  return items;
}

/** The attempts of one event, by attempt number. */
export async function attemptsOf(s: TestService, endpointId: string, eventId: string): Promise<any[]> {
  return (await allAttempts(s, endpointId)).filter((a) => a.event_id === eventId).sort((a, b) => a.attempt_number - b.attempt_number);
}

/** An attempt that ends its chain: delivered, missed, or failed with no retry due. */
export const isFinal = (attempt: any) =>
  attempt.status === 'delivered' || attempt.status === 'missed' || (attempt.status === 'failed' && attempt.next_attempt_at === null);

/** Waits until the chain of attempts of an event has ended (delivered, or failed with no retry due). */
export async function settledAttempts(s: TestService, endpointId: string, eventId: string, timeoutMs = 10_000): Promise<any[]> {
  return eventually(
    `the attempts of event ${eventId} to settle`,
    async () => {
      const attempts = await attemptsOf(s, endpointId, eventId);
      const last = attempts[attempts.length - 1];
      return last && isFinal(last) ? attempts : null;
    },
    timeoutMs,
  );
}

/** Polls the first page of an endpoint's Deliveries list until `done` holds for it; fails showing the list. */
export async function waitForAttempts(s: TestService, endpointId: string, done: (attempts: any[]) => boolean, timeoutMs = 10_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const attempts: any[] = await s.admin('GET', `/webhook-endpoints/${endpointId}/deliveries`);
    if (done(attempts)) return attempts;
    if (Date.now() > deadline) throw new Error(`deliveries did not reach the expected state: ${JSON.stringify(attempts, null, 2)}`);
    await sleep(50);
  }
}

// --- what a receiver got ---------------------------------------------------------------------------

/** The event id in a delivered body. */
export const eventIdOf = (request: Received) => JSON.parse(request.body).id as string;

/** The requests of one event type (X-Service-Event) a receiver got. */
export const requestsOfType = (receiver: Receiver, type: string) => receiver.received.filter((request) => request.headers['x-service-event'] === type);

/** The requests of one event a receiver got. */
export const requestsForEvent = (receiver: Receiver, eventId: string) => receiver.received.filter((request) => eventIdOf(request) === eventId);

/** A request a receiver got, with its body as it came (`raw`) and parsed. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
}

export function parseDeliveries(received: Received[]): Delivery[] {
  return received.map((entry) => ({ headers: entry.headers, raw: entry.body, body: JSON.parse(entry.body) }));
}

/** Waits for `count` deliveries and returns them parsed. */
export async function deliveries(receiver: Receiver, count: number): Promise<Delivery[]> {
  return parseDeliveries(await receiver.waitFor(count));
}

/** The event type of each delivery. */
export function eventTypes(list: Delivery[]): string[] {
  return list.map((delivery) => delivery.body.type);
}

// --- the data of guide events ----------------------------------------------------------------------

/** `data.guide` of guide events (spec §6.3) for the guide as the management API answers it, its url under `appUrl`. */
export function guideSummary(guide: any, appUrl: string) {
  return {
    id: guide.id,
    title: guide.title,
    description: guide.description,
    permalink: guide.permalink,
    updated_at: guide.updated_at,
    team_id: guide.team_id,
    folder_id: guide.folder_id,
    language: guide.language,
    url: `${appUrl}/guides/${guide.id}`,
  };
}

/** `data` of guide.created/updated/ready/failed (spec §6.3) for the guide as the management API answers it. */
export function guideData(guide: any, appUrl: string, changed: string[] = []) {
  return {
    guide: guideSummary(guide, appUrl),
    placement: { team_guides: guide.publish_status === 'PUBLISHED', public_link: guide.is_public },
    changed,
  };
}

// Test events (issue 35): POST /admin/v1/webhook-endpoints/{id}/ping with `event_type` sends that endpoint
// alone an event of that type, whether or not it picked it, with data of the type's shape built from a
// sample named as a test; the event is never in the events feed; a paused endpoint keeps it as missed,
// like any event; without a body it is still a ping. Test events, pings included, carry
// `X-Service-Test: true` on every attempt and `"test": true` in the Deliveries list; real events never do
// (shared decisions §11, issue 42 item 6).
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIBABLE_EVENTS } from '../../src/domain/events.js';
import { expectInvalid } from '../http/admin/helpers.js';
import { feedPage } from '../http/v1/events-feed-support.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { allAttempts, requestsForEvent, requestsOfType, settledAttempts, useWebhookFixtures } from '../support/webhooks.js';

const BASE_ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_RETRY_DELAYS: '50ms', WEBHOOK_TIMEOUT_MS: '1000' };
const t = useTestService(BASE_ENV);
const { receiver } = useWebhookFixtures(t, BASE_ENV);

let webhooks: Record<string, any>;
let components: Record<string, any>;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
beforeAll(async () => {
  ({ webhooks, components } = (await t.service.app.inject({ url: '/v1/openapi.json' })).json());
});

/** A team with a key, and an endpoint of it that picked only guide.deleted, its ping delivered. */
async function endpointOfTeam() {
  const { team, key } = await soloTeam(t);
  const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.deleted'] });
  await eventually('the ping', () => requestsOfType(receiver, 'ping')[0]);
  return { team, key, endpoint };
}

describe('POST /webhook-endpoints/{id}/ping with event_type (issue 35)', () => {
  it('sends a test event of every type, picked or not, whose body fits the type\'s schema and names itself a test', async () => {
    const { team, endpoint } = await endpointOfTeam();
    for (const type of SUBSCRIBABLE_EVENTS) {
      const answer = await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/ping`, { event_type: type });
      expect(answer.statusCode, type).toBe(202);
      const request = await eventually(`the test ${type}`, () => requestsOfType(receiver, type)[0]);
      const body = JSON.parse(request.body);
      expect(body).toMatchObject({ type, team_id: team.id, organization_id: null });
      // The body's schema names shared parts as #/components/…, which resolve against the document.
      const schema = { ...webhooks[type].post.requestBody.content['application/json'].schema, components };
      expect(ajv.validate(schema, body), `${type}: ${ajv.errorsText()}`).toBe(true);
      const named = body.data.guide?.title ?? body.data.member?.name ?? null;
      // guide.deleted carries only ids (spec §6.4): a new one, which names no guide.
      if (type !== 'guide.deleted') expect(named, type).toMatch(/^Test event: a sample /);
    }
    // The Deliveries list shows each under its type.
    const types = (await allAttempts(t, endpoint.id)).map((attempt: any) => attempt.event_type);
    expect(new Set(types)).toEqual(new Set(['ping', ...SUBSCRIBABLE_EVENTS]));
  });

  it('keeps a test event out of the events feed, which still has what happened', async () => {
    const { team, key, endpoint } = await endpointOfTeam();
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/ping`, { event_type: 'guide.created' });
    await eventually('the test guide.created', () => requestsOfType(receiver, 'guide.created')[0]);
    const guide = await createGuide(t, team.id, { title: 'Really created' });
    // The feed shows an event once no transaction that began before it is still open (on PostgreSQL a
    // worker's may be): wait for the real one, then see that it is alone.
    const feed = await eventually('the real guide.created in the feed', async () => {
      const page = await feedPage(t, key, '?types=guide.created');
      return page.data.length > 0 ? page : undefined;
    });
    expect(feed.data.map((event: any) => event.data.guide.id)).toEqual([guide.id]);
  });

  it('keeps a test event or a ping as missed while the endpoint is paused: nothing is sent', async () => {
    const { endpoint } = await endpointOfTeam();
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/pause`);
    expect((await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/ping`, { event_type: 'member.joined' })).statusCode).toBe(202);
    expect((await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/ping`)).statusCode).toBe(202);
    const attempts = await allAttempts(t, endpoint.id);
    expect(attempts.filter((a: any) => a.status === 'missed').map((a: any) => a.event_type).sort()).toEqual(['member.joined', 'ping']);
    expect(requestsOfType(receiver, 'member.joined')).toEqual([]);
    expect(requestsOfType(receiver, 'ping')).toHaveLength(1);
  });

  it('sends a ping without a body, or with event_type ping, and refuses a type that does not exist', async () => {
    const { endpoint } = await endpointOfTeam();
    expect((await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/ping`)).statusCode).toBe(202);
    expect((await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/ping`, { event_type: 'ping' })).statusCode).toBe(202);
    const pings = await eventually('three pings', () => (requestsOfType(receiver, 'ping').length === 3 ? requestsOfType(receiver, 'ping') : undefined));
    expect(pings.map((ping) => JSON.parse(ping.body).data.message)).toEqual(Array(3).fill(expect.stringMatching(/^Ping from the guide service/)));
    expectInvalid(await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/ping`, { event_type: 'guide.exploded' }), 'event_type');
  });
});

describe('test events are marked (shared decisions §11)', () => {
  const ENVELOPE = ['created_at', 'data', 'id', 'organization_id', 'team_id', 'type'];

  it('a ping and a test event of any type carry X-Service-Test: true on every attempt, a retry included; a real event never does, and every body stays the envelope', async () => {
    const { team, endpoint } = await endpointOfTeam();
    // The test event's first attempt fails: its retry carries the header too.
    let testAttempts = 0;
    receiver.answer = (request) => (request.headers['x-service-event'] === 'member.left' && ++testAttempts === 1 ? { status: 500 } : { status: 200 });
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/ping`, { event_type: 'member.left' });
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/ping`);
    await t.admin('PATCH', `/webhook-endpoints/${endpoint.id}`, { events: ['guide.created'] });
    await createGuide(t, team.id);
    const tests = await eventually('both attempts of the test event, two pings and the real guide.created', () =>
      requestsOfType(receiver, 'member.left').length === 2 && requestsOfType(receiver, 'ping').length === 2 && requestsOfType(receiver, 'guide.created')[0]
        ? [...requestsOfType(receiver, 'member.left'), ...requestsOfType(receiver, 'ping')]
        : undefined,
    );
    for (const request of tests) expect(request.headers['x-service-test'], request.headers['x-service-event'] as string).toBe('true');
    const [real] = requestsOfType(receiver, 'guide.created');
    expect(real!.headers).not.toHaveProperty('x-service-test');
    for (const request of [...tests, real!]) expect(Object.keys(JSON.parse(request.body)).sort()).toEqual(ENVELOPE);
    expect(requestsForEvent(receiver, JSON.parse(tests[0]!.body).id)).toHaveLength(2);
  });

  it('the Deliveries list marks the attempts of test events with "test": true, and of real events with false', async () => {
    const { team, endpoint } = await endpointOfTeam();
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/ping`, { event_type: 'guide.updated' });
    const guide = await createGuide(t, team.id);
    await t.admin('DELETE', `/guides/${guide.id}`);
    const deleted = await eventually('the real guide.deleted', async () => (await allAttempts(t, endpoint.id)).find((a: any) => a.event_type === 'guide.deleted'));
    await settledAttempts(t, endpoint.id, deleted.event_id);
    const attempts = await allAttempts(t, endpoint.id);
    expect(attempts.map((a: any) => [a.event_type, a.test])).toEqual([
      ['guide.deleted', false],
      ['guide.updated', true],
      ['ping', true],
    ]);
    // Its recorded request headers say so too.
    expect(attempts.find((a: any) => a.event_type === 'guide.updated').request_headers).toMatchObject({ 'x-service-test': 'true' });
    expect(deleted.request_headers ?? {}).not.toHaveProperty('x-service-test');
  });
});

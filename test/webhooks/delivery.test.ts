// Deliveries to a real receiver (spec §6.1, §5 rule 8; decisions §6): method, headers, signature over
// the exact body bytes, one delivery id per attempt, the same body for every attempt.
import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { createGuide, soloTeam, useTestService } from '../support/service.js';
import { endpointWithKey, QUICK_DELIVERY_ENV, useSharedReceiver } from '../support/webhooks.js';

const t = useTestService(QUICK_DELIVERY_ENV);
const receiver = useSharedReceiver();

const endpointFor = (teamId: string, events = ['guide.created', 'guide.updated', 'guide.deleted']) =>
  endpointWithKey(t, { type: 'team', id: teamId }, receiver.url, events);

describe('delivery', () => {
  it('a new endpoint gets a signed ping, verifiable over the raw body (spec §6.6, §5 rule 8)', async () => {
    const { team } = await soloTeam(t);
    const { endpoint, signingKey } = await endpointFor(team.id);
    const [ping] = await receiver.waitFor(1);
    expect(ping!.headers['content-type']).toBe('application/json');
    expect(ping!.headers['user-agent']).toBe('Service-Webhooks/1');
    expect(ping!.headers['x-service-event']).toBe('ping');
    expect(ping!.headers['x-service-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await verify(signingKey, ping!.body, String(ping!.headers['x-service-signature']))).toBe(true);
    const body = JSON.parse(ping!.body);
    expect(Object.keys(body)).toEqual(['id', 'created_at', 'team_id', 'organization_id', 'type', 'data']);
    expect(body).toMatchObject({ type: 'ping', team_id: team.id, organization_id: null });
    expect(Object.keys(body.data)).toEqual(['message']);
    expect(endpoint.status).toBe('active');
  });

  it('a failed attempt is retried with the same body bytes and a new delivery id', async () => {
    const { team } = await soloTeam(t);
    await endpointFor(team.id);
    await receiver.waitFor(1);
    receiver.answer = (request) => (receiver.received.indexOf(request) < 3 ? { status: 500 } : { status: 200 });
    await createGuide(t, team.id);
    const attempts = (await receiver.waitFor(4)).slice(1);
    expect(attempts.map((a) => a.headers['x-service-event'])).toEqual(['guide.created', 'guide.created', 'guide.created']);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-service-delivery'])).size).toBe(3);
  });
});

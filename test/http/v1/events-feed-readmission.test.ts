// Waiting requests are admitted again (decisions §10): a request held open by `/v1/events?wait=` whose key
// is revoked or expires, or whose organization switches API access off or allows organization keys only,
// ends with exactly the refusal a new request would get, at its next wake and within a second or so when
// nothing wakes it, and never answers an event written after the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../admin/helpers.js';
import { createGuide, createKey, organizationWithTeams, soloTeam, startTestService, type TestService } from '../../support/service.js';
import { eventually } from '../../support/waiting.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ WEBHOOK_COALESCE_MS: '0', RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(() => t?.close());

/** A request waiting on the feed after everything `key` can read so far, once it waits; `answer` is its answer. */
async function waitingRequest(key: string) {
  const cursor = (await t.get('/v1/events', key)).json().next_cursor;
  const query = cursor === null ? '' : `&after=${encodeURIComponent(cursor)}`;
  const before = t.service.ctx.eventFeed!.waiting;
  const answer = t.get(`/v1/events?wait=20${query}`, key);
  await eventually('the request to wait', () => t.service.ctx.eventFeed!.waiting > before);
  return { answer };
}

describe('a waiting request ends with the answer a new request would get', () => {
  it('its key revoked, then a guide created: 401 invalid_key, and the guide is not answered', async () => {
    const { team, keyId, key } = await soloTeam(t);
    await createGuide(t, team.id, { title: 'Before' });
    const waiting = (await waitingRequest(key)).answer;
    await t.admin('DELETE', `/api-keys/${keyId}`);
    await createGuide(t, team.id, { title: 'After the revocation' });
    const response = await waiting;
    expectProblem(response, 401, 'invalid_key');
    expect(response.body).not.toContain('After the revocation');
    expectProblem(await t.get('/v1/events', key), 401, 'invalid_key');
  });

  it('its key revoked and nothing else happens: 401 within the next re-admission, long before the wait is over', async () => {
    const { keyId, key } = await soloTeam(t);
    const waiting = (await waitingRequest(key)).answer;
    const startedAt = Date.now();
    await t.admin('DELETE', `/api-keys/${keyId}`);
    expectProblem(await waiting, 401, 'invalid_key');
    // wait=20: answered by the re-admission (every second), not by the end of the wait.
    expect(Date.now() - startedAt).toBeLessThan(15_000);
  });

  it('its key expired while it waited: 401 key_expired', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Expiring', plan: 'free' });
    const { secret } = await createKey(t, { type: 'team', id: team.id }, { expires_in_days: 1 });
    const waiting = (await waitingRequest(secret)).answer;
    t.clock.advance(86_400_000 + 1000);
    expectProblem(await waiting, 401, 'key_expired');
  });

  it('its organization switched API access off, then a guide created: 403 api_disabled, and the guide is not answered', async () => {
    const { organization, teams, key } = await organizationWithTeams(t);
    await createGuide(t, teams[0].id, { title: 'Before' });
    const waiting = (await waitingRequest(key)).answer;
    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
    await createGuide(t, teams[0].id, { title: 'After API access was switched off' });
    const response = await waiting;
    expectProblem(response, 403, 'api_disabled');
    expect(response.body).not.toContain('After API access');
    expectProblem(await t.get('/v1/events', key), 403, 'api_disabled');
  });

  it("a team key whose organization now allows organization keys only: 403 team_keys_disabled, while the organization's key goes on waiting", async () => {
    const { organization, teams, key: organizationKey } = await organizationWithTeams(t);
    const { secret: teamKey } = await createKey(t, { type: 'team', id: teams[0].id });
    await createGuide(t, teams[0].id, { title: 'Before' });
    const teamWaiting = (await waitingRequest(teamKey)).answer;
    const organizationWaiting = (await waitingRequest(organizationKey)).answer;
    await t.admin('PATCH', `/organizations/${organization.id}`, { org_keys_only: true });
    await createGuide(t, teams[0].id, { title: 'For organization keys only' });
    const refused = await teamWaiting;
    expectProblem(refused, 403, 'team_keys_disabled');
    expect(refused.body).not.toContain('For organization keys only');
    const answered = await organizationWaiting;
    expect(answered.statusCode).toBe(200);
    expect(answered.json().data.map((event: any) => event.data.guide.title)).toEqual(['For organization keys only']);
  });
});

// Filters of the Deliveries list (issue 14, console item 7; decisions §6): by event type, by event id and by
// the time the attempts were written (`since` included, `until` not), validated and bound to their cursor.
import { describe, expect, it } from 'vitest';
import { expectInvalid, expectProblem } from '../http/admin/helpers.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { allAttempts, createEndpoint, deliveriesPage, useWebhookFixtures } from '../support/webhooks.js';

const HOUR = 3_600_000;
const BASE_ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_TIMEOUT_MS: '1000' };
const t = useTestService(BASE_ENV);
const { receiver } = useWebhookFixtures(t, BASE_ENV);

/** An endpoint with a ping, then an hour later a guide.created, then an hour later a guide.updated, all delivered. */
async function threeHoursOfEvents() {
  const { team } = await soloTeam(t);
  const endpoint = await createEndpoint(t, { type: 'team', id: team.id }, receiver.url, ['guide.created', 'guide.updated']);
  const delivered = (n: number) =>
    eventually(`${n} delivered attempts`, async () => {
      const attempts = await allAttempts(t, endpoint.id);
      return attempts.length === n && attempts.every((a) => a.status === 'delivered') ? attempts : undefined;
    });
  await delivered(1);
  t.clock.advance(HOUR);
  const createdFrom = t.clock.now().toISOString();
  const guide = await createGuide(t, team.id);
  await delivered(2);
  t.clock.advance(HOUR);
  const updatedFrom = t.clock.now().toISOString();
  await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Renamed' });
  const [updated, created, ping] = await delivered(3);
  return { endpoint, ping, created, updated, createdFrom, updatedFrom };
}

const ids = (attempts: any[]) => attempts.map((a) => a.id);

describe('GET /webhook-endpoints/{id}/deliveries filters (issue 14 item 7)', () => {
  it('filters by event type, by event id and by when the attempts were written (since included, until not)', async () => {
    const { endpoint, ping, created, updated, createdFrom, updatedFrom } = await threeHoursOfEvents();
    const list = (query: Record<string, string>) => allAttempts(t, endpoint.id, query);
    expect(ids(await list({ event_type: 'guide.created' }))).toEqual([created.id]);
    expect(ids(await list({ event_type: 'member.joined' }))).toEqual([]);
    expect(ids(await list({ event_id: ping.event_id }))).toEqual([ping.id]);
    // Ids are matched whatever their case.
    expect(ids(await list({ event_id: updated.event_id.toUpperCase() }))).toEqual([updated.id]);
    // The short id the console shows (its first 8 characters) finds the event too, as does any longer start.
    expect(ids(await list({ event_id: created.event_id.slice(0, 8) }))).toEqual([created.id]);
    expect(ids(await list({ event_id: created.event_id.slice(0, 13).toUpperCase() }))).toEqual([created.id]);
    // A start that no event of this endpoint has finds nothing, whatever other endpoints' events start with.
    const absent = [...'0123456789abcdef'].map((digit) => digit.repeat(8)).find((start) => ![ping, created, updated].some((a) => a.event_id.startsWith(start)))!;
    expect(ids(await list({ event_id: absent }))).toEqual([]);
    expect(ids(await list({ since: createdFrom }))).toEqual([updated.id, created.id]);
    expect(ids(await list({ until: createdFrom }))).toEqual([ping.id]);
    expect(ids(await list({ since: createdFrom, until: updatedFrom }))).toEqual([created.id]);
    expect(ids(await list({ since: created.created_at }))).toEqual([updated.id, created.id]);
    expect(ids(await list({ until: created.created_at }))).toEqual([ping.id]);
    // A time with an offset is the same instant.
    const local = new Date(Date.parse(createdFrom) + HOUR).toISOString().replace('Z', '+01:00');
    expect(ids(await list({ since: local }))).toEqual([updated.id, created.id]);
    expect(ids(await list({ since: createdFrom, event_type: 'guide.updated', status: 'delivered' }))).toEqual([updated.id]);
  });

  it('pages within the filters, and refuses a cursor with other filters', async () => {
    const { endpoint, created, updated, createdFrom } = await threeHoursOfEvents();
    const first = await deliveriesPage(t, endpoint.id, { since: createdFrom, limit: '1' });
    expect(ids(first.data)).toEqual([updated.id]);
    const second = await deliveriesPage(t, endpoint.id, { since: createdFrom, limit: '1', cursor: first.next_cursor! });
    expect(ids(second.data)).toEqual([created.id]);
    expect(second.next_cursor).toBeNull();
    const other = await t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/deliveries?${new URLSearchParams({ limit: '1', cursor: first.next_cursor! })}`);
    expectProblem(other, 400, 'invalid_request');
  });

  it('refuses a filter it cannot use, naming it: an unknown event type, an event id that is neither a UUID nor its first 8 or more characters, a time that is not RFC 3339, until not after since', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await createEndpoint(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    const get = (query: Record<string, string>) => t.adminRaw('GET', `/webhook-endpoints/${endpoint.id}/deliveries?${new URLSearchParams(query)}`);
    expectInvalid(await get({ event_type: 'guide.exploded' }), 'event_type');
    expectInvalid(await get({ event_id: 'not-a-uuid' }), 'event_id');
    expectInvalid(await get({ event_id: 'abc1234' }), 'event_id');
    // LIKE's wildcards are not hex digits: a start cannot match every event.
    expectInvalid(await get({ event_id: '%%%%%%%%' }), 'event_id');
    expectInvalid(await get({ event_id: 'abcd1234_' }), 'event_id');
    expectInvalid(await get({ since: 'yesterday' }), 'since');
    expectInvalid(await get({ until: '2026-11-25 10:00' }), 'until');
    const at = '2026-11-25T10:00:00.000Z';
    expectInvalid(await get({ since: at, until: at }), 'until');
    expectInvalid(await get({ since: '2026-11-25T11:00:00Z', until: '2026-11-25T11:30:00+01:00' }), 'until');
  });
});

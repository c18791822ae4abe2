// An endpoint's health (issue 14, console item 6; decisions §6): GET /webhook-endpoints/{id}/health answers
// its last sent attempt, what was delivered and failed in the current hour and the 23 before it (hour by
// hour), how many of the events they carried were delivered (the success rate), its failures since the
// last delivery and its next retry, with the endpoint's rights.
import { describe, expect, it } from 'vitest';
import { asSession, signIn } from '../console/sessions.js';
import { createUser, expectNotFound, expectProblem, UNKNOWN_ID } from '../http/admin/helpers.js';
import { createGuide, soloTeam, type TestService, useTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { allAttempts, attemptsOf, createEndpoint, settledAttempts, useWebhookFixtures } from '../support/webhooks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BASE_ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_TIMEOUT_MS: '1000' };
// Retries an hour apart, and no pause for a week: the clock is moved by hours below.
const t = useTestService({ ...BASE_ENV, WEBHOOK_RETRY_DELAYS: '1h,1h', WEBHOOK_PAUSE_AFTER_MS: String(7 * DAY) });
const { receiver } = useWebhookFixtures(t, BASE_ENV);

async function health(s: TestService, endpointId: string): Promise<any> {
  return s.admin('GET', `/webhook-endpoints/${endpointId}/health`);
}

/** The hour (as the health answer starts it) an attempt was sent in. */
const hourOf = (sentAt: string) => `${sentAt.slice(0, 13)}:00:00.000Z`;

/** The hours of a health answer that had attempts, as { start: [delivered, failed] }. */
function busyHours(answer: any): Record<string, [number, number]> {
  return Object.fromEntries(answer.hours.filter((h: any) => h.delivered + h.failed > 0).map((h: any) => [h.start, [h.delivered, h.failed]]));
}

/** Waits for the `n`-th attempt of an event to have been sent and recorded. */
async function sentAttempt(s: TestService, endpointId: string, eventId: string, n: number): Promise<any> {
  return eventually(`attempt ${n} of ${eventId} to be recorded`, async () => {
    const attempt = (await attemptsOf(s, endpointId, eventId))[n - 1];
    return attempt && (attempt.status === 'delivered' || attempt.status === 'failed') ? attempt : undefined;
  });
}

describe('GET /webhook-endpoints/{id}/health (issue 14 item 6)', () => {
  it('answers the last attempt, the 24 hourly buckets, the success rate, the failures in a row and the next retry, and slides with the clock', async () => {
    const { team } = await soloTeam(t);
    receiver.answer = { status: 200 };
    const endpoint = await createEndpoint(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    const pingEventId = await eventually('the ping', async () => (await allAttempts(t, endpoint.id)).find((a) => a.event_type === 'ping')?.event_id);
    const [ping] = await settledAttempts(t, endpoint.id, pingEventId);

    const fresh = await health(t, endpoint.id);
    expect(fresh.hours).toHaveLength(24);
    expect(fresh.since).toBe(fresh.hours[0].start);
    expect(Date.parse(fresh.hours[23].start)).toBe(Date.parse(fresh.since) + 23 * HOUR);
    expect(fresh).toMatchObject({
      endpoint_id: endpoint.id,
      last_attempt: { status: 'delivered', sent_at: ping.sent_at },
      delivered: 1,
      failed: 0,
      events_sent: 1,
      events_delivered: 1,
      success_rate: 1,
      consecutive_failures: 0,
      next_retry_at: null,
    });
    expect(busyHours(fresh)).toEqual({ [hourOf(ping.sent_at)]: [1, 0] });

    // Two hours later every attempt fails: one failure in a row, its retry due in about an hour.
    t.clock.advance(2 * HOUR);
    receiver.answer = { status: 500 };
    await createGuide(t, team.id);
    const eventId = await eventually('the guide.created event', async () => (await allAttempts(t, endpoint.id)).find((a) => a.event_type === 'guide.created')?.event_id);
    const first = await sentAttempt(t, endpoint.id, eventId, 1);
    expect(first.status).toBe('failed');
    const failing = await health(t, endpoint.id);
    expect(failing).toMatchObject({
      last_attempt: { status: 'failed', sent_at: first.sent_at },
      delivered: 1,
      failed: 1,
      events_sent: 2,
      events_delivered: 1,
      success_rate: 0.5,
      consecutive_failures: 1,
      next_retry_at: first.next_attempt_at,
    });
    expect(first.next_attempt_at).not.toBeNull();
    expect(busyHours(failing)).toEqual({ [hourOf(ping.sent_at)]: [1, 0], [hourOf(first.sent_at)]: [0, 1] });

    // 23 hours on, the ping has left the window; the retry failed too: two in a row.
    t.clock.advance(23 * HOUR);
    t.service.ctx.outbox.wake();
    const second = await sentAttempt(t, endpoint.id, eventId, 2);
    expect(second.status).toBe('failed');
    const later = await health(t, endpoint.id);
    expect(later).toMatchObject({
      last_attempt: { status: 'failed', sent_at: second.sent_at },
      delivered: 0,
      failed: 2,
      events_sent: 1,
      events_delivered: 0,
      success_rate: 0,
      consecutive_failures: 2,
      next_retry_at: second.next_attempt_at,
    });
    expect(busyHours(later)).toEqual({ [hourOf(first.sent_at)]: [0, 1], [hourOf(second.sent_at)]: [0, 1] });

    // The last retry is delivered: no failures in a row, nothing waiting; the first failure has left the window.
    // The success rate counts events: the one event in the window was delivered in the end.
    receiver.answer = { status: 200 };
    t.clock.advance(HOUR + MINUTE);
    t.service.ctx.outbox.wake();
    const third = await sentAttempt(t, endpoint.id, eventId, 3);
    expect(third.status).toBe('delivered');
    const healed = await health(t, endpoint.id);
    expect(healed).toMatchObject({
      last_attempt: { status: 'delivered', sent_at: third.sent_at },
      delivered: 1,
      failed: 1,
      events_sent: 1,
      events_delivered: 1,
      success_rate: 1,
      consecutive_failures: 0,
      next_retry_at: null,
    });
    expect(busyHours(healed)).toEqual(
      hourOf(second.sent_at) === hourOf(third.sent_at) ? { [hourOf(third.sent_at)]: [1, 1] } : { [hourOf(second.sent_at)]: [0, 1], [hourOf(third.sent_at)]: [1, 0] },
    );
  });

  it('answers nothing sent yet as no last attempt and no rate', async () => {
    const { team } = await soloTeam(t);
    receiver.answer = 'hang';
    const endpoint = await createEndpoint(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    const answer = await health(t, endpoint.id);
    expect(answer).toMatchObject({ last_attempt: null, delivered: 0, failed: 0, events_sent: 0, events_delivered: 0, success_rate: null, consecutive_failures: 0, next_retry_at: null });
    expect(answer.hours.every((h: any) => h.delivered === 0 && h.failed === 0)).toBe(true);
    // Its ping is still waiting for an answer, and would be retried: delete the endpoint, and the ping with it.
    await t.admin('DELETE', `/webhook-endpoints/${endpoint.id}`);
  });

  it("is authorized like the endpoint: 404 for an unknown endpoint, 403 for a team's VIEWER, 200 for its ADMIN", async () => {
    const { team } = await soloTeam(t);
    const endpoint = await createEndpoint(t, { type: 'team', id: team.id }, receiver.url, ['guide.created']);
    expectNotFound(await t.adminRaw('GET', `/webhook-endpoints/${UNKNOWN_ID}/health`));
    const viewer = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${viewer.id}`, { role: 'VIEWER' });
    expectProblem(await asSession(t, await signIn(t, viewer.email), 'GET', `/webhook-endpoints/${endpoint.id}/health`), 403, 'forbidden');
    const admin = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${admin.id}`, { role: 'ADMIN' });
    const response = await asSession(t, await signIn(t, admin.email), 'GET', `/webhook-endpoints/${endpoint.id}/health`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.endpoint_id).toBe(endpoint.id);
  });
});

// A delivered event is settled (shared decisions §11, issue 42 item 3): once an attempt of an event to an
// endpoint succeeds (automatic, sent again by hand, or redelivered), that event's attempts still to come
// there are cancelled, shown as `cancelled` in the Deliveries list (a status its filter takes) and never
// sent; the `failed` filter shows each event's final outcome, so an event that a later attempt delivered
// is not listed as failed. The worker sends through a scripted transport and the clock moves only when
// the test moves it, so what is checked is what was sent, never how fast.
import { describe, expect, it } from 'vitest';
import { ANSWERED_200 } from '../support/scripted-transport.js';
import { createGuide } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { advanceClock, allAttempts, guideCreatedAttempts, guideTitleOf, startedFor, useScriptedEndpoints } from '../support/webhooks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const scriptedEndpoint = useScriptedEndpoints({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_RETRY_DELAYS: '1h,1h,1h' });

const statuses = (attempts: any[]) => attempts.map((a) => [a.attempt_number, a.status]);

describe('a delivered event is settled (shared decisions §11)', () => {
  it('resend then retry time passes → exactly one successful delivery: the pending retry is cancelled and never sent', async () => {
    let failing = true;
    const { s, transport, team, endpoint } = await scriptedEndpoint((delivery) => (guideTitleOf(delivery) !== null && failing ? { status: 500 } : { status: 200 }));
    const guide = await createGuide(s, team.id);
    const failed = await guideCreatedAttempts(s, endpoint.id, guide.id, (attempts) => attempts.length === 2);
    expect(statuses(failed.attempts)).toEqual([
      [1, 'failed'],
      [2, 'scheduled'],
    ]);

    failing = false;
    const resend = await s.adminRaw('POST', `/deliveries/${failed.attempts[0].id}/resend`);
    expect(resend.statusCode, resend.body).toBe(202);
    const { attempts } = await guideCreatedAttempts(s, endpoint.id, guide.id, (list) => list[2]?.status === 'delivered' && list[1]?.status !== 'scheduled');
    expect(statuses(attempts)).toEqual([
      [1, 'failed'],
      [2, 'cancelled'],
      [3, 'delivered'],
    ]);
    const cancelled = attempts[1];
    expect(cancelled).toMatchObject({ sent_at: null, request_headers: null, response_status: null, duration_ms: null });

    // The retry's time passes: nothing more goes out for the event, while a later event still does.
    advanceClock(s, HOUR + MINUTE);
    const later = await createGuide(s, team.id);
    await guideCreatedAttempts(s, endpoint.id, later.id, (list) => list[0]?.status === 'delivered');
    const sent = startedFor(transport, failed.eventId);
    expect(sent).toEqual([attempts[0].id, attempts[2].id]);
    expect(sent.filter((id) => id !== attempts[0].id)).toHaveLength(1); // one success
    expect(sent).not.toContain(cancelled.id);

    // The status filter takes `cancelled`; no retry waits for the endpoint, and its queue waits for nothing.
    expect((await allAttempts(s, endpoint.id, { status: 'cancelled' })).map((a) => a.id)).toEqual([cancelled.id]);
    expect((await s.admin('GET', `/webhook-endpoints/${endpoint.id}/health`)).next_retry_at).toBeNull();
    const queue = await s.service.ctx.db.selectFrom('webhook_queues').select(['ready_at', 'claim_token']).where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(queue).toEqual({ ready_at: null, claim_token: null });
  });

  it('an automatic retry that succeeds cancels a resend waiting behind it in the same batch: the batch never sends a second attempt of an event it delivered', async () => {
    const { s, transport, team, endpoint } = await scriptedEndpoint((delivery) => {
      const title = guideTitleOf(delivery);
      if (title === 'fails once') return transport.started.filter((started) => started.body === delivery.body).length === 1 ? { status: 500 } : { status: 200 };
      return title === 'hangs' ? 'hang' : { status: 200 };
    });
    // The event fails once; its retry is due in an hour. A later event succeeds, so the endpoint is healthy again.
    const flaky = await createGuide(s, team.id, { title: 'fails once' });
    const failed = await guideCreatedAttempts(s, endpoint.id, flaky.id, (attempts) => attempts.length === 2);
    const fine = await createGuide(s, team.id, { title: 'fine' });
    await guideCreatedAttempts(s, endpoint.id, fine.id, (attempts) => attempts[0]?.status === 'delivered');
    advanceClock(s, HOUR - 15_000);

    // While a worker holds the endpoint's queue (a delivery hangs), the event is sent again by hand and its
    // retry falls due: both wait in the queue, the retry first.
    const hanging = await createGuide(s, team.id, { title: 'hangs' });
    await eventually('the hanging delivery', () => transport.hangingCount === 1);
    const resend = await s.adminRaw('POST', `/deliveries/${failed.attempts[0].id}/resend`);
    expect(resend.statusCode, resend.body).toBe(202);
    const resent = resend.json().data;
    advanceClock(s, 16_000);
    transport.answerHanging(ANSWERED_200);
    await guideCreatedAttempts(s, endpoint.id, hanging.id, (attempts) => attempts[0]?.status === 'delivered');

    const { attempts } = await guideCreatedAttempts(s, endpoint.id, flaky.id, (list) => list.every((a) => a.status !== 'scheduled' && a.status !== 'sending'));
    expect(statuses(attempts)).toEqual([
      [1, 'failed'],
      [2, 'delivered'],
      [3, 'cancelled'],
    ]);
    expect(attempts[2].id).toBe(resent.id);
    expect(startedFor(transport, failed.eventId)).toEqual([attempts[0].id, attempts[1].id]);
  });

  it('the failed filter shows each event\'s final outcome: an event a later attempt delivered is not listed, a failure after a delivery is', async () => {
    const failOn = new Set<string>();
    const { s, team, endpoint } = await scriptedEndpoint((delivery) => {
      const title = guideTitleOf(delivery);
      return title !== null && failOn.has(title) ? { status: 500 } : { status: 200 };
    });
    const deliveredLater = async (title: string) => {
      failOn.add(title);
      const guide = await createGuide(s, team.id, { title });
      return guideCreatedAttempts(s, endpoint.id, guide.id, (attempts) => attempts.length === 2);
    };
    // Failed, then sent again by hand and delivered: not a failure any more.
    const recovered = await deliveredLater('recovered');
    failOn.delete('recovered');
    await s.admin('POST', `/deliveries/${recovered.attempts[0].id}/resend`);
    const recoveredAttempts = await guideCreatedAttempts(s, endpoint.id, JSON.parse(recovered.attempts[0].request_body).data.guide.id, (list) => list[2]?.status === 'delivered');
    // Failed, its retry still to come: listed.
    const pending = await deliveredLater('still failing');
    // Delivered, then sent again by hand and that failed: the failure after the delivery is listed.
    const guide = await createGuide(s, team.id, { title: 'delivered first' });
    const deliveredFirst = await guideCreatedAttempts(s, endpoint.id, guide.id, (list) => list[0]?.status === 'delivered');
    failOn.add('delivered first');
    const resentAfter = (await s.admin('POST', `/deliveries/${deliveredFirst.attempts[0].id}/resend`)) as any;
    await guideCreatedAttempts(s, endpoint.id, guide.id, (list) => list[1]?.status === 'failed');

    const failed = await allAttempts(s, endpoint.id, { status: 'failed' });
    expect(failed.map((a) => a.id)).toEqual([resentAfter.id, pending.attempts[0].id]);
    expect(failed.map((a) => a.event_id)).not.toContain(recoveredAttempts.eventId);
    // The attempt itself still reads failed in the whole list.
    expect((await allAttempts(s, endpoint.id)).find((a) => a.id === recovered.attempts[0].id)?.status).toBe('failed');
  });
});

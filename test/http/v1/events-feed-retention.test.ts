// Retention of the events feed (issue 17, docs/decisions.md "Events feed"): events are kept
// EVENTS_RETENTION_DAYS; a cursor from before what is still kept is 400 cursor_expired, never a silent
// skip; what a paused endpoint still has to redeliver stays in the outbox (not in the feed). The clock is
// the service's injected one, moved by days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneOldDeliveries } from '../../../src/webhooks/pruning.js';
import { expectProblem } from '../admin/helpers.js';
import { feedPage } from './events-feed-support.js';
import { ScriptedTransport } from '../../support/scripted-transport.js';
import { createGuide, soloTeam, startTestService, type TestService } from '../../support/service.js';
import { eventually } from '../../support/waiting.js';
import { allAttempts } from '../../support/webhooks.js';

const DAY_MS = 86_400_000;
const transport = new ScriptedTransport();
let t: TestService;

beforeAll(async () => {
  t = await startTestService(
    { WEBHOOK_COALESCE_MS: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_MINUTE: '100000', EVENTS_RETENTION_DAYS: '7' },
    { transport },
  );
});
afterAll(() => t?.close());

const feed = (key: string, query = '') => feedPage(t, key, query);

const guideIds = (page: { data: any[] }) => page.data.map((event) => event.data.guide.id);

describe('retention', () => {
  it('refuses a cursor from before what is kept with cursor_expired, and a client that starts again gets the oldest kept', async () => {
    const { team, key } = await soloTeam(t);
    const old = [await createGuide(t, team.id), await createGuide(t, team.id)];
    const atFirst = (await feed(key, '?limit=1')).next_cursor!;
    const atLast = (await feed(key)).next_cursor!;

    t.clock.advance(31 * DAY_MS);
    const fresh = await createGuide(t, team.id);
    await pruneOldDeliveries(t.service.ctx, 30 * DAY_MS);

    // The second old event is gone and came after this cursor: the client may have missed it.
    const expired = expectProblem(await t.get(`/v1/events?after=${atFirst}`, key), 400, 'cursor_expired');
    expect(expired.detail).toContain("without 'after'");
    // Nothing after this one was lost, even though its own event is gone: the feed goes on from there.
    expect(guideIds(await feed(key, `?after=${atLast}`))).toEqual([fresh.id]);
    // Starting again: the oldest event kept.
    expect(guideIds(await feed(key))).toEqual([fresh.id]);
    expect(old).toHaveLength(2);
  });

  it('keeps the events a paused endpoint still has to redeliver in the outbox, out of the feed, and redelivers them on resume', async () => {
    const { team, key } = await soloTeam(t);
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/paused', events: ['guide.created'] });
    // Its ping delivered first: a ping that the pause caught would be an event to redeliver as well.
    await eventually('the ping delivered', async () => (await allAttempts(t, endpoint.id)).some((attempt) => attempt.status === 'delivered'));
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/pause`);
    const missed = await createGuide(t, team.id);
    const cursor = (await feed(key)).next_cursor!;

    t.clock.advance(31 * DAY_MS);
    await pruneOldDeliveries(t.service.ctx, 30 * DAY_MS);
    // Out of the feed: from the start there is nothing, and the cursor at it lost nothing after it.
    expect(await feed(key)).toEqual({ data: [], next_cursor: null });
    expect(await feed(key, `?after=${cursor}`)).toEqual({ data: [], next_cursor: cursor });
    const stored = await t.service.ctx.db.selectFrom('events').select('id').where('team_id', '=', team.id).execute();
    expect(stored).toHaveLength(1);

    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: true });
    const redelivered = await eventually('the redelivery', () => transport.started.find((started) => started.path === '/paused' && started.event === 'guide.created'));
    expect(JSON.parse(redelivered.body).data.guide.id).toBe(missed.id);
  });

  it('prunes after EVENTS_RETENTION_DAYS in the upkeep loop', async () => {
    const { team, key } = await soloTeam(t);
    await createGuide(t, team.id);
    const second = await createGuide(t, team.id);
    const cursor = (await feed(key, '?limit=1')).next_cursor!;
    t.clock.advance(6 * DAY_MS);
    const kept = await createGuide(t, team.id);
    expect(guideIds(await feed(key, `?after=${cursor}`))).toEqual([second.id, kept.id]);
    t.clock.advance(2 * DAY_MS);
    const last = await createGuide(t, team.id);
    // The upkeep sleeps through commits that leave it nothing to do; told to look, its once-a-minute
    // pruning runs on the moved clock.
    t.service.ctx.outbox.wake();
    await eventually('the 8-day-old event pruned', async () => (await t.get(`/v1/events?after=${cursor}`, key)).statusCode === 400);
    expect(guideIds(await feed(key))).toEqual([kept.id, last.id]);
  });
});

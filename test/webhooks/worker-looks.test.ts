// What a woken worker asks the store (docs/decisions.md "The delivery scheduler", Wake-ups): it looks
// before it claims, since a claim is a write even when it takes nothing and most wake-ups under a steady
// stream find nothing ready; and a busy endpoint's batch lingers and reads on instead of a claim per
// event; and a wave of failing endpoints' probes is claimed a group at a time, not a claim per probe.
// The worker here runs beside a ROLE=api service, on a store whose statements the test counts.
import { ColumnNode, RawNode, UpdateQueryNode } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/webhooks/worker.js';
import { QueryCounter } from '../support/query-counter.js';
import { ANSWERED_200, ScriptedTransport } from '../support/scripted-transport.js';
import { soloTeam, useTestService } from '../support/service.js';
import { startWorker } from '../support/test-worker.js';
import { eventually } from '../support/waiting.js';

const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });

/** Claims: the updates that write a queue's claim token. */
const claims = () => new QueryCounter((node) => UpdateQueryNode.is(node) && (node.updates ?? []).some((update) => ColumnNode.is(update.column) && update.column.column.name === 'claim_token'));
/** Looks: the next-ready read, `SELECT (…) AS healthy, (…) AS failing`. */
const looks = () => new QueryCounter((node) => RawNode.is(node) && node.sqlFragments.join('|').includes(' AS healthy, |'));

let worker: DeliveryWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

/** A team of its own whose endpoint at /hook gets guide.created; the worker is woken for its ping. */
async function endpointWithPing(transport: ScriptedTransport) {
  const { team } = await soloTeam(t);
  await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
  worker!.wake();
  await transport.waitForStarts('/hook', 1);
  await eventually('the ping recorded and its queue let go', () => Object.values(worker!.inFlight).every((n) => n === 0));
  return team;
}

/** Writes a guide, as the API would, and wakes the worker, as its commit would. */
async function newGuide(teamId: string, title: string): Promise<void> {
  await t.admin('POST', '/guides', { team_id: teamId, title });
  worker!.wake();
}

describe('a woken worker looks before it claims', () => {
  it('wake-ups that find no queue ready run no claim; one that finds work claims it', async () => {
    const claimed = claims();
    const looked = looks();
    const transport = new ScriptedTransport();
    worker = startWorker({ ...t.service.ctx, db: t.service.ctx.db.withPlugin(claimed).withPlugin(looked) }, transport);
    const team = await endpointWithPing(transport); // the ping, taken by a claim
    const claimsSoFar = claimed.count;
    expect(claimsSoFar).toBeGreaterThan(0);

    for (let i = 0; i < 5; i++) {
      const looksBefore = looked.count;
      worker.wake();
      await eventually('the worker to look again', () => looked.count > looksBefore);
    }
    expect(claimed.count).toBe(claimsSoFar);

    await newGuide(team.id, 'Work at last');
    await transport.waitForStarts('/hook', 2);
    expect(claimed.count).toBeGreaterThan(claimsSoFar);
  });
});

describe('a busy endpoint\'s batch lingers and reads on', () => {
  // The worker's clock stands still an hour ahead: everything written is due, and no batch reaches the
  // end of its hold (HOLD_AT_MOST) by time, so only lingerMs (real time) ends a linger.
  const aheadAndStill = () => {
    const at = new Date(Date.now() + 3_600_000);
    return { now: () => at };
  };

  it('an endpoint claimed again right after it was let go holds its queue: its next events go out in order without a claim each', async () => {
    const claimed = claims();
    const transport = new ScriptedTransport();
    worker = startWorker({ ...t.service.ctx, clock: aheadAndStill(), db: t.service.ctx.db.withPlugin(claimed) }, transport, { lingerMs: 60_000 });
    const team = await endpointWithPing(transport); // claimed, sent and let go: not busy before
    const claimsAfterPing = claimed.count;

    await newGuide(team.id, 'Guide 1'); // claimed within lingerMs of the ping's release: busy
    await transport.waitForStarts('/hook', 2);
    await eventually('the batch to linger, holding the queue', () => worker!.inFlight.lingering === 1);
    for (let i = 2; i <= 5; i++) {
      await newGuide(team.id, `Guide ${i}`);
      await transport.waitForStarts('/hook', i + 1);
    }
    const titles = transport.startedOn('/hook').slice(1).map((started) => (JSON.parse(started.body) as { data: { guide: { title: string } } }).data.guide.title);
    expect(titles).toEqual(['Guide 1', 'Guide 2', 'Guide 3', 'Guide 4', 'Guide 5']);
    expect(claimed.count).toBe(claimsAfterPing + 1);
  });

  it('a lingering batch lets its queue go after lingerMs, and the next event is claimed anew', async () => {
    const claimed = claims();
    const transport = new ScriptedTransport();
    worker = startWorker({ ...t.service.ctx, clock: aheadAndStill(), db: t.service.ctx.db.withPlugin(claimed) }, transport, { lingerMs: 300 });
    const team = await endpointWithPing(transport);
    await newGuide(team.id, 'Guide 1');
    await transport.waitForStarts('/hook', 2);
    // Lingering or already let go, depending on how long the write took; in the end let go.
    await eventually('the queue let go once lingerMs passed', () => Object.values(worker!.inFlight).every((n) => n === 0));
    const claimsBefore = claimed.count;
    await new Promise((resolve) => setTimeout(resolve, 300)); // past lingerMs since the release: not busy
    await newGuide(team.id, 'Guide 2');
    await transport.waitForStarts('/hook', 3);
    expect(claimed.count).toBe(claimsBefore + 1);
  });

  it('a lingering batch that finds more work while the healthy lane is full lets its queue go, and its event waits for a place', async () => {
    const transport = new ScriptedTransport();
    worker = startWorker({ ...t.service.ctx, clock: aheadAndStill() }, transport, { healthy: 1, failingPerSecond: 100, lingerMs: 60_000, slowAfterMs: 60_000 });
    const busy = await endpointWithPing(transport);
    await newGuide(busy.id, 'Guide 1');
    await transport.waitForStarts('/hook', 2);
    await eventually('the batch to linger, in no lane', () => worker!.inFlight.lingering === 1 && worker!.inFlight.healthy === 0);

    // Another endpoint, proven by its ping, whose next delivery hangs: it takes the one healthy place.
    const { team: other } = await soloTeam(t);
    await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: other.id }, url: 'http://127.0.0.1:9/slow', events: ['guide.created'] });
    worker.wake();
    await transport.waitForStarts('/slow', 1);
    await eventually('the ping recorded', () => worker!.inFlight.failing === 0);
    transport.reply = (path) => (path === '/slow' ? 'hang' : { status: 200 });
    await newGuide(other.id, 'Slow 1');
    await transport.waitForStarts('/slow', 2);
    expect(worker.inFlight.healthy).toBe(1);

    await newGuide(busy.id, 'Guide 2');
    await eventually('the lingering batch let go', () => worker!.inFlight.lingering === 0);
    expect(transport.startedOn('/hook')).toHaveLength(2);
    transport.answerHanging(ANSWERED_200);
    const [, , next] = await transport.waitForStarts('/hook', 3);
    expect((JSON.parse(next!.body) as { data: { guide: { title: string } } }).data.guide.title).toBe('Guide 2');
  });
});

describe('a wave of failing endpoints is claimed in groups', () => {
  it('once the failing lane\'s saved-up starts run low, it waits for a twentieth of a second\'s worth and claims those probes in one statement', async () => {
    // The worker's clock stands an hour ahead (every ping is due) and moves only when the test moves it.
    let at = Date.now() + 3_600_000;
    const claimed = claims();
    const looked = looks();
    const transport = new ScriptedTransport();
    transport.reply = () => ({ status: 500 });
    // Six new endpoints, whose pings are probes, all waiting before the worker starts.
    for (let i = 0; i < 6; i++) {
      const { team } = await soloTeam(t);
      await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `http://127.0.0.1:9/fail/${i}`, events: ['guide.created'] });
    }
    // 40 probes a second: four saved up at most, two (a twentieth of a second's worth) taken together once low.
    worker = startWorker({ ...t.service.ctx, clock: { now: () => new Date(at) }, db: t.service.ctx.db.withPlugin(claimed).withPlugin(looked) }, transport, { failingPerSecond: 40 });
    await eventually('the four saved-up starts taken', () => transport.started.length === 4);
    await eventually('their failures recorded', () => Object.values(worker!.inFlight).every((n) => n === 0));
    const claimsBefore = claimed.count;

    // 25 ms: one start back, fewer than a group. The worker looks again and again, and claims nothing.
    at += 25;
    const looksBefore = looked.count;
    worker.wake();
    await eventually('two looks since the clock moved', () => looked.count > looksBefore + 1);
    expect(transport.started).toHaveLength(4);
    expect(claimed.count).toBe(claimsBefore);

    // 25 ms more: a group of two, claimed in one statement.
    at += 25;
    worker.wake();
    await eventually('the other two pings', () => transport.started.length === 6);
    expect(claimed.count).toBe(claimsBefore + 1);
  });
});

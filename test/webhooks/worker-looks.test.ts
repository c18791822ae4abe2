// A woken worker looks before it claims (docs/decisions.md "The delivery scheduler", Wake-ups): a claim
// is a write even when it takes nothing, and most wake-ups under a steady stream find nothing ready. The
// worker here runs beside a ROLE=api service, on a store whose statements the test counts.
import { ColumnNode, RawNode, UpdateQueryNode } from 'kysely';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryWorker } from '../../src/webhooks/worker.js';
import { QueryCounter } from '../support/query-counter.js';
import { ScriptedTransport } from '../support/scripted-transport.js';
import { soloTeam, useTestService } from '../support/service.js';
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

describe('a woken worker looks before it claims', () => {
  it('wake-ups that find no queue ready run no claim; one that finds work claims it', async () => {
    const claimed = claims();
    const looked = looks();
    const transport = new ScriptedTransport();
    const ctx = { ...t.service.ctx, db: t.service.ctx.db.withPlugin(claimed).withPlugin(looked) };
    worker = new DeliveryWorker(ctx, {
      transport,
      commitPace: { urgentEveryMs: 0, deliveredEveryMs: 0 },
      policy: { retryDelaysMs: [60_000], pauseAfterMs: 86_400_000 },
      timeoutMs: 10_000,
      log: pino({ level: 'silent' }),
      concurrency: 8,
    });
    worker.start();
    const { team } = await soloTeam(t);
    await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    worker.wake();
    await transport.waitForStarts('/hook', 1); // the ping, taken by a claim
    await eventually('the ping recorded and its queue let go', () => Object.values(worker!.inFlight).every((n) => n === 0));
    const claimsSoFar = claimed.count;
    expect(claimsSoFar).toBeGreaterThan(0);

    for (let i = 0; i < 5; i++) {
      const looksBefore = looked.count;
      worker.wake();
      await eventually('the worker to look again', () => looked.count > looksBefore);
    }
    expect(claimed.count).toBe(claimsSoFar);

    await t.admin('POST', `/guides`, { team_id: team.id, title: 'Work at last' });
    worker.wake();
    await transport.waitForStarts('/hook', 2);
    expect(claimed.count).toBeGreaterThan(claimsSoFar);
  });
});

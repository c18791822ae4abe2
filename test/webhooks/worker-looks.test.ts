// A woken worker looks before it claims (docs/decisions.md "The delivery scheduler", Wake-ups): a claim
// is a write even when it takes nothing, and most wake-ups under a steady stream find nothing ready. The
// worker here runs beside a ROLE=api service, on a store whose statements the test counts.
import { ColumnNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, RawNode, type UnknownRow, UpdateQueryNode } from 'kysely';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryWorker } from '../../src/webhooks/worker.js';
import { ScriptedTransport } from '../support/scripted-transport.js';
import { soloTeam, useTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';

const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });

/** Counts what a store is asked: claims (the updates that write a queue's claim token) and looks (the next-ready read). */
class ClaimCounter implements KyselyPlugin {
  claims = 0;
  looks = 0;
  transformQuery({ node }: PluginTransformQueryArgs) {
    if (UpdateQueryNode.is(node) && node.updates?.some((update) => ColumnNode.is(update.column) && update.column.column.name === 'claim_token')) this.claims++;
    // nextReady: `SELECT (…) AS healthy, (…) AS failing`
    if (RawNode.is(node) && node.sqlFragments.join('|').includes(' AS healthy, |')) this.looks++;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

let worker: DeliveryWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

describe('a woken worker looks before it claims', () => {
  it('wake-ups that find no queue ready run no claim; one that finds work claims it', async () => {
    const counter = new ClaimCounter();
    const transport = new ScriptedTransport();
    const ctx = { ...t.service.ctx, db: t.service.ctx.db.withPlugin(counter) };
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
    const claimsSoFar = counter.claims;
    expect(claimsSoFar).toBeGreaterThan(0);

    for (let i = 0; i < 5; i++) {
      const looks = counter.looks;
      worker.wake();
      await eventually('the worker to look again', () => counter.looks > looks);
    }
    expect(counter.claims).toBe(claimsSoFar);

    await t.admin('POST', `/guides`, { team_id: team.id, title: 'Work at last' });
    worker.wake();
    await transport.waitForStarts('/hook', 2);
    expect(counter.claims).toBeGreaterThan(claimsSoFar);
  });
});

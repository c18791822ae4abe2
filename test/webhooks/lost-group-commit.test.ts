// A group commit of outcomes that fails (its connection lost: issue 41) while the batch still has a
// delivery on its way: the worker records that delivery's outcome after the failure, and the release
// that follows it is refused at once (the queue's earlier outcome was not written), while that last
// outcome is still being written. The refusal must be heard: unheard across that write, it ended the
// worker's process ("Client has encountered a connection error and is not queryable", a rollback of
// the group; seen in test/scale/connection-loss.test.ts under load). It shows on PostgreSQL, where that
// write waits for the network; the embedded store writes it before the event loop turns.
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainContext } from '../../src/domain/context.js';
import type { DeliveryWorker } from '../../src/webhooks/worker.js';
import { ScriptedTransport } from '../support/scripted-transport.js';
import { soloTeam, useTestService } from '../support/service.js';
import { startWorker } from '../support/test-worker.js';
import { eventually } from '../support/waiting.js';

const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });

let worker: DeliveryWorker | null = null;
const unheard: unknown[] = [];
const hear = (reason: unknown) => void unheard.push(reason);
afterEach(async () => {
  await worker?.stop();
  worker = null;
  process.off('unhandledRejection', hear);
});

/** The store, except that the next transaction once `armed` fails as a lost connection does. */
function losingOneTransaction(ctx: DomainContext) {
  const state = { armed: false, failed: 0 };
  const db = new Proxy(ctx.db, {
    get(target, property) {
      if (property !== 'transaction' || !state.armed) {
        // Kysely's own fields are private: its methods run on the store itself, not on this proxy.
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return () => ({
        execute: async () => {
          state.armed = false;
          state.failed++;
          throw new Error('Client has encountered a connection error and is not queryable');
        },
      });
    },
  });
  return { ctx: { ...ctx, db }, state };
}

describe('a group commit lost while the batch still sends', () => {
  it('refuses the release, and the refusal is heard (unheard, it ended the process)', async () => {
    process.on('unhandledRejection', hear);
    const transport = new ScriptedTransport();
    const { ctx, state } = losingOneTransaction(t.service.ctx);
    worker = startWorker(ctx, transport);
    const { team } = await soloTeam(t);
    await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    worker.wake();
    await transport.waitForStarts('/hook', 1);
    await eventually('the ping recorded and its queue let go', () => Object.values(worker!.inFlight).every((n) => n === 0));

    // Two events in one batch: the first answered at once (its group commit is lost), the second held
    // until that loss has happened, so that its outcome and the release are written after it.
    transport.reply = (_path, delivery) => (delivery.body.includes('Second') ? 'hang' : { status: 200 });
    state.armed = true;
    await t.admin('POST', '/guides', { team_id: team.id, title: 'First' });
    await t.admin('POST', '/guides', { team_id: team.id, title: 'Second' });
    worker.wake();
    await eventually('the first outcome\'s group lost', () => state.failed === 1);
    await eventually('the second delivery on its way', () => transport.hangingCount === 1);
    transport.answerHanging({ delivered: true, status: 200, body: '', error: null, durationMs: 1 });
    await eventually('the batch over', () => Object.values(worker!.inFlight).every((n) => n === 0));
    // A turn for any unheard refusal to be reported.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unheard.map(String)).toEqual([]);
  });
});

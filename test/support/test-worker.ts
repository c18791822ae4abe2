// A delivery worker for the tests that drive one by hand: beside a ROLE=api service, sending through a
// scripted transport, committing outcomes without waiting for company, retrying after a minute.
import pino from 'pino';
import type { DomainContext } from '../../src/domain/context.js';
import { DeliveryWorker, type LaneLimits } from '../../src/webhooks/worker.js';
import type { ScriptedTransport } from './scripted-transport.js';

export function startWorker(ctx: DomainContext, transport: ScriptedTransport, lanes: Partial<LaneLimits> = {}): DeliveryWorker {
  const started = new DeliveryWorker(ctx, {
    transport,
    commitPace: { urgentEveryMs: 0, deliveredEveryMs: 0 },
    policy: { retryDelaysMs: [60_000], pauseAfterMs: 86_400_000 },
    timeoutMs: 10_000,
    log: pino({ level: 'silent' }),
    concurrency: 8,
    lanes,
  });
  started.start();
  return started;
}

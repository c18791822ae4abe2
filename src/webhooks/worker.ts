// The delivery worker: the only thing that sends. It closes due coalescing windows, claims batches of due
// attempts (one batch per endpoint), sends the batches of different endpoints concurrently and each batch
// in event order, records each outcome, and once a minute pauses endpoints that have failed for too long
// and prunes what is older than 30 days. A committed write wakes it at once; otherwise it sleeps until the
// next thing is due (a minute at most, so that nothing waits on a lost wake-up).
import type { FastifyBaseLogger } from 'fastify';
import type { DomainContext, OutboxSignal } from '../domain/context.js';
import { closeDueWindows, nextWindowClose } from '../domain/guides/guide-update-windows.js';
import type { Mailer } from '../mail/mailer.js';
import { type ClaimedAttempt, claimDueAttempts, nextAttemptDue, releaseClaims, renewLease } from './attempt-claims.js';
import { type RetryPolicy, recordOutcome } from './attempt-outcome.js';
import { pauseLongFailingEndpoints } from './pausing.js';
import { pruneOldDeliveries } from './pruning.js';
import type { WebhookSender } from './sender.js';
import { signBody } from './signing.js';
import { checkPublicUrl, type Resolver } from './network-guard.js';

export interface WorkerOptions {
  sender: WebhookSender;
  mailer: Mailer;
  policy: RetryPolicy;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  resolver?: Resolver;
  log: FastifyBaseLogger;
  /** Endpoints sent to at once. */
  concurrency?: number;
  /** Attempts claimed for one endpoint at a time. */
  batchSize?: number;
  /** The longest the worker sleeps without a wake-up; short while it cannot be woken from elsewhere. */
  idleAtMostMs?: () => number;
}

const MAINTENANCE_EVERY_MS = 60_000;
const IDLE_AT_MOST_MS = 60_000;
// Time past the delivery time-out before a claim may be taken over: enough to record the outcome.
const LEASE_MARGIN_MS = { least: 1000, most: 30_000 };

export class DeliveryWorker implements OutboxSignal {
  private running = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;
  /** The batch being sent to each endpoint. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private lastMaintenance = 0;

  constructor(
    private readonly ctx: DomainContext,
    private readonly options: WorkerOptions,
  ) {}

  private get concurrency(): number {
    return this.options.concurrency ?? 32;
  }

  private get leaseMs(): number {
    const margin = Math.min(LEASE_MARGIN_MS.most, Math.max(LEASE_MARGIN_MS.least, this.options.timeoutMs));
    return this.options.timeoutMs + margin;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming, lets attempts in flight finish (each is bounded by the delivery time-out), and closes. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loopDone;
    await Promise.allSettled(this.inFlight.values());
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.woken = false;
      try {
        const now = this.ctx.clock.now().getTime();
        await closeDueWindows(this.ctx, new Date(now));
        if (now - this.lastMaintenance >= MAINTENANCE_EVERY_MS) {
          this.lastMaintenance = now;
          await pauseLongFailingEndpoints(this.ctx, this.options.policy.pauseAfterMs);
          await pruneOldDeliveries(this.ctx);
        }
        await this.options.mailer.sendPending(this.ctx);
        const free = this.concurrency - this.inFlight.size;
        if (free > 0) {
          const batchSize = this.options.batchSize ?? 20;
          const batches = await claimDueAttempts(this.ctx, { total: free * batchSize, perEndpoint: batchSize, leaseMs: this.leaseMs });
          for (const batch of batches) this.dispatch(batch);
          if (batches.length > 0) continue;
        }
        await this.sleep(await this.idleFor());
      } catch (error) {
        this.options.log.error({ err: error }, 'delivery worker cycle failed; trying again shortly');
        await this.sleep(1000);
      }
    }
  }

  private async idleFor(): Promise<number> {
    const now = this.ctx.clock.now().getTime();
    const idleAtMost = this.options.idleAtMostMs?.() ?? IDLE_AT_MOST_MS;
    const candidates = [now + idleAtMost, this.lastMaintenance + MAINTENANCE_EVERY_MS];
    const nextAttempt = await nextAttemptDue(this.ctx);
    if (nextAttempt) candidates.push(nextAttempt.getTime());
    const nextWindow = await nextWindowClose(this.ctx.db);
    if (nextWindow) candidates.push(nextWindow.getTime());
    return Math.max(0, Math.min(...candidates) - now);
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }

  /** Sends one endpoint's batch in order; what is left when the worker stops is given back. */
  private dispatch(batch: ClaimedAttempt[]): void {
    const endpointId = batch[0]!.endpoint_id;
    const work = (async () => {
      for (let i = 0; i < batch.length; i++) {
        const attempt = batch[i]!;
        const waiting = batch.slice(i + 1).map((next) => next.seq);
        if (!this.running) {
          await releaseClaims(this.ctx, [attempt.seq, ...waiting]);
          return;
        }
        await renewLease(this.ctx, waiting, this.leaseMs);
        try {
          await this.deliver(attempt);
        } catch (error) {
          this.options.log.error({ err: error, delivery_id: attempt.id }, 'delivery attempt could not be completed; releasing it');
          await releaseClaims(this.ctx, [attempt.seq]).catch(() => undefined);
        }
      }
    })()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'a delivery batch failed'))
      .finally(() => {
        this.inFlight.delete(endpointId);
        this.wake();
      });
    this.inFlight.set(endpointId, work);
  }

  private async deliver(attempt: ClaimedAttempt): Promise<void> {
    const { ctx } = this;
    const endpoint = await ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', attempt.endpoint_id).executeTakeFirst();
    if (!endpoint) return; // deleted: its attempts went with it
    if (endpoint.status === 'paused') {
      await ctx.db.updateTable('webhook_attempts').set({ status: 'missed', claimed_until: null }).where('seq', '=', attempt.seq).execute();
      return;
    }
    const event = await ctx.db.selectFrom('events').select(['type', 'payload']).where('id', '=', attempt.event_id).executeTakeFirstOrThrow();
    // The signing key is read at send time, so a rotated key takes effect at once.
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1',
      'x-service-event': event.type,
      'x-service-delivery': attempt.id,
      'x-service-signature': signBody(endpoint.signing_key, event.payload),
    };
    const at = ctx.clock.now();
    const outcome = await this.sendChecked(endpoint.url, headers, event.payload);
    await recordOutcome(ctx, this.options.policy, attempt, { at, headers, outcome });
  }

  private async sendChecked(url: string, headers: Record<string, string>, body: string) {
    if (!this.options.allowPrivateNetworks) {
      try {
        await checkPublicUrl(new URL(url), this.options.resolver);
      } catch (error) {
        return { delivered: false, status: null, body: null, error: (error as Error).message, durationMs: 0 };
      }
    }
    return this.options.sender.send({ url, headers, body });
  }
}

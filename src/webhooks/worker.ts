// The delivery worker: the only thing that sends. It closes due coalescing windows, claims batches of due
// attempts (one batch per endpoint), sends the batches of different endpoints concurrently and each batch
// in event order, records each outcome, and once a minute pauses endpoints that have failed for too long
// and prunes what is older than 30 days. A committed write wakes it at once; otherwise it sleeps until the
// next thing is due (a minute at most, so that nothing waits on a lost wake-up).
import type { FastifyBaseLogger } from 'fastify';
import type { DomainContext, OutboxSignal } from '../domain/context.js';
import { closeDueWindows, nextWindowClose } from '../domain/guides/guide-update-windows.js';
import type { Mailer } from '../mail/mailer.js';
import { type ClaimedAttempt, claimDueAttempts, nextAttemptDue, releaseClaim, renewLease } from './attempt-claims.js';
import { LostClaimError, type RetryPolicy } from './attempt-outcome.js';
import { OutcomeRecorder } from './outcome-recorder.js';
import { pauseLongFailingEndpoints } from './pausing.js';
import { pruneOldDeliveries } from './pruning.js';
import type { WebhookSender } from './sender.js';
import { signBody } from './signing.js';

export interface WorkerOptions {
  sender: WebhookSender;
  mailer: Mailer;
  policy: RetryPolicy;
  timeoutMs: number;
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

interface BatchEvent {
  type: string;
  payload: string;
}

async function eventsOf(ctx: DomainContext, batch: ClaimedAttempt[]): Promise<Map<string, BatchEvent>> {
  const ids = [...new Set(batch.map((attempt) => attempt.event_id))];
  const rows = await ctx.db.selectFrom('events').select(['id', 'type', 'payload']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export class DeliveryWorker implements OutboxSignal {
  private running = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;
  /** The batch being sent to each endpoint. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private lastMaintenance = 0;
  private mailRun: Promise<void> | null = null;
  private readonly outcomes: OutcomeRecorder;

  constructor(
    private readonly ctx: DomainContext,
    private readonly options: WorkerOptions,
  ) {
    this.outcomes = new OutcomeRecorder(ctx, options.policy);
  }

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
    await Promise.allSettled([...this.inFlight.values(), this.mailRun]);
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.woken = false;
      const now = this.ctx.clock.now().getTime();
      // Each phase fails on its own, so that a fault in one does not hold up the others.
      await this.phase('closing coalescing windows', () => closeDueWindows(this.ctx, new Date(now)));
      if (now - this.lastMaintenance >= MAINTENANCE_EVERY_MS) {
        this.lastMaintenance = now;
        await this.phase('pausing failing endpoints', () => pauseLongFailingEndpoints(this.ctx, this.options.policy.pauseAfterMs));
        await this.phase('pruning old deliveries', () => pruneOldDeliveries(this.ctx));
      }
      this.sendMail();
      const free = this.concurrency - this.inFlight.size;
      if (free > 0) {
        const batches = await this.phase('claiming due attempts', () =>
          claimDueAttempts(this.ctx, { endpoints: free, perEndpoint: this.options.batchSize ?? 20, leaseMs: this.leaseMs }),
        );
        for (const batch of batches ?? []) this.dispatch(batch);
        if (batches && batches.length > 0) continue;
      }
      // With every slot busy, the end of a batch is what can make room: it wakes the loop.
      const idle = free > 0 ? await this.phase('planning the next cycle', () => this.idleFor()) : null;
      await this.sleep(idle ?? this.options.idleAtMostMs?.() ?? IDLE_AT_MOST_MS);
    }
  }

  private async phase<T>(what: string, work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      this.options.log.error({ err: error }, `delivery worker: ${what} failed; trying again next cycle`);
      await this.sleep(1000);
      return null;
    }
  }

  /** Hands queued mail to SMTP in the background, one run at a time, so a slow mail server holds up nothing. */
  private sendMail(): void {
    if (this.mailRun) return;
    this.mailRun = this.options.mailer
      .sendDue(this.ctx)
      .then(() => undefined)
      .catch((error: unknown) => this.options.log.error({ err: error }, 'sending queued mail failed'))
      .finally(() => {
        this.mailRun = null;
      });
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

  /**
   * Sends one endpoint's batch in order; what is left when the worker stops is given back. After a 2xx
   * the next attempt goes out at once while the outcome waits for the next group commit; after anything
   * else (which may pause the endpoint or schedule a retry) the batch waits until it is recorded.
   */
  private dispatch(batch: ClaimedAttempt[]): void {
    const { endpoint_id: endpointId, claim_token: token } = batch[0]!;
    const claim = { endpointId, token };
    const work = (async () => {
      // The claim gave the batch a full lease; it is renewed whenever what is left could not cover one
      // more attempt and the recording of its outcome with half the margin to spare.
      let leaseEnds = this.ctx.clock.now().getTime() + this.leaseMs;
      // Events never change once recorded: the batch's bodies are read at once.
      const events = await eventsOf(this.ctx, batch);
      const renewBelowMs = this.options.timeoutMs + (this.leaseMs - this.options.timeoutMs) / 2;
      const recording: Promise<void>[] = [];
      let recordFailure: unknown = null;
      // Outcomes still being recorded are attempts that went out: never given back, never sent again.
      const recorded = async () => {
        await Promise.all(recording);
        if (recordFailure !== null) throw recordFailure;
      };
      for (const attempt of batch) {
        if (recordFailure !== null) break;
        if (!this.running) {
          await recorded();
          await releaseClaim(this.ctx, claim);
          return;
        }
        const now = this.ctx.clock.now().getTime();
        if (leaseEnds - now < renewBelowMs) {
          await renewLease(this.ctx, claim, this.leaseMs);
          leaseEnds = now + this.leaseMs;
        }
        const sent = await this.deliver(attempt, events.get(attempt.event_id));
        if (!sent) continue;
        const handled = sent.recorded.catch((error: unknown) => {
          recordFailure ??= error;
        });
        if (sent.delivered) recording.push(handled);
        else await handled;
      }
      await recorded();
    })()
      .catch((error: unknown) => {
        // An attempt may have been sent already: nothing is given back, the lease runs out instead, so it
        // is sent again at most once more, after the lease, rather than at once and again and again.
        if (error instanceof LostClaimError) this.options.log.warn({ err: error }, 'a delivery claim lapsed');
        else this.options.log.error({ err: error, endpoint_id: endpointId }, 'a delivery batch stopped; its claim will lapse');
      })
      .finally(() => {
        if (this.inFlight.get(endpointId) === work) this.inFlight.delete(endpointId);
        this.wake();
      });
    this.inFlight.set(endpointId, work);
  }

  /** Sends one attempt and hands its outcome to the recorder; null when there was nothing to send. */
  private async deliver(attempt: ClaimedAttempt, event: BatchEvent | undefined): Promise<{ delivered: boolean; recorded: Promise<void> } | null> {
    const { ctx } = this;
    const endpoint = await ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', attempt.endpoint_id).executeTakeFirst();
    if (!endpoint) return null; // deleted: its attempts went with it
    if (endpoint.status === 'paused') {
      await ctx.db
        .updateTable('webhook_attempts')
        .set({ status: 'missed', claimed_until: null, claim_token: null })
        .where('seq', '=', attempt.seq)
        .where('claim_token', '=', attempt.claim_token)
        .execute();
      return null;
    }
    if (!event) throw new Error(`event ${attempt.event_id} of delivery ${attempt.id} is missing`);
    // The signing key is read at send time, so a rotated key takes effect at once.
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1',
      'x-service-event': event.type,
      'x-service-delivery': attempt.id,
      'x-service-signature': signBody(endpoint.signing_key, event.payload),
    };
    const at = ctx.clock.now();
    const outcome = await this.options.sender.send({ url: endpoint.url, headers, body: event.payload });
    const endpointFailing = endpoint.failing_since !== null;
    return { delivered: outcome.delivered, recorded: this.outcomes.record(attempt, { at, headers, outcome, endpointFailing }) };
  }
}

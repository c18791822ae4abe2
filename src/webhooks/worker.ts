// The delivery worker: the only thing that sends. Deliveries are waits on the network, not work, so it
// keeps many batches in flight at once, one per endpoint, in two lanes:
// - healthy endpoints (they have answered 2xx, and their last attempt did not fail): up to `healthy`
//   batches of up to `batch` attempts each;
// - failing endpoints, and new ones until they first answer 2xx: up to `failing` batches of one attempt
//   each (a probe), started at most `failingPerSecond` a second, so that a wave of failures or of new
//   receivers (a thousand that went down, or were registered, at once) spreads over seconds instead of
//   taking the thread from the healthy lane. Their breaker spaces the probes out
//   (src/webhooks/attempt-outcome.ts); a probe that succeeds moves the endpoint to the healthy lane.
// In either lane, a batch whose attempt has waited `slowAfterMs` for an answer stops counting against the
// lane, so receivers that hang cannot fill it (new ones that hang would otherwise keep other new ones
// from their first delivery until the time-out).
// Batches in flight of any kind never exceed `inFlight` (sockets and memory stay bounded).
// A batch sends in event order and stops at its first failure: the retry schedule and the breaker take
// over from there. A healthy batch that has sent all that was due lets its queue go, unless its endpoint
// is busy (this worker let go of it moments before claiming it again): then it lingers, holding the
// queue, and reads on when a commit wakes the worker, so that a steady stream to an endpoint costs a
// read per wake-up instead of a claim, a read and a release per event (bench/CHANGES.md). After a 2xx
// the next attempt goes out at once while the outcome waits for the next group commit; after anything
// else the batch waits until it is recorded (it may pause the endpoint). A delivered event is settled
// (shared decisions §11): the commit of its 2xx cancels its other attempts to the endpoint, so a batch
// that comes to another attempt of an event it delivered waits for that commit and reads its queue
// again, and never sends what the commit cancelled.
// Each lane records through a group commit of its own, so healthy outcomes never wait behind failures.
// A committed write or the end of a batch wakes the worker; otherwise it sleeps until the next queue is
// ready (a minute at most, so that nothing waits on a lost wake-up).
import type { FastifyBaseLogger } from 'fastify';
import type { DomainContext } from '../domain/context.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { extendLease, type Lane, LANES, nextReady } from '../domain/delivery-queues.js';
import { missPending } from '../domain/delivery-attempts.js';
import { type ClaimedBatch, claimBatches, type NextAttempts, nextAttempts } from './attempt-claims.js';
import { LostClaimError, type RetryPolicy } from './attempt-outcome.js';
import { deliveryRequest } from './delivery-request.js';
import { signingKeysAt } from './signing.js';
import { StartPace } from './start-pace.js';
import { type CommitPace, OutcomeRecorder } from './outcome-recorder.js';
import type { Transport } from './sender.js';
import { WakeableLoop } from './wakeable-loop.js';

export interface LaneLimits {
  /** Batches to healthy endpoints in flight at once (not counting slow ones). */
  healthy: number;
  /** Probes to failing endpoints in flight at once. */
  failing: number;
  /** Probes to failing endpoints started per second at most. */
  failingPerSecond: number;
  /** Attempts read at a time for a healthy endpoint. */
  batch: number;
  /** How long an attempt may wait for its answer before its batch stops counting as healthy. */
  slowAfterMs: number;
  /** Batches in flight at most, slow and lingering ones included. */
  inFlight: number;
  /** How long a busy endpoint's batch waits for more work after it has sent all that was due. */
  lingerMs: number;
}

/**
 * The lanes for WEBHOOK_CONCURRENCY: that many healthy batches, a quarter as many probes in flight and as
 * many started a second, four times as many batches in all.
 */
function lanesFor(concurrency: number): LaneLimits {
  const probes = Math.max(1, Math.ceil(concurrency / 4));
  return { healthy: concurrency, failing: probes, failingPerSecond: probes, inFlight: 4 * concurrency, batch: 100, slowAfterMs: 250, lingerMs: 50 };
}

// Queues taken by one claim statement at most (a claim's statement names each queue it reads from).
const CLAIM_AT_MOST = 100;

export interface WorkerOptions {
  transport: Transport;
  /** How often outcomes are committed at most (group commit; see outcome-recorder.ts). */
  commitPace: CommitPace;
  policy: RetryPolicy;
  timeoutMs: number;
  log: FastifyBaseLogger;
  /** WEBHOOK_CONCURRENCY, which sizes the lanes. */
  concurrency: number;
  /** Lane limits other than those the concurrency gives (tests). */
  lanes?: Partial<LaneLimits>;
  /** The longest the worker sleeps without a wake-up; short while it cannot be woken from elsewhere. */
  idleAtMostMs?: () => number;
  /** Counts each attempt's outcome and observes delivery latency (docs/monitoring.md). */
  metrics?: Pick<ServiceMetrics, 'observeAttempt'>;
}

const IDLE_AT_MOST_MS = 60_000;
// A healthy endpoint with a long queue (its batches come full) keeps its place for this many attempts or
// this long, then lets go and lines up again: a worker with more than it can send gives other workers
// the chance to take it.
const HOLD_AT_MOST = { attempts: 1000, ms: 100 };
// A queue that was ready but not taken (another worker held it for a moment): look again this soon.
const RECHECK_MS = 10;
// Time past the delivery time-out before a claim may be taken over: enough to record the outcome.
const LEASE_MARGIN_MS = { least: 1000, most: 30_000 };

/** Which count a running batch holds a place in. */
type Slot = Lane | 'slow' | 'lingering';

const isLane = (slot: Slot): slot is Lane => (LANES as readonly string[]).includes(slot);

interface RunningBatch {
  batch: ClaimedBatch;
  slot: Slot;
  done: Promise<void>;
}

/** A healthy batch that sent all that was due, waiting for more to read on with. */
interface Lingering {
  running: RunningBatch;
  lastSeq: number;
  /** Answered with the attempts to send next, or null to let the queue go. */
  resume: (next: NextAttempts | null) => void;
  timer: NodeJS.Timeout;
}

export class DeliveryWorker extends WakeableLoop {
  private readonly lanes: LaneLimits;
  private readonly batches = new Set<RunningBatch>();
  /**
   * Batches in a lane whose attempt waits for its answer, with when it was sent, oldest first (the map's
   * order; the clock does not go back): a look at the slow ones stops at the first that is not, where a
   * walk over every batch in flight (a thousand and more with hanging receivers) took 2.5 % of the thread.
   */
  private readonly sending = new Map<RunningBatch, number>();
  private readonly held: Record<Slot, number> = { healthy: 0, failing: 0, slow: 0, lingering: 0 };
  private readonly lingering = new Map<string, Lingering>();
  /** When (performance.now()) this worker last let go of each endpoint's queue, for the last `lingerMs`. */
  private readonly letGo = new Map<string, number>();
  /** A commit woke the worker since lingering batches last read on: work may have been added to them. */
  private committedSinceReadOn = false;
  private readonly outcomes: Record<Lane, OutcomeRecorder>;
  private readonly probePace: StartPace;

  constructor(
    private readonly ctx: DomainContext,
    private readonly options: WorkerOptions,
  ) {
    super(options.log);
    this.lanes = { ...lanesFor(options.concurrency), ...options.lanes };
    const recorder = () => new OutcomeRecorder(ctx, options.policy, options.commitPace);
    this.outcomes = { healthy: recorder(), failing: recorder() };
    this.probePace = new StartPace(this.lanes.failingPerSecond, ctx.clock.now().getTime());
  }

  /** Batches in flight, by the count they hold a place in. */
  get inFlight(): Readonly<Record<Slot, number>> {
    return { ...this.held };
  }

  private get leaseMs(): number {
    const margin = Math.min(LEASE_MARGIN_MS.most, Math.max(LEASE_MARGIN_MS.least, this.options.timeoutMs));
    return this.options.timeoutMs + margin;
  }

  /** Woken by a commit (locally or from another process): lingering batches read on at the next cycle. */
  override wake(): void {
    this.committedSinceReadOn = true;
    super.wake();
  }

  /** Stops claiming, lets attempts in flight finish (each is bounded by the delivery time-out), and closes. */
  override async stop(): Promise<void> {
    await super.stop();
    for (const waiting of [...this.lingering.values()]) this.endLingering(waiting, null);
    await Promise.allSettled([...this.batches].map((batch) => batch.done));
  }

  protected async cycle(): Promise<number> {
    this.demoteSlowBatches();
    if (this.committedSinceReadOn && this.lingering.size > 0) await this.attempt('reading on', () => this.readOn());
    const free = { healthy: this.free('healthy'), failing: this.free('failing') };
    const room = this.roomInAll();
    // A look before a claim: most wake-ups (a commit for queues that this worker's batches hold, the end
    // of a batch that took all there was) find nothing ready, and a look is a read where a claim is a
    // write (on SQLite 20 µs against 150–250 µs under the bad day's stream; bench/CHANGES.md).
    const canTake = free.healthy + free.failing > 0;
    const ready = canTake ? await this.attempt('looking for ready queues', () => nextReady(this.ctx.db)) : null;
    if (canTake && ready === null) return 0; // the look failed, and `attempt` has paused
    const now = this.ctx.clock.now().getTime();
    if (ready && LANES.some((lane) => free[lane] > 0 && ready[lane] !== null && ready[lane].getTime() <= now)) {
      // Both lanes in one statement. When there is less room in all than both lanes would take, the
      // healthy lane's ready queues come first, and the failing lane has what they leave.
      const batches =
        (await this.attempt('claiming', () =>
          claimBatches(this.ctx, {
            healthy: { endpoints: free.healthy, perEndpoint: this.lanes.batch },
            failing: { endpoints: free.failing, perEndpoint: 1 },
            endpoints: room,
            leaseMs: this.leaseMs,
          }),
        )) ?? [];
      for (const batch of batches) this.dispatch(batch);
      const taken = (lane: Lane) => batches.filter((batch) => batch.lane === lane).length;
      this.probePace.took(taken('failing'));
      // A lane that took all it could may have left more behind, if there is room for it.
      const more = batches.length < room && LANES.some((lane) => free[lane] > 0 && taken(lane) === free[lane]);
      if (more) return 0;
      return (await this.attempt('planning the next cycle', () => this.untilNextWork())) ?? 0;
    }
    // Nothing was ready to take, and nothing was taken since the look: it tells when to look again.
    return (await this.attempt('planning the next cycle', () => this.untilNextWork(ready ?? undefined))) ?? 0;
  }

  /** Batches the lane may start now. */
  private free(lane: Lane): number {
    const paced = lane === 'failing' ? this.probePace.allowed(this.ctx.clock.now().getTime()) : CLAIM_AT_MOST;
    return Math.min(CLAIM_AT_MOST, paced, this.roomIn(lane));
  }

  /** Places left in the lane and in all, whatever the pace. */
  private roomIn(lane: Lane): number {
    return Math.max(0, Math.min(this.lanes[lane] - this.held[lane], this.roomInAll()));
  }

  private roomInAll(): number {
    return this.lanes.inFlight - (this.held.healthy + this.held.failing + this.held.slow + this.held.lingering);
  }

  /**
   * Waits, holding the queue, for more of a busy endpoint's attempts: the next commit that adds some
   * hands them over (readOn), or the queue is let go after `lingerMs`.
   */
  private linger(running: RunningBatch, lastSeq: number): Promise<NextAttempts | null> {
    if (!this.isRunning) return Promise.resolve(null);
    return new Promise((resume) => {
      const laneWasFull = this.roomIn('healthy') === 0;
      this.move(running, 'lingering');
      const waiting: Lingering = { running, lastSeq, resume, timer: setTimeout(() => this.endLingering(waiting, null), this.lanes.lingerMs) };
      this.lingering.set(running.batch.claim.endpointId, waiting);
      // Its place in the healthy lane is free now; while the lane had room, nothing ready waited for one.
      if (laneWasFull) super.wake();
    });
  }

  private endLingering(waiting: Lingering, next: NextAttempts | null): void {
    clearTimeout(waiting.timer);
    this.lingering.delete(waiting.running.batch.claim.endpointId);
    if (next) this.move(waiting.running, 'healthy');
    waiting.resume(next);
  }

  /** Lingering batches read on, all in one statement; those that found work send it while the lane has room. */
  private async readOn(): Promise<void> {
    this.committedSinceReadOn = false;
    const waiting = [...this.lingering.values()];
    const next = await nextAttempts(
      this.ctx,
      waiting.map(({ running, lastSeq }) => ({ claim: running.batch.claim, afterSeq: lastSeq, count: this.lanes.batch })),
    );
    for (const batch of waiting) {
      const found = next.get(batch.running.batch.claim.endpointId);
      if (!found || found.attempts.length === 0 || this.lingering.get(batch.running.batch.claim.endpointId) !== batch) continue;
      this.endLingering(batch, this.roomIn('healthy') > 0 && this.isRunning ? found : null);
    }
  }

  private move(running: RunningBatch, slot: Slot): void {
    this.held[running.slot]--;
    this.held[slot]++;
    running.slot = slot;
  }

  /** Whether this worker let go of the endpoint's queue less than `lingerMs` before `claimedAt` (performance.now()). */
  private isBusy(endpointId: string, claimedAt: number): boolean {
    const at = this.letGo.get(endpointId);
    return at !== undefined && claimedAt - at < this.lanes.lingerMs;
  }

  private noteLetGo(endpointId: string): void {
    const now = performance.now();
    this.letGo.delete(endpointId);
    this.letGo.set(endpointId, now);
    // Oldest first (Map order): what let go longer ago than lingerMs no longer makes anything busy.
    for (const [id, at] of this.letGo) {
      if (now - at < this.lanes.lingerMs) break;
      this.letGo.delete(id);
    }
  }

  /** Batches and probes whose attempt has waited too long for an answer give their place in their lane to others. */
  private demoteSlowBatches(): void {
    const now = this.ctx.clock.now().getTime();
    for (const [running, since] of this.sending) {
      if (now - since < this.lanes.slowAfterMs) break;
      this.sending.delete(running);
      this.move(running, 'slow');
    }
  }

  /** How long until a lane with room has a ready queue (and, for probes, their pace allows one), or a batch turns slow. */
  private async untilNextWork(looked?: Record<Lane, Date | null>): Promise<number> {
    const now = this.ctx.clock.now().getTime();
    const wakeAt = [now + (this.options.idleAtMostMs?.() ?? IDLE_AT_MOST_MS)];
    const lanes = LANES.filter((lane) => this.roomIn(lane) > 0); // the end of a batch wakes the others
    const ready = lanes.length === 0 ? null : (looked ?? (await nextReady(this.ctx.db)));
    for (const lane of lanes) {
      const at = ready?.[lane];
      const allowed = lane === 'failing' ? this.probePace.nextAt(now) : now;
      if (at) wakeAt.push(Math.max(at.getTime(), allowed, now + RECHECK_MS));
    }
    const oldest = this.sending.values().next();
    if (!oldest.done) wakeAt.push(oldest.value + this.lanes.slowAfterMs);
    return Math.max(0, Math.min(...wakeAt) - now);
  }

  private dispatch(batch: ClaimedBatch): void {
    const running: RunningBatch = { batch, slot: batch.lane, done: Promise.resolve() };
    this.held[running.slot]++;
    this.batches.add(running);
    running.done = this.send(running)
      .catch((error: unknown) => {
        // An attempt may have been sent already: nothing is given back, the lease runs out instead, so it
        // is sent again at most once more, after the lease, rather than at once and again and again.
        if (error instanceof LostClaimError) this.log.warn({ err: error }, 'a delivery claim lapsed');
        else this.log.error({ err: error, endpoint_id: batch.claim.endpointId }, 'a delivery batch stopped; its claim will lapse');
      })
      .finally(() => {
        this.held[running.slot]--;
        this.batches.delete(running);
        this.sending.delete(running);
        super.wake(); // room for another batch; no commit that lingering batches should read on after
      });
  }

  /**
   * Sends one endpoint's attempts in event order until its first failure, reading more after the batch
   * while the endpoint is healthy (within `HOLD_AT_MOST`), then lets the queue go.
   */
  private async send(running: RunningBatch): Promise<void> {
    const { claim, claimedAt, lane } = running.batch;
    let { endpoint, attempts } = running.batch;
    const busy = lane === 'healthy' && this.isBusy(claim.endpointId, performance.now());
    // The lease is renewed whenever what is left could not cover one more attempt and the recording of
    // its outcome with half the margin to spare.
    const renewBelowMs = this.options.timeoutMs + (this.leaseMs - this.options.timeoutMs) / 2;
    let leaseEnds = claimedAt.getTime() + this.leaseMs;
    let failures = claim.failures;
    let lastSeq = 0;
    let sent = 0;
    // Outcomes still being recorded are attempts that went out: the queue is let go only after them.
    const recording: Promise<unknown>[] = [];
    let recordFailure: unknown = null;
    const noteFailure = (error: unknown) => {
      recordFailure ??= error;
    };
    // Events this batch delivered, with the writing of that outcome, whose commit cancels their other
    // attempts here: attempts read before it may be among those.
    const delivered = new Map<string, Promise<unknown>>();
    let stopped = false;
    while (!stopped && attempts.length > 0) {
      let stale = false;
      // Paused meanwhile (by another process, or before its last events were written): what waits is missed.
      if (endpoint?.status !== 'active') {
        await missPending(this.ctx.db, claim.endpointId);
        break;
      }
      for (const attempt of attempts) {
        if (!this.isRunning || recordFailure !== null) {
          stopped = true;
          break;
        }
        const settling = delivered.get(attempt.event_id);
        if (settling) {
          // Once that outcome is written, the queue as read again holds this attempt only if it came after.
          delivered.delete(attempt.event_id);
          await settling;
          stale = true;
          break;
        }
        const now = this.ctx.clock.now();
        if (leaseEnds - now.getTime() < renewBelowMs) {
          if (!(await extendLease(this.ctx.db, claim, new Date(now.getTime() + this.leaseMs)))) throw new LostClaimError(attempt.id);
          leaseEnds = now.getTime() + this.leaseMs;
        }
        const request = deliveryRequest(endpoint, signingKeysAt(endpoint, now), attempt);
        // Only an attempt in a lane can turn slow: a slow batch stays slow.
        if (isLane(running.slot)) this.sending.set(running, now.getTime());
        const outcome = await this.options.transport.send(request);
        this.sending.delete(running);
        this.options.metrics?.observeAttempt(attempt, outcome, this.ctx.clock.now());
        lastSeq = attempt.seq;
        sent++;
        const recorded = this.outcomes[lane].record(attempt, { at: now, headers: JSON.stringify(request.headers), outcome, failuresBefore: failures, proving: !claim.proven, token: claim.token });
        if (outcome.delivered) {
          failures = 0;
          const written = recorded.catch(noteFailure);
          recording.push(written);
          delivered.set(attempt.event_id, written);
          continue;
        }
        // The first failure ends the batch: the retry schedule and the breaker decide what follows.
        await recorded.catch(noteFailure);
        stopped = true;
        break;
      }
      if (stopped || lane === 'failing' || sent >= HOLD_AT_MOST.attempts || this.ctx.clock.now().getTime() - claimedAt.getTime() >= HOLD_AT_MOST.ms) break;
      if (stale) {
        ({ endpoint, attempts } = (await nextAttempts(this.ctx, [{ claim, afterSeq: lastSeq, count: this.lanes.batch }])).get(claim.endpointId)!);
        continue;
      }
      // A batch shorter than it could be took everything that was due: work added since was announced,
      // and the release sees it and makes the queue ready again (releaseQueues). A busy endpoint's batch
      // waits a moment for the next commit instead; any other reads on only when it came full, which
      // spares a statement per batch when events come one at a time.
      if (attempts.length < this.lanes.batch) {
        const next = busy ? await this.linger(running, lastSeq) : null;
        if (next === null) break;
        ({ endpoint, attempts } = next);
        continue;
      }
      ({ endpoint, attempts } = (await nextAttempts(this.ctx, [{ claim, afterSeq: lastSeq, count: this.lanes.batch }])).get(claim.endpointId)!);
    }
    // The release is written after the outcomes, and refused if one of them could not be.
    this.noteLetGo(claim.endpointId);
    const released = this.outcomes[lane].release(claim);
    // Heard at once: the release may be refused (an earlier outcome of this queue was not written) while
    // the last outcomes are still being written; a refusal unheard until then would end the process.
    released.catch(() => undefined);
    await Promise.all(recording);
    if (recordFailure !== null) {
      await released.catch(() => undefined);
      throw recordFailure;
    }
    await released;
  }
}

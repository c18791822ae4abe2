// Group commit of delivery outcomes and of the releases of the queues whose batches ended. A batch does
// not wait for a 2xx to be written before it sends its next attempt, only for anything else (which may
// pause the endpoint or schedule a retry), and a batch's end (the release of its queue) is written after
// its outcomes, in the same transaction or a later one. Outcomes from every batch that arrive while one
// transaction is being written go into the next. A commit costs far more than the rows in it (on the
// embedded store it writes whole pages), so commits are spaced out, at two paces:
// - what someone waits for (a release, which lets the queue's next events go; a failure, which its batch
//   waits on) is committed at most every `urgentEveryMs`;
// - 2xx outcomes alone wait up to `deliveredEveryMs` for company: nothing waits on them, and under load
//   a group then carries tens of outcomes instead of a few (measured in BENCHMARKS.md).
// An urgent job cuts a longer wait short. A batch asks for its release as soon as it ends, behind its
// outcomes; if writing one of them failed, the release is refused too, so the queue stays held until
// its lease runs out (worker.ts).
import { type DomainContext, leftUpkeepWork, wakeAfterCommit } from '../domain/context.js';
import { lockQueues, type QueueClaim, type Released, releaseQueuesAndCommit } from '../domain/delivery-queues.js';
import type { ClaimedAttempt } from './attempt-claims.js';
import { LostClaimError, type RetryPolicy, recordOutcomes, type SentAttempt } from './attempt-outcome.js';

type Job =
  | { kind: 'outcome'; attempt: ClaimedAttempt; sent: SentAttempt; resolve: (failures: number) => void; reject: (error: unknown) => void }
  | { kind: 'release'; claim: QueueClaim; resolve: (released: Released) => void; reject: (error: unknown) => void };

/** Jobs written in one transaction at most; more wait for the next. */
const GROUP_AT_MOST = 500;

/** The least time between two commits' starts, by what the group holds. */
export interface CommitPace {
  /** When a release or a failure is waiting. */
  urgentEveryMs: number;
  /** When only 2xx outcomes are. */
  deliveredEveryMs: number;
}

/** The claim of one queue that a job belongs to. */
const queueClaimOf = (job: Job) => (job.kind === 'outcome' ? `${job.sent.token} ${job.attempt.endpoint_id}` : `${job.claim.token} ${job.claim.endpointId}`);

/** Someone waits for this job's commit: its batch (a failure), or the queue's next events (a release). */
const isUrgent = (job: Job) => job.kind === 'release' || !job.sent.outcome.delivered;

export class OutcomeRecorder {
  private readonly waiting: Job[] = [];
  private writing = false;
  private lastCommitStarted = 0;
  /** The wait before the next commit, while one runs: an urgent job may cut it short. */
  private pause: { timer: NodeJS.Timeout; urgent: boolean; resolve: () => void } | null = null;
  /**
   * Queues (by claim) an outcome of which could not be written, and why: their release is refused. One
   * claim statement takes several queues under one token, so a queue's claim is its token and endpoint:
   * another batch of the same claim must not have its release refused for this one's failure.
   */
  private readonly unwritten = new Map<string, unknown>();

  constructor(
    private readonly ctx: DomainContext,
    private readonly policy: RetryPolicy,
    private readonly pace: CommitPace,
  ) {}

  /**
   * Resolves once the outcome is committed, with the endpoint's failures in a row after it;
   * LostClaimError when the claim lapsed meanwhile.
   */
  record(attempt: ClaimedAttempt, sent: SentAttempt): Promise<number> {
    return new Promise((resolve, reject) => this.add({ kind: 'outcome', attempt, sent, resolve, reject }));
  }

  /** Lets go of a queue after the outcomes recorded before; false when the claim had been lost. */
  release(claim: QueueClaim): Promise<Released> {
    return new Promise((resolve, reject) => this.add({ kind: 'release', claim, resolve, reject }));
  }

  private add(job: Job): void {
    this.waiting.push(job);
    if (!this.writing) void this.writeAll();
    else if (this.pause && !this.pause.urgent && isUrgent(job)) {
      const { timer, resolve } = this.pause;
      clearTimeout(timer);
      this.pause = null;
      this.pauseBeforeCommit(true, resolve);
    }
  }

  /** Waits until the pace allows the next commit, a turn of the event loop at least (the writes yield only to promise jobs, never to I/O, so without a turn no group forms). */
  private pauseBeforeCommit(urgent: boolean, resolve: () => void): void {
    const wait = this.lastCommitStarted + (urgent ? this.pace.urgentEveryMs : this.pace.deliveredEveryMs) - performance.now();
    if (wait <= 0) {
      setImmediate(resolve);
      return;
    }
    const timer = setTimeout(() => {
      this.pause = null;
      resolve();
    }, wait);
    this.pause = { timer, urgent, resolve };
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const urgent = this.waiting.some(isUrgent);
        await new Promise<void>((resolve) => this.pauseBeforeCommit(urgent, resolve));
        this.lastCommitStarted = performance.now();
        await this.writeGroup(this.waiting.splice(0, GROUP_AT_MOST));
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeGroup(jobs: Job[]): Promise<void> {
    const group = jobs.filter((job) => {
      if (job.kind !== 'release' || !this.unwritten.has(queueClaimOf(job))) return true;
      job.reject(this.unwritten.get(queueClaimOf(job)));
      this.unwritten.delete(queueClaimOf(job));
      return false;
    });
    const results = new Map<Job, unknown>();
    // Per endpoint, a group holds one batch's jobs: its 2xx outcomes, at most one other (which ended the
    // batch) and its release. So the outcomes are written first, then the releases.
    const outcomes = group.filter((job): job is Extract<Job, { kind: 'outcome' }> => job.kind === 'outcome');
    let upkeep = false;
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        const endpointIds = group.map((job) => (job.kind === 'outcome' ? job.attempt.endpoint_id : job.claim.endpointId));
        await lockQueues(trx, [...new Set(endpointIds)]);
        const recorded = await recordOutcomes(trx, this.ctx, this.policy, outcomes);
        outcomes.forEach((job, index) => results.set(job, recorded[index]));
        const releases = group.filter((job): job is Extract<Job, { kind: 'release' }> => job.kind === 'release');
        upkeep = leftUpkeepWork(trx);
        // The releases commit the group as they go, so that its queues' locks are not held for one more
        // round trip while the worker's event loop gets round to the COMMIT (writes for those endpoints
        // wait for them); a queue let go with work due is for any worker to take, here or in another process.
        if (releases.length === 0) return;
        const released = await releaseQueuesAndCommit(trx, releases.map((job) => job.claim), this.ctx.clock.now());
        for (const job of releases) results.set(job, released.get(job.claim.endpointId)!);
      });
    } catch (error) {
      for (const job of group) {
        if (job.kind === 'outcome') this.unwritten.set(queueClaimOf(job), error);
        else this.unwritten.delete(queueClaimOf(job));
        job.reject(error);
      }
      return;
    }
    // A released queue may be ready again, and a failure may have paused an endpoint and queued its
    // e-mail: the worker looks, and the upkeep if mail was queued.
    if (group.some((job) => job.kind === 'release' || !job.sent.outcome.delivered)) wakeAfterCommit(this.ctx, upkeep);
    for (const job of group) {
      const result = results.get(job);
      if (result instanceof LostClaimError) job.reject(result);
      else if (job.kind === 'release') job.resolve(result as Released);
      else job.resolve(result as number);
    }
  }
}

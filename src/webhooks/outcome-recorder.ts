// Group commit of delivery outcomes and of the releases of the queues whose batches ended. A batch does
// not wait for a 2xx to be written before it sends its next attempt, only for anything else (which may
// pause the endpoint or schedule a retry), and a batch's end (the release of its queue) is written after
// its outcomes, in the same transaction or a later one. Outcomes from every batch that arrive while one
// transaction is being written go into the next, and on the embedded store at most one is committed every
// `commitEveryMs`: a commit costs far more than the rows in it (it writes whole pages), so deliveries to
// many endpoints go out at the pace of the network, not of the disk.
import { type DomainContext, notifyWorkers } from '../domain/context.js';
import { lockQueues, type QueueClaim, type Released, releaseQueues } from '../domain/delivery-queues.js';
import type { ClaimedAttempt } from './attempt-claims.js';
import { LostClaimError, type RetryPolicy, recordOutcomes, type SentAttempt } from './attempt-outcome.js';

type Job =
  | { kind: 'outcome'; attempt: ClaimedAttempt; sent: SentAttempt; resolve: (failures: number) => void; reject: (error: unknown) => void }
  | { kind: 'release'; claim: QueueClaim; resolve: (released: Released) => void; reject: (error: unknown) => void };

/** Jobs written in one transaction at most; more wait for the next. */
const GROUP_AT_MOST = 500;

export class OutcomeRecorder {
  private readonly waiting: Job[] = [];
  private writing = false;
  private lastCommitStarted = 0;

  constructor(
    private readonly ctx: DomainContext,
    private readonly policy: RetryPolicy,
    /** The least time between two commits' starts. */
    private readonly commitEveryMs: number,
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
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        // A turn of the event loop at least, so that the answers that arrived meanwhile join this group.
        // (The writes themselves yield only to promise jobs, never to I/O, so without it no group forms.)
        const wait = this.lastCommitStarted + this.commitEveryMs - performance.now();
        await new Promise((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
        this.lastCommitStarted = performance.now();
        await this.writeGroup(this.waiting.splice(0, GROUP_AT_MOST));
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeGroup(group: Job[]): Promise<void> {
    const results = new Map<Job, unknown>();
    // Per endpoint, a group holds one batch's jobs: its 2xx outcomes, at most one other (which ended the
    // batch) and its release. So the outcomes are written first, then the releases.
    const outcomes = group.filter((job): job is Extract<Job, { kind: 'outcome' }> => job.kind === 'outcome');
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        const endpointIds = group.map((job) => (job.kind === 'outcome' ? job.attempt.endpoint_id : job.claim.endpointId));
        await lockQueues(trx, [...new Set(endpointIds)]);
        const recorded = await recordOutcomes(trx, this.ctx, this.policy, outcomes);
        outcomes.forEach((job, index) => results.set(job, recorded[index]));
        const releases = group.filter((job): job is Extract<Job, { kind: 'release' }> => job.kind === 'release');
        const released = await releaseQueues(trx, releases.map((job) => job.claim));
        for (const job of releases) results.set(job, released.get(job.claim.endpointId)!);
        // A queue let go with work due is for any worker to take, here or in another process.
        const now = this.ctx.clock.now().getTime();
        if ([...released.values()].some((queue) => queue && queue.readyAt !== null && queue.readyAt.getTime() <= now)) await notifyWorkers(this.ctx, trx);
      });
    } catch (error) {
      for (const job of group) job.reject(error);
      return;
    }
    // A released queue may be ready again, and a failure may have paused an endpoint and queued its
    // e-mail: the worker and the upkeep look.
    if (group.some((job) => job.kind === 'release' || !job.sent.outcome.delivered)) this.ctx.outbox.wake();
    for (const job of group) {
      const result = results.get(job);
      if (result instanceof LostClaimError) job.reject(result);
      else if (job.kind === 'release') job.resolve(result as Released);
      else job.resolve(result as number);
    }
  }
}

// Group commit of delivery outcomes. Each endpoint's batch waits for an attempt's outcome to be recorded
// before it sends the next (a 410 must stop the rest), but the batches of different endpoints need not
// each pay for a commit: outcomes that arrive while one transaction is being written are recorded
// together in the next. On the embedded store a commit costs more than the statements in it, so this is
// what lets deliveries to many endpoints go out at the pace of the network rather than of the disk.
import type { DomainContext } from '../domain/context.js';
import type { ClaimedAttempt } from './attempt-claims.js';
import { LostClaimError, type RetryPolicy, type SentAttempt, recordOutcomeIn } from './attempt-outcome.js';

interface Pending {
  attempt: ClaimedAttempt;
  sent: SentAttempt;
  resolve: (failures: number) => void;
  reject: (error: unknown) => void;
}

/** Outcomes written in one transaction at most; more wait for the next. */
const GROUP_AT_MOST = 200;

export class OutcomeRecorder {
  private readonly waiting: Pending[] = [];
  private writing = false;

  constructor(
    private readonly ctx: DomainContext,
    private readonly policy: RetryPolicy,
  ) {}

  /**
   * Resolves once the outcome is committed, with the endpoint's failures in a row after it;
   * LostClaimError when the claim lapsed meanwhile.
   */
  record(attempt: ClaimedAttempt, sent: SentAttempt): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ attempt, sent, resolve, reject });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        // A turn of the event loop first: the answers that arrived meanwhile join this group. (The writes
        // themselves yield only to promise jobs, never to I/O, so without this no group would form.)
        await new Promise((resolve) => setImmediate(resolve));
        await this.writeGroup(this.waiting.splice(0, GROUP_AT_MOST));
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeGroup(group: Pending[]): Promise<void> {
    const results = new Map<Pending, number | LostClaimError>();
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        for (const pending of group) {
          try {
            results.set(pending, await recordOutcomeIn(trx, this.ctx, this.policy, pending.attempt, pending.sent));
          } catch (error) {
            // A lapsed claim wrote nothing; the others' outcomes still stand.
            if (!(error instanceof LostClaimError)) throw error;
            results.set(pending, error);
          }
        }
      });
    } catch (error) {
      for (const pending of group) pending.reject(error);
      return;
    }
    // A failure may have paused an endpoint and queued its e-mail: the mail sender is woken.
    if (group.some((pending) => !pending.sent.outcome.delivered)) this.ctx.outbox.wake();
    for (const pending of group) {
      const result = results.get(pending)!;
      if (result instanceof LostClaimError) pending.reject(result);
      else pending.resolve(result);
    }
  }
}

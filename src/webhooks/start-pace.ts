// The pace at which the failing lane starts probes (src/webhooks/worker.ts). Starts are allowed at
// `perSecond`, saved up for a tenth of a second at most (at least one), so that a wave of failures goes
// out in a steady trickle rather than in bursts. Once the saved-up starts run low, the lane waits until
// a twentieth of a second's worth has come back and then takes them together: under a wave, every start
// would otherwise be a claim of its own (a statement, a read and a commit for one probe: on SQLite about
// 200 claims a second, each taking one queue, in the bad-day benchmark; bench/CHANGES.md). A lone
// failing endpoint never waits for a group: the saved-up starts are full when it comes.
// Time is the caller's clock, in milliseconds.
export class StartPace {
  /** Starts saved up at most. */
  private readonly most: number;
  /** Starts taken together at least, once the saved-up ones run low. */
  private readonly group: number;
  private available: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    now: number,
  ) {
    this.most = Math.max(1, Math.ceil(perSecond / 10));
    this.group = Math.max(1, Math.ceil(perSecond / 20)); // never more than `most`
    this.available = this.most;
    this.at = now;
  }

  /** Whole starts allowed now: none while fewer than a group's worth are saved up. */
  allowed(now: number): number {
    this.available = Math.min(this.most, this.available + (Math.max(0, now - this.at) * this.perSecond) / 1000);
    this.at = now;
    return this.available >= this.group ? Math.floor(this.available) : 0;
  }

  took(starts: number): void {
    this.available -= starts;
  }

  /** When starts are allowed again (now, if they are). */
  nextAt(now: number): number {
    if (this.allowed(now) > 0) return now;
    return now + ((this.group - this.available) * 1000) / this.perSecond;
  }
}

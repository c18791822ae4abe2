// Rate limits counted in a store every process shares (PostgreSQL's rate_limits table, Redis) without a
// round trip per request (issue 36). Counted request by request, one busy key cost a round trip each and,
// in PostgreSQL, a queue on the key's one row that every request of every process waited in: 0.2 of the
// embedded store's rate for one organization key's traffic. So each process takes a key's requests from
// the shared window in leases, several points at a time, and hands them to its requests from memory.
//
// The bounds (docs/decisions.md, "Rate limits leased in blocks"):
// - Never more than the limit: a lease is cut to what the window has left when it is taken, and a point
//   is only ever given out once, so a window admits at most `limit` requests over all processes.
// - Refused early by at most what other processes hold unused: a process asks for its next lease only
//   when the last is spent, and a lease is at most LEASE_AT_MOST points and at most 1/LEASE_SHARE of what
//   the window had left, so below 2 × LEASE_SHARE points left every lease is one point, taken by the
//   request that asked for it. A lease starts at one point in each window and at most doubles each time,
//   so a key with few requests holds few points. One process alone is exact: its unused points are its own.
// - Once a window is spent, this process refuses the key's requests until it ends without asking the
//   store (the shared window cannot open again before then).
// RateLimit-Remaining is the window's limit less what every process has taken, plus this process's unused
// points: exact with one process, with several what this one can still admit.
import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateState, RequestCounter, RequestRateLimit } from './rate-limit.js';

/** The most points one lease takes from a window. */
export const LEASE_AT_MOST = 100;
/** A lease takes at most this fraction (1/n) of what the window has left. */
export const LEASE_SHARE = 16;

interface Lease {
  /** Points taken from the shared window and not yet given to a request. */
  left: number;
  /** The shared window's count after this process's last lease: every process's leases together. */
  counted: number;
  /** When the shared window ends, on this process's clock (ms since the epoch). */
  endsAt: number;
  /** The size of the last lease asked for in this window. */
  size: number;
  /** The lease being asked for; the key's requests that find none left wait for it. */
  asking: Promise<void> | null;
}

export class LeasingRateLimit implements RequestRateLimit {
  private readonly leases = new Map<string, Lease>();
  private sweptAt = 0;

  constructor(
    private readonly counter: RequestCounter,
    readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(bucket: string): Promise<RateState> {
    for (;;) {
      const now = this.now();
      this.sweep(now);
      let lease = this.leases.get(bucket);
      if (lease !== undefined && lease.asking === null && lease.endsAt <= now) {
        this.leases.delete(bucket);
        lease = undefined;
      }
      if (lease !== undefined && lease.left > 0) {
        lease.left--;
        return this.state(lease, now, true);
      }
      if (lease?.asking) {
        await lease.asking;
        continue;
      }
      if (lease !== undefined && lease.counted >= this.limit) return this.state(lease, now, false);
      if (lease === undefined) {
        lease = { left: 0, counted: 0, endsAt: 0, size: 0, asking: null };
        this.leases.set(bucket, lease);
      }
      const asked = lease;
      asked.asking = this.ask(bucket, asked).finally(() => (asked.asking = null));
      await asked.asking;
    }
  }

  /** Takes the next lease of the bucket's window from the shared counter. */
  private async ask(bucket: string, lease: Lease): Promise<void> {
    const left = this.limit - lease.counted;
    const size = Math.max(1, Math.min(LEASE_AT_MOST, 2 * lease.size, Math.floor(left / LEASE_SHARE)));
    // A failure (the store unavailable) goes to every request waiting for this lease; the next asks again.
    const res: RateLimiterRes = await this.counter.count(bucket, size);
    const before = res.consumedPoints - size;
    lease.left = Math.max(0, Math.min(size, this.limit - before));
    lease.counted = res.consumedPoints;
    lease.endsAt = this.now() + res.msBeforeNext;
    // A window that opened with this lease grows its leases from one again.
    lease.size = res.isFirstInDuration ? 1 : size;
  }

  private state(lease: Lease, now: number, allowed: boolean): RateState {
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - lease.counted + lease.left),
      resetSeconds: Math.max(1, Math.ceil((lease.endsAt - now) / 1000)),
      allowed,
    };
  }

  /** Forgets the leases of ended windows, at most once a second, so that keys seen once do not stay. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 1000) return;
    this.sweptAt = now;
    for (const [bucket, lease] of this.leases) if (lease.asking === null && lease.endsAt <= now) this.leases.delete(bucket);
  }
}

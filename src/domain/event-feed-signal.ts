// Wakes requests that wait on the events feed (`wait`), from the same signals that wake the delivery
// workers: a commit in this process (the outbox's in-process wake-up, on both stores) and, on PostgreSQL,
// the `guide_service_outbox` notification that every transaction recording an event sends with its commit.
// A waiter re-reads its page when woken, and on its own every FALLBACK_MS as well, so that a notification
// lost while the listening connection was down, an event held back by a transaction still running (the
// feed shows only settled transactions on PostgreSQL), or a commit by another SQLite process costs at most
// that much delay, never a missed event.
// Waiters are counted per key, so that one key cannot hold a process's connections open.

/** How often a waiter looks again without being woken. */
export const FALLBACK_MS = 2000;
/** Requests one key may hold waiting in one process (docs/decisions.md "Events feed"). */
export const WAITS_PER_KEY = 10;

export interface FeedWait {
  /** Call before each read of the page: a wake-up after this point is not lost while the read runs. */
  look(): void;
  /**
   * Resolves when something may have been recorded since `look` (true), after `ms` at most (false), or at
   * once when closing.
   */
  next(ms: number): Promise<boolean>;
  release(): void;
}

export class EventFeedSignal {
  private readonly waiters = new Set<(woken?: boolean) => void>();
  private readonly heldByKey = new Map<string, number>();
  private lastSeq: number | null | undefined = undefined;
  private probing = false;
  private probeAgain = false;
  private wakePending = false;
  private closed = false;
  /** Counts wake-ups, so that one that came while a waiter was reading is seen when it waits. */
  private wakeups = 0;

  constructor(
    /** The newest event's seq: tells a commit that recorded events from one that did not. */
    private readonly newestSeq: () => Promise<number | null>,
    private readonly waitsPerKey = WAITS_PER_KEY,
  ) {}

  get waiting(): number {
    return this.waiters.size;
  }

  /** Wake-ups so far: taken before a first read, and handed to `hold`, so none is lost meanwhile. */
  get generation(): number {
    return this.wakeups;
  }

  get closing(): boolean {
    return this.closed;
  }

  /**
   * A transaction of this process committed. Most record no event, so one look at the newest event
   * decides whether waiters read again; looks overlapping a running one are folded into one more.
   */
  committed(): void {
    // Nobody waits yet; a request still reading its first page will read once more rather than miss this.
    if (this.heldByKey.size === 0) {
      this.wakeups++;
      return;
    }
    if (this.probing) {
      this.probeAgain = true;
      return;
    }
    this.probing = true;
    void (async () => {
      do {
        this.probeAgain = false;
        try {
          const seq = await this.newestSeq();
          if (seq !== this.lastSeq) this.wakeAll();
          this.lastSeq = seq;
        } catch {
          this.wakeAll();
        }
      } while (this.probeAgain);
      this.probing = false;
    })();
  }

  /** Events were committed somewhere (a PostgreSQL notification): every waiter reads again. */
  notified(): void {
    this.wakeAll();
  }

  /**
   * Holds one wait for `keyId`, counting wake-ups from `since` (the generation before the read that found
   * nothing), or null when the key already holds as many as it may.
   */
  hold(keyId: string, since: number): FeedWait | null {
    const held = this.heldByKey.get(keyId) ?? 0;
    if (held >= this.waitsPerKey) return null;
    this.heldByKey.set(keyId, held + 1);
    let released = false;
    let current: ((woken?: boolean) => void) | null = null;
    let seen = since;
    return {
      look: () => {
        seen = this.wakeups;
      },
      next: (ms) =>
        new Promise<boolean>((resolve) => {
          if (this.closed || released || this.wakeups !== seen) return resolve(true);
          const timer = setTimeout(() => done(false), Math.max(0, Math.min(ms, FALLBACK_MS)));
          const self = this;
          function done(woken = true) {
            clearTimeout(timer);
            self.waiters.delete(done);
            if (current === done) current = null;
            resolve(woken);
          }
          current = done;
          this.waiters.add(done);
        }),
      release: () => {
        if (released) return;
        released = true;
        current?.();
        const left = (this.heldByKey.get(keyId) ?? 1) - 1;
        if (left > 0) this.heldByKey.set(keyId, left);
        else this.heldByKey.delete(keyId);
      },
    };
  }

  /** The process is stopping: every waiter answers now. */
  close(): void {
    this.closed = true;
    for (const wake of [...this.waiters]) wake();
  }

  // Folded into one turn, so that a burst of commits wakes each waiter once.
  private wakeAll(): void {
    this.wakeups++;
    if (this.wakePending) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      for (const wake of [...this.waiters]) wake();
    });
  }
}

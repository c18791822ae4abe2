// Addresses that spent their budget of wrong credentials (admin token, session cookie), with when their
// window ends. Until then the admin token is not even compared: otherwise only wrong guesses would be
// refused, a right one would still get in, and 429 against 200 would tell the guesser which was which.
// Kept per process, like the count that decides it is kept per store.

// Past this many entries, adding one first forgets the addresses whose window has ended.
const PRUNE_AT = 10_000;

export class CredentialLockout {
  private readonly until = new Map<string, number>();

  /** Milliseconds left of the address's lockout; 0 when it is not locked out. */
  remainingMs(address: string, now: number): number {
    const until = this.until.get(address);
    if (until === undefined) return 0;
    if (until <= now) {
      this.until.delete(address);
      return 0;
    }
    return until - now;
  }

  lock(address: string, until: number, now: number): void {
    if (this.until.size >= PRUNE_AT) for (const [known, end] of this.until) if (end <= now) this.until.delete(known);
    this.until.set(address, until);
  }
}

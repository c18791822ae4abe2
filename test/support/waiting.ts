// Waiting in tests: a plain pause, and polling until something holds.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  /** How long to keep trying, in ms (default 10 s). */
  timeoutMs?: number;
  /** The pause between two tries, in ms (default 20). */
  intervalMs?: number;
  /** Count a probe that throws as "not yet" rather than failing (for a process that may not listen yet). */
  retryOnError?: boolean;
}

type NotYet = undefined | null | false;

/**
 * Polls `probe` until it answers something truthy, and answers that; fails after the time-out with a
 * message naming `what` it waited for. A number for `options` is the time-out in ms.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | NotYet> | T | NotYet, options: number | WaitOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 20, retryOnError = false } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = retryOnError ? await (async () => probe())().catch(() => null) : await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

// When the next attempt of a failed delivery is due (decisions §1, §6): WEBHOOK_RETRY_DELAYS gives the
// delay before each retry; each is shortened by up to 10 % of jitter so that many failures at once do not
// come back at once. Shortened, not stretched: the whole schedule then stays within its 22.6 hours, and
// the last retry is sent before a day of failures pauses the endpoint.
export const JITTER = 0.1;

/**
 * The delay before the retry that follows attempt `attemptNumber` (1 is the first attempt), or null
 * when the schedule is used up.
 */
export function retryDelayMs(delays: readonly number[], attemptNumber: number, random: () => number = Math.random): number | null {
  const base = delays[attemptNumber - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER * random()));
}

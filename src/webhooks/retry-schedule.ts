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

/**
 * How long a `Retry-After` value asks to wait from `now`: whole seconds, or an HTTP date; null when it
 * is neither. A date in the past asks for nothing.
 */
export function retryAfterMs(value: string | null | undefined, now: Date): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,12}$/.test(text)) return Number(text) * 1000;
  // Every HTTP date form starts with the weekday (RFC 9110 §5.6.7); Date.parse alone would take fragments.
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  // The asctime form names no zone, and Date.parse would read it as local time: HTTP dates are GMT.
  const at = Date.parse(/GMT$/.test(text) ? text : `${text} GMT`);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

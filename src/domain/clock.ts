/** The service's notion of now; tests replace it to move time without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** RFC 3339, UTC, milliseconds, trailing Z (decisions §2). */
export function timestamp(date: Date): string {
  return date.toISOString();
}

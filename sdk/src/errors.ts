// One error class for everything a call can end in short of its answer: a problem the service answered
// (RFC 9457, its `code` from the service's catalogue), or no answer at all (`network_error`, `timeout`).
// `code` is a union of string literals, so `switch (error.code)` can be checked for exhaustiveness.
import type { components } from './generated/v1.js';

export type Problem = components['schemas']['Problem'];
/** The codes the service answers with (its error catalogue, from the OpenAPI document). */
export type ProblemCode = Problem['code'];
/** Codes of calls that got no answer: the connection failed, or the time-out passed. */
export type NoAnswerCode = 'network_error' | 'timeout';
export type ErrorCode = ProblemCode | NoAnswerCode;

/** The rate limit as the last answer stated it (RateLimit-* headers, spec §7). */
export interface RateLimitState {
  /** Requests allowed in the window. */
  limit: number;
  /** Requests left in the window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export class GuideServiceError extends Error {
  override readonly name = 'GuideServiceError';

  constructor(
    /** The problem's code, or why there was no answer. */
    readonly code: ErrorCode,
    /** The HTTP status; 0 when there was no answer. */
    readonly status: number,
    /** What is wrong, in the service's words (for invalid_request it names the parameter). */
    readonly detail: string,
    /** The request id to quote to support; null when there was no answer. */
    readonly requestId: string | null,
    /** The rate limit as the answer stated it; null when there was no answer or it said nothing. */
    readonly rateLimit: RateLimitState | null,
    /** The whole problem document, when the service answered one. */
    readonly problem: Problem | null,
    options?: { cause?: unknown },
  ) {
    super(`${code}${status ? ` (${status})` : ''}: ${detail}`, options);
  }
}

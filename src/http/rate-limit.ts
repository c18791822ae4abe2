// Per-key request rate (spec §8, decisions §4): a 60-second window per key, and per client address for
// requests refused with 401. Every response carries the window's state in the RateLimit headers.
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { FastifyReply } from 'fastify';
import { ProblemError } from './problem.js';

export const RATE_WINDOW_SECONDS = 60;

export interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  allowed: boolean;
}

export class RequestRateLimit {
  constructor(
    private readonly limiter: RateLimiterAbstract,
    readonly limit: number,
  ) {}

  /** Counts one request against the bucket and says whether it may go on. */
  async take(bucket: string): Promise<RateState> {
    try {
      const res = await this.limiter.consume(bucket, 1);
      return this.state(res, true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.state(rejection, false);
      throw rejection;
    }
  }

  private state(res: RateLimiterRes, allowed: boolean): RateState {
    return {
      limit: this.limit,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      allowed,
    };
  }
}

export function applyRateHeaders(reply: FastifyReply, state: RateState): void {
  reply.header('ratelimit-limit', String(state.limit));
  reply.header('ratelimit-remaining', String(state.remaining));
  reply.header('ratelimit-reset', String(state.resetSeconds));
  reply.header('ratelimit-policy', `"default";q=${state.limit};w=${RATE_WINDOW_SECONDS}`);
  reply.header('ratelimit', `"default";r=${state.remaining};t=${state.resetSeconds}`);
}

export function rateLimited(state: RateState): ProblemError {
  return new ProblemError('rate_limited', `Over ${state.limit} requests in ${RATE_WINDOW_SECONDS} seconds; retry after ${state.resetSeconds} seconds`, {
    'retry-after': String(state.resetSeconds),
  });
}

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

/**
 * Counts `points` requests of a bucket in its current window: answers the count so far, these included,
 * and the time left.
 */
export interface RequestCounter {
  count(bucket: string, points: number): Promise<RateLimiterRes>;
}

/** A rate-limiter-flexible limiter as a counter: past its points it rejects with the count, which is an answer here. */
export function counterOf(limiter: RateLimiterAbstract): RequestCounter {
  return {
    count: (bucket, points) =>
      limiter.consume(bucket, points).catch((outcome: unknown) => {
        if (outcome instanceof RateLimiterRes) return outcome;
        throw outcome;
      }),
  };
}

/** A request rate limit: each request is taken from its bucket's window, or refused. */
export interface RequestRateLimit {
  readonly limit: number;
  /** Takes one request from the bucket's window and says whether it may go on, with the window's state. */
  take(bucket: string): Promise<RateState>;
}

/** Counts every request in the counter: for the memory counter of the embedded store, where a count costs nothing. */
export class CountingRateLimit implements RequestRateLimit {
  constructor(
    private readonly counter: RequestCounter,
    readonly limit: number,
  ) {}

  async take(bucket: string): Promise<RateState> {
    const res = await this.counter.count(bucket, 1);
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - res.consumedPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      allowed: res.consumedPoints <= this.limit,
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

/** Takes the RateLimit headers off an answer whose reason is not the rate window (error-catalogue.ts). */
export function removeRateHeaders(reply: FastifyReply): void {
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'ratelimit']) reply.removeHeader(name);
}

export function rateLimited(state: RateState): ProblemError {
  return new ProblemError('rate_limited', `Over ${state.limit} requests in ${RATE_WINDOW_SECONDS} seconds; retry after ${state.resetSeconds} seconds`, {
    'retry-after': String(state.resetSeconds),
  });
}

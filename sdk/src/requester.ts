// One call to the service, retried as a well-behaved client does: 429 and 503 (and a balancer's 502 and
// 504) after their Retry-After (seconds or an HTTP date), never sooner, with a little jitter and a cap;
// network failures and time-outs after a short exponential back-off. A GET is safe to send again; a
// write carries an Idempotency-Key, new for each call and the same on each of its retries, so the service
// does it once however often it is sent (shared decisions §11), and a retry that meets the first still
// running (409 idempotency_key_in_use) waits as it is told.
import { GuideServiceError, type Problem, type RateLimitState } from './errors.js';

export interface RequesterOptions {
  baseUrl: string;
  apiKey: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The longest wait before a retry; a Retry-After beyond it ends the call with the error at once. */
  maxRetryDelayMs: number;
  fetch: typeof fetch;
  /** Jitter source, in [0, 1). */
  random: () => number;
}

/** Per call. */
export interface RequestOptions {
  /** Ends the call (and any wait before a retry) with the signal's reason. */
  signal?: AbortSignal;
  /** Per attempt, instead of the client's. */
  timeoutMs?: number;
  /**
   * A write's Idempotency-Key; by default a new UUID per call. Give your own to make a write safe to
   * repeat across calls (a job that may run twice): the service answers the repeat with the first answer.
   */
  idempotencyKey?: string;
}

export type Query = Record<string, string | number | undefined>;

/** Which of the service's interfaces a call goes to: the read-only v1, or the management API. */
export type Api = '/v1' | '/admin/v1';

export interface Call {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  api?: Api;
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
}

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const FIRST_BACKOFF_MS = 250;

export class Requester {
  /** The rate limit as the last answer stated it. */
  rateLimit: RateLimitState | null = null;

  constructor(private readonly options: RequesterOptions) {}

  get<T>(path: string, query: Query = {}, call: RequestOptions = {}): Promise<T> {
    return this.request<T>(path, { query }, call);
  }

  /** Answers the JSON body, or null for a 202 or 204 without one. */
  async request<T>(path: string, { method = 'GET', api = '/v1', query = {}, body }: Call, call: RequestOptions = {}): Promise<T> {
    const url = this.url(api, path, query);
    const init: RequestInit = { method, headers: { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' } };
    if (method !== 'GET') {
      const headers = init.headers as Record<string, string>;
      headers['idempotency-key'] = call.idempotencyKey ?? globalThis.crypto.randomUUID();
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
    }
    for (let attempt = 0; ; attempt += 1) {
      const retriesLeft = attempt < this.options.maxRetries;
      let response: Response;
      try {
        response = await this.send(url, init, call);
      } catch (error) {
        if (!(error instanceof GuideServiceError) || !retriesLeft) throw error;
        await sleep(this.backoff(attempt), call.signal);
        continue;
      }
      const rateLimit = rateLimitState(response.headers);
      if (rateLimit) this.rateLimit = rateLimit;
      if (response.ok) return (response.status === 204 || response.status === 202 ? await emptyOr(response) : await response.json()) as T;
      const error = await problemError(response, rateLimit);
      const retried = RETRIED_STATUSES.has(response.status) || error.code === 'idempotency_key_in_use';
      const retryAfter = retried ? retryAfterMs(response.headers.get('retry-after'), Date.now()) : null;
      const wait = retryAfter ?? (retried ? this.backoff(attempt) : null);
      if (wait === null || !retriesLeft || wait > this.options.maxRetryDelayMs) throw error;
      // Never before the time the service named; the jitter spreads clients that were refused together.
      await sleep(Math.min(this.options.maxRetryDelayMs, wait + this.options.random() * Math.min(1_000, wait * 0.2)), call.signal);
    }
  }

  private url(api: Api, path: string, query: Query): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const text = search.toString();
    return `${this.options.baseUrl.replace(/\/+$/, '')}${api}${path}${text ? `?${text}` : ''}`;
  }

  /** One attempt; a failure without an answer becomes `network_error` or `timeout`, an abort by the caller its reason. */
  private async send(url: string, init: RequestInit, call: RequestOptions): Promise<Response> {
    call.signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(call.timeoutMs ?? this.options.timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    try {
      return await this.options.fetch(url, { ...init, signal });
    } catch (error) {
      call.signal?.throwIfAborted();
      if (timeout.aborted) return noAnswer('timeout', `No answer within ${call.timeoutMs ?? this.options.timeoutMs} ms`, error);
      return noAnswer('network_error', error instanceof Error ? error.message : String(error), error);
    }
  }

  private backoff(attempt: number): number {
    return FIRST_BACKOFF_MS * 2 ** attempt * (0.5 + this.options.random());
  }
}

/** The JSON body of a 202 or 204, if it has one. */
async function emptyOr(response: Response): Promise<unknown> {
  const text = await response.text();
  return text === '' ? null : JSON.parse(text);
}

function noAnswer(code: 'timeout' | 'network_error', detail: string, cause: unknown): never {
  throw new GuideServiceError(code, 0, detail, null, null, null, { cause });
}

function rateLimitState(headers: Headers): RateLimitState | null {
  const [limit, remaining, reset] = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((name) => Number(headers.get(name) ?? NaN));
  if (!Number.isFinite(limit) || !Number.isFinite(remaining) || !Number.isFinite(reset)) return null;
  return { limit: limit!, remaining: remaining!, resetSeconds: reset! };
}

async function problemError(response: Response, rateLimit: RateLimitState | null): Promise<GuideServiceError> {
  const requestId = response.headers.get('x-request-id');
  const text = await response.text();
  let problem: Problem | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isProblem(parsed)) problem = parsed;
  } catch {
    // Not JSON: an answer from something in front of the service (a proxy), described below.
  }
  if (problem) return new GuideServiceError(problem.code, response.status, problem.detail, problem.request_id, rateLimit, problem);
  // Not the service's problem document; the closest code by status, so that a switch still holds.
  const code = response.status === 429 ? 'rate_limited' : response.status === 404 ? 'not_found' : 'internal_error';
  return new GuideServiceError(code, response.status, text.slice(0, 200) || response.statusText, requestId, rateLimit, null);
}

function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const { code, detail, status } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof detail === 'string' && typeof status === 'number';
}

/** Retry-After in milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3); null if absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

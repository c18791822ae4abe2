// Retries as a well-behaved client does them, with a scripted fetch (the service's rate window is a whole
// minute, too long to wait out in a test; client.test.ts shows a real 429 read and surfaced): 429 and
// 503 waited out for their Retry-After (seconds or an HTTP date) and never less; a Retry-After past the
// cap ends the call at once; network failures and time-outs retried; an abort by the caller never is.
import { describe, expect, it } from 'vitest';
import { GuideService, GuideServiceError } from '../src/index.js';

type Scripted = Response | Error | 'hang';

/** A fetch that answers from `script` in turn and notes when each request came. */
function scriptedFetch(script: Scripted[]) {
  const calls: number[] = [];
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    calls.push(Date.now());
    const next = script.shift();
    if (next === undefined) throw new Error('the script ran out');
    if (next instanceof Error) throw next;
    if (next === 'hang') {
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    return next;
  };
  return { fetch, calls };
}

const teams = () => new Response(JSON.stringify({ data: [] }), { status: 200, headers: { 'content-type': 'application/json' } });
function problem(status: number, code: string, headers: Record<string, string> = {}): Response {
  const body = { type: `http://api.test/docs#${code}`, title: code, status, detail: `${code} detail`, code, request_id: 'req-1' };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-1', ...headers } });
}
const rateHeaders = { 'ratelimit-limit': '600', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' };

function client(fetch: typeof globalThis.fetch, options: { maxRetryDelayMs?: number; timeoutMs?: number } = {}) {
  return new GuideService({ apiKey: 'gsk_test', baseUrl: 'http://api.test/', fetch, ...options });
}

describe('retries', () => {
  it('429 with Retry-After in seconds: waits at least that long, then succeeds', async () => {
    const { fetch, calls } = scriptedFetch([problem(429, 'rate_limited', { 'retry-after': '1', ...rateHeaders }), teams()]);
    expect(await client(fetch).teams.list()).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(1_000);
    // The jitter stays small: at most a fifth of the wait.
    expect(calls[1]! - calls[0]!).toBeLessThan(1_400);
  });

  it('503 with Retry-After as an HTTP date: waits until then', async () => {
    const at = new Date(Math.ceil((Date.now() + 1_500) / 1_000) * 1_000);
    const { fetch, calls } = scriptedFetch([problem(503, 'internal_error', { 'retry-after': at.toUTCString() }), teams()]);
    await client(fetch).teams.list();
    expect(calls[1]!).toBeGreaterThanOrEqual(at.getTime() - 5);
  });

  it('a Retry-After past the cap ends the call at once with the error and the rate limit', async () => {
    const { fetch, calls } = scriptedFetch([problem(429, 'rate_limited', { 'retry-after': '60', ...rateHeaders })]);
    const error = await client(fetch, { maxRetryDelayMs: 10_000 }).teams.list().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GuideServiceError);
    expect(error).toMatchObject({ code: 'rate_limited', status: 429, requestId: 'req-1', rateLimit: { limit: 600, remaining: 0, resetSeconds: 1 } });
    expect(calls).toHaveLength(1);
  });

  it('network failures and time-outs are retried; when they persist the error says which', async () => {
    const recovered = scriptedFetch([new TypeError('fetch failed'), 'hang', teams()]);
    expect(await client(recovered.fetch, { timeoutMs: 200 }).teams.list()).toEqual([]);
    expect(recovered.calls).toHaveLength(3);

    const down = scriptedFetch([new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed')]);
    await expect(client(down.fetch).teams.list()).rejects.toMatchObject({ code: 'network_error', status: 0, requestId: null });
    expect(down.calls).toHaveLength(4);

    const silent = scriptedFetch(['hang', 'hang', 'hang', 'hang']);
    await expect(client(silent.fetch, { timeoutMs: 50 }).teams.list()).rejects.toMatchObject({ code: 'timeout', status: 0 });
  });

  it('the caller’s AbortSignal ends the call with its reason, also while waiting to retry, and is never retried', async () => {
    const hanging = scriptedFetch(['hang', teams()]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the caller gave up')), 50);
    await expect(client(hanging.fetch).teams.list({ signal: controller.signal })).rejects.toThrow('the caller gave up');
    expect(hanging.calls).toHaveLength(1);

    const waiting = scriptedFetch([problem(429, 'rate_limited', { 'retry-after': '5' }), teams()]);
    const impatient = new AbortController();
    setTimeout(() => impatient.abort(new Error('not five seconds')), 50);
    await expect(client(waiting.fetch).teams.list({ signal: impatient.signal })).rejects.toThrow('not five seconds');
    expect(waiting.calls).toHaveLength(1);
  });

  it('other problems are not retried; an answer that is not a problem still becomes a GuideServiceError', async () => {
    const notFound = scriptedFetch([problem(404, 'not_found')]);
    await expect(client(notFound.fetch).guides.get('x')).rejects.toMatchObject({ code: 'not_found', status: 404, detail: 'not_found detail' });
    expect(notFound.calls).toHaveLength(1);
    const proxy = scriptedFetch([new Response('<html>I am a teapot</html>', { status: 418 })]);
    await expect(client(proxy.fetch).teams.list()).rejects.toMatchObject({ code: 'internal_error', status: 418, problem: null });
    expect(proxy.calls).toHaveLength(1);
  });
});

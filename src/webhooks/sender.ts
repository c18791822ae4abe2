// Sends one delivery attempt with undici: keep-alive connections, one deadline for the answer, no
// redirects followed, at most 4 KiB of the answer read, and (unless private networks are allowed) only
// public addresses connected to.
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { BlockedAddressError, isPublicAddress, publicOnlyLookup, type Resolver, systemResolver } from './network-guard.js';

export const RESPONSE_BODY_LIMIT = 4096;

export interface OutgoingDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface DeliveryOutcome {
  /** A 2xx answer arrived within the deadline. */
  delivered: boolean;
  status: number | null;
  /** The first 4 KiB of the answer, as text. */
  body: string | null;
  error: string | null;
  durationMs: number;
  /** The `Retry-After` of a 429 or 503 answer, as it came. */
  retryAfter?: string | null;
}

/** What sends one delivery and reports how it went; it never throws. Tests give the worker their own. */
export interface Transport {
  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
}

/** Answers whose Retry-After the worker follows (decisions §9). */
const THROTTLING = new Set([429, 503]);

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  resolver?: Resolver;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof BlockedAddressError) return error.message;
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT') {
    return `no answer within ${timeoutMs} ms`;
  }
  if (err.cause instanceof BlockedAddressError) return err.cause.message;
  if (err.code === 'EBLOCKED') return err.message ?? 'address not allowed';
  return [err.code, err.message].filter(Boolean).join(': ') || 'the request failed';
}

export class WebhookSender implements Transport {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    const guard = !options.allowPrivateNetworks;
    const base = buildConnector({ ...(guard ? { lookup: publicOnlyLookup(options.resolver ?? systemResolver) } : {}), timeout: options.timeoutMs });
    const connect: buildConnector.connector = (connectOptions, callback) =>
      base(connectOptions, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), null);
        // The address actually connected to, whatever the name resolved to when it was checked.
        if (guard && !isPublicAddress(socket.remoteAddress ?? '')) {
          socket.destroy();
          return callback(new BlockedAddressError(connectOptions.hostname), null);
        }
        return callback(null, socket);
      });
    this.agent = new Agent({ connect, keepAliveTimeout: 30_000, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  }

  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome> {
    const url = new URL(delivery.url);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    // An address written in the URL is refused before connecting; names are checked as they resolve.
    if (!this.options.allowPrivateNetworks && isIP(literal) && !isPublicAddress(literal)) {
      return Promise.resolve({ delivered: false, status: null, body: null, error: new BlockedAddressError(literal).message, durationMs: 0 });
    }
    return new Promise((resolve) => {
      const exchange = new Exchange(this.options.timeoutMs, resolve);
      this.agent.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'POST', headers: delivery.headers, body: delivery.body }, exchange);
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * One attempt's exchange, as undici's dispatcher calls it: the answer's status, its Retry-After when it
 * throttles, and at most RESPONSE_BODY_LIMIT bytes of its body, under one deadline for the whole of it.
 * Written against the dispatcher rather than `request()`, which wraps every answer in a stream, an async
 * iterator and an abort signal: a third of the delivering thread's time went to undici (issue 36).
 */
class Exchange implements Dispatcher.DispatchHandler {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private controller: Dispatcher.DispatchController | null = null;
  private status: number | null = null;
  private retryAfter: string | null = null;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  /** The dispatcher is done with the request: nothing is left to abort. */
  private ended = false;
  private settled = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly resolve: (outcome: DeliveryOutcome) => void,
  ) {
    this.timer = setTimeout(() => this.expire(), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // The deadline passed while the request waited for its connection: it is not sent.
    if (this.settled) controller.abort(new Error('the deadline passed'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode;
    if (THROTTLING.has(statusCode)) this.retryAfter = [headers['retry-after']].flat()[0] ?? null;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    // Enough of the answer: the rest is let go with its connection.
    if (this.size >= RESPONSE_BODY_LIMIT) this.answered();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.answered();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.ended = true;
    // A body cut short (a stall, a reset) keeps what came: the status already decided the outcome.
    if (this.status !== null) this.answered();
    else this.settle({ delivered: false, status: null, body: null, error: describeFailure(error, this.timeoutMs) });
  }

  private expire(): void {
    if (this.status !== null) return this.answered();
    this.settle({ delivered: false, status: null, body: null, error: `no answer within ${this.timeoutMs} ms` });
  }

  private answered(): void {
    const status = this.status!;
    const delivered = status >= 200 && status < 300;
    const error = delivered ? null : status >= 300 && status < 400 ? `redirect answered (${status}); redirects are not followed` : `answered ${status}`;
    const body = wholeCharacters(Buffer.concat(this.chunks).subarray(0, RESPONSE_BODY_LIMIT)).toString('utf8');
    this.settle({ delivered, status, body, error, retryAfter: this.retryAfter });
  }

  private settle(outcome: Omit<DeliveryOutcome, 'durationMs'>): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    // Whatever is still coming is not waited for.
    if (!this.ended) this.controller?.abort(new Error('the exchange ended'));
    this.resolve({ ...outcome, durationMs: Math.round(performance.now() - this.started) });
  }
}

/** Drops a UTF-8 sequence cut off at the end, so the kept text is a true start of the answer. */
function wholeCharacters(bytes: Buffer): Buffer {
  let start = bytes.length - 1;
  while (start >= 0 && start > bytes.length - 4 && (bytes[start]! & 0xc0) === 0x80) start--;
  if (start < 0) return bytes;
  const lead = bytes[start]!;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + length > bytes.length ? bytes.subarray(0, start) : bytes;
}

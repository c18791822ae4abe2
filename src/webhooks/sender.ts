// Sends one delivery attempt with undici: keep-alive connections, one deadline for the answer, no
// redirects followed, at most 4 KiB of the answer read, and (unless private networks are allowed) only
// public addresses connected to.
import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
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

  async send(delivery: OutgoingDelivery): Promise<DeliveryOutcome> {
    const started = performance.now();
    const literal = new URL(delivery.url).hostname.replace(/^\[|\]$/g, '');
    // An address written in the URL is refused before connecting; names are checked as they resolve.
    if (!this.options.allowPrivateNetworks && isIP(literal) && !isPublicAddress(literal)) {
      return { delivered: false, status: null, body: null, error: new BlockedAddressError(literal).message, durationMs: 0 };
    }
    const elapsed = () => Math.round(performance.now() - started);
    let status: number | null = null;
    // One deadline for the whole exchange. (AbortSignal.timeout costs about 40 times as much per request.)
    const deadline = new Deadline();
    const timer = setTimeout(() => deadline.fire(), this.options.timeoutMs);
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        dispatcher: this.agent,
        signal: deadline,
      });
      status = response.statusCode;
      const retryAfter = THROTTLING.has(status) ? [response.headers['retry-after']].flat()[0] ?? null : null;
      const body = await readCapped(response.body);
      const delivered = status >= 200 && status < 300;
      const error = delivered ? null : status >= 300 && status < 400 ? `redirect answered (${status}); redirects are not followed` : `answered ${status}`;
      return { delivered, status, body, error, durationMs: elapsed(), retryAfter };
    } catch (error) {
      return { delivered: false, status, body: null, error: describeFailure(error, this.options.timeoutMs), durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * A deadline as undici takes it: an EventEmitter with `aborted`, which it accepts as a signal. An
 * AbortController's signal is an EventTarget, and making one took 3 % of the delivering thread (issue 36).
 */
class Deadline extends EventEmitter {
  aborted = false;

  fire(): void {
    this.aborted = true;
    this.emit('abort');
  }
}

/** Reads at most RESPONSE_BODY_LIMIT bytes and lets the rest go; a body that stalls keeps what came. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BODY_LIMIT) break;
    }
  } catch {
    // The status already decided the outcome; a body cut short is kept as far as it came.
  } finally {
    body.destroy();
  }
  return wholeCharacters(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT)).toString('utf8');
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

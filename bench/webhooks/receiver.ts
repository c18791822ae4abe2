// The webhook receiver of the benchmark, a process of its own on loopback. By path: /hang/… never answers
// (the request stays open until the sender gives up), /fail/… answers 500 at once, anything else answers
// 200 at once and records, per guide.created delivery, when it arrived (epoch ms, sub-millisecond), which
// endpoint it was for (the path), the guide, the event's created_at and its delivery id. It keeps the
// first deliveries whole (headers and raw body) so that the undici ceiling can replay the very same signed
// requests. Control under /__bench/: GET stats, GET arrivals, GET samples, GET counts (requests by kind),
// POST reset. Pings are answered, not recorded as arrivals.
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface Arrival {
  at: number;
  endpoint: string;
  guideId: string;
  createdAt: string;
  deliveryId: string;
}

/** Requests by what the receiver did with them. */
export interface RequestCounts {
  answered: number;
  failed: number;
  hanging: number;
}

export interface Sample {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ReceiverStats {
  count: number;
  firstAt: number | null;
  lastAt: number | null;
}

const KEPT_SAMPLES = 100;
const REPLAYED_HEADERS = ['content-type', 'user-agent', 'x-service-event', 'x-service-delivery', 'x-service-signature'];

let arrivals: Arrival[] = [];
let samples: Sample[] = [];
let counts: RequestCounts = { answered: 0, failed: 0, hanging: 0 };
const held = new Set<import('node:http').ServerResponse>();

const now = () => performance.timeOrigin + performance.now();

function keep(headers: IncomingHttpHeaders, path: string, body: string): void {
  if (samples.length >= KEPT_SAMPLES) return;
  const kept: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  samples.push({ path, headers: kept, body });
}

function json(response: import('node:http').ServerResponse, value: unknown): void {
  const bytes = JSON.stringify(value);
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(bytes) });
  response.end(bytes);
}

const server = createServer((request, response) => {
  const path = request.url ?? '/';
  if (path.startsWith('/__bench/')) {
    request.resume();
    if (path === '/__bench/stats') {
      return json(response, { count: arrivals.length, firstAt: arrivals[0]?.at ?? null, lastAt: arrivals[arrivals.length - 1]?.at ?? null } satisfies ReceiverStats);
    }
    if (path === '/__bench/arrivals') return json(response, arrivals);
    if (path === '/__bench/samples') return json(response, samples);
    if (path === '/__bench/counts') return json(response, counts);
    if (path === '/__bench/reset' && request.method === 'POST') {
      arrivals = [];
      samples = [];
      counts = { answered: 0, failed: 0, hanging: 0 };
      return json(response, { reset: true });
    }
    response.writeHead(404).end();
    return;
  }
  if (path.startsWith('/hang/')) {
    counts.hanging++;
    request.resume();
    held.add(response);
    response.on('close', () => held.delete(response));
    return;
  }
  if (path.startsWith('/fail/')) {
    counts.failed++;
    request.resume();
    response.writeHead(500, { 'content-length': '0' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const at = now();
    counts.answered++;
    response.writeHead(200, { 'content-length': '0' }).end();
    if (request.headers['x-service-event'] !== 'guide.created') return;
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const event = JSON.parse(body) as { created_at: string; data: { guide: { id: string } } };
      arrivals.push({ at, endpoint: path, guideId: event.data.guide.id, createdAt: event.created_at, deliveryId: String(request.headers['x-service-delivery']) });
      keep(request.headers, path, body);
    } catch {
      process.stderr.write(`receiver: a delivery with a body that is not an event: ${body.slice(0, 200)}\n`);
    }
  });
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  for (const response of held) response.destroy();
  server.close();
  server.closeAllConnections();
  process.exit(0);
});

// What the webhook benchmarks share: the receiver process and its control API (the service's processes
// and the management API are in ../services.ts).
import { benchScript } from '../paths.js';
import { type Child, freePort, spawnChild, waitReady } from '../processes.js';
import type { Arrival, ReceiverStats, RequestCounts, Sample } from './receiver.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ReceiverClient {
  constructor(
    readonly url: string,
    readonly pid: number,
  ) {}

  private async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.url}/__bench/${path}`);
    if (!response.ok) throw new Error(`receiver ${path}: ${response.status}`);
    return (await response.json()) as T;
  }

  stats = () => this.get<ReceiverStats>('stats');
  arrivals = () => this.get<Arrival[]>('arrivals');
  samples = () => this.get<Sample[]>('samples');
  counts = () => this.get<RequestCounts>('counts');
  async reset(): Promise<void> {
    await fetch(`${this.url}/__bench/reset`, { method: 'POST' });
  }

  /** Waits until `count` deliveries arrived or the deadline passed; answers the last stats and whether it timed out. */
  async waitFor(count: number, timeoutMs: number): Promise<{ stats: ReceiverStats; timedOut: boolean }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const stats = await this.stats();
      if (stats.count >= count) return { stats, timedOut: false };
      if (Date.now() > deadline) return { stats, timedOut: true };
      await sleep(50);
    }
  }
}

/** Deliveries per second from the first arrival to the last. */
export const arrivalRate = (stats: ReceiverStats) =>
  stats.count > 1 && stats.firstAt !== null && stats.lastAt !== null && stats.lastAt > stats.firstAt ? (stats.count - 1) / ((stats.lastAt - stats.firstAt) / 1000) : 0;

/** The receiver process: answers by path (see receiver.ts), records guide.created arrivals. */
export async function startReceiver(children: Child[]): Promise<ReceiverClient> {
  const port = await freePort();
  const child = spawnChild('receiver', process.execPath, [benchScript('webhooks/receiver.js')], { PORT: String(port) });
  children.push(child);
  const receiver = new ReceiverClient(`http://127.0.0.1:${port}`, child.pid);
  await waitReady(child, `${receiver.url}/__bench/stats`);
  return receiver;
}

/** Runs `count` calls of `make(n)`, `clients` at a time. */
export async function inParallel(count: number, clients: number, make: (n: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) await make(next++);
    }),
  );
}

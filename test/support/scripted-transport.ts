// A transport for the worker that sends nothing over the network: each delivery is answered as the test
// scripts it, by the path of its endpoint's URL, and a delivery told to hang stays unanswered until the
// test lets it go. It records when each delivery started and which lane counts the worker held then, so
// tests of scheduling see what the worker did without depending on how fast anything runs.
import type { DeliveryOutcome, OutgoingDelivery, Transport } from '../../src/webhooks/sender.js';
import { eventually } from './waiting.js';

export type Reply = { status: number; retryAfter?: string } | 'hang';

export interface Started {
  path: string;
  event: string;
  deliveryId: string;
  body: string;
  /** The worker's batches in flight when the delivery started. */
  inFlight: Readonly<Record<string, number>>;
}

export const HUNG_UP: DeliveryOutcome = { delivered: false, status: null, body: null, error: 'the test hung up', durationMs: 0 };
export const ANSWERED_200: DeliveryOutcome = { delivered: true, status: 200, body: '', error: null, durationMs: 1 };

export class ScriptedTransport implements Transport {
  readonly started: Started[] = [];
  /** How each delivery is answered, by its path; unscripted paths answer 200. */
  reply: (path: string, delivery: OutgoingDelivery) => Reply = () => ({ status: 200 });
  /** Read when a delivery starts, to record the worker's lanes (set once the service exists). */
  inFlight: () => Readonly<Record<string, number>> = () => ({});
  private readonly hanging = new Set<(outcome: DeliveryOutcome) => void>();
  private hungUp = false;

  async send(delivery: OutgoingDelivery): Promise<DeliveryOutcome> {
    const path = new URL(delivery.url).pathname;
    this.started.push({
      path,
      event: delivery.headers['x-service-event']!,
      deliveryId: delivery.headers['x-service-delivery']!,
      body: delivery.body,
      inFlight: this.inFlight(),
    });
    const reply = this.reply(path, delivery);
    if (reply === 'hang') return this.hungUp ? HUNG_UP : new Promise((resolve) => this.hanging.add(resolve));
    const delivered = reply.status >= 200 && reply.status < 300;
    return { delivered, status: reply.status, body: '', error: delivered ? null : `answered ${reply.status}`, durationMs: 1, retryAfter: reply.retryAfter ?? null };
  }

  /** Deliveries waiting for an answer. */
  get hangingCount(): number {
    return this.hanging.size;
  }

  /**
   * Answers every hanging delivery as a time-out would, and from now on every delivery told to hang at
   * once (a service closes only once nothing is in flight, and its worker may send more meanwhile).
   */
  hangUpAll(): void {
    this.hungUp = true;
    this.answerHanging(HUNG_UP);
  }

  /** Answers every hanging delivery with `outcome`. */
  answerHanging(outcome: DeliveryOutcome): void {
    for (const resolve of this.hanging) resolve(outcome);
    this.hanging.clear();
  }

  startedOn(path: string): Started[] {
    return this.started.filter((delivery) => delivery.path === path);
  }

  async waitForStarts(path: string, count: number, timeoutMs = 10_000): Promise<Started[]> {
    return eventually(`${count} deliveries to ${path}`, () => (this.startedOn(path).length >= count ? this.startedOn(path) : null), timeoutMs);
  }
}

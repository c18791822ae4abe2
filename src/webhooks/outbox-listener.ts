// On PostgreSQL, workers in other processes hear about new delivery work through LISTEN/NOTIFY: a write
// that schedules work notifies when it commits, and this listener wakes the worker at once. While the
// listening connection is down the worker polls more often, and the listener reconnects.
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { OUTBOX_CHANNEL } from '../domain/context.js';

const RECONNECT_AFTER_MS = 1000;

export class OutboxListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  connected = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly onNotify: () => void,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    this.client = client;
    client.on('notification', () => this.onNotify());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.connected = true;
      // Work may have been scheduled while nobody listened.
      this.onNotify();
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.connected && !this.stopped) this.log.warn({ err: error }, 'lost the LISTEN connection; polling until it is back');
    this.connected = false;
    client.end().catch(() => undefined);
    if (!this.stopped) this.timer = setTimeout(() => void this.connect(), RECONNECT_AFTER_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }
}

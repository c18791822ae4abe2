// On PostgreSQL, processes hear about each other's writes through LISTEN/NOTIFY on one connection of
// their own: delivery work scheduled (the workers wake at once) and what a write changed for the read
// cache. A notification is sent with the commit of the transaction that caused it. While the listening
// connection is down, notifications are lost: `onLost` says so at once (the worker polls more often, the
// read cache suspends itself), and `onListening` says when listening has begun again, after which
// anything that happened in between must be assumed.
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

const RECONNECT_AFTER_MS = 1000;
/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_NAME = 'guide-service-listener';

export interface NotificationHandlers {
  /** Per channel, what to do with a notification's payload. */
  channels: Record<string, (payload: string) => void>;
  /** Listening has (re)started on every channel. */
  onListening(): void;
  /** The connection is gone; notifications may be missed until onListening. */
  onLost(): void;
}

export class NotificationListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  connected = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly handlers: NotificationHandlers,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: LISTENER_NAME });
    this.client = client;
    client.on('notification', (message) => this.handlers.channels[message.channel]?.(message.payload ?? ''));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      for (const channel of Object.keys(this.handlers.channels)) await client.query(`LISTEN ${channel}`);
      if (this.client !== client) return;
      this.connected = true;
      this.handlers.onListening();
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.connected && !this.stopped) this.log.warn({ err: error }, 'lost the LISTEN connection; polling until it is back');
    this.connected = false;
    this.handlers.onLost();
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

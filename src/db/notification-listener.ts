// On PostgreSQL, processes hear about each other's writes through LISTEN/NOTIFY on one connection of
// their own: delivery work scheduled (the workers wake at once) and what a write changed for the read
// cache. A notification is sent with the commit of the transaction that caused it. While the listening
// connection is down, notifications are lost: `onLost` says so at once (the worker polls more often, the
// read cache suspends itself), and `onListening` says when listening has begun again, after which
// anything that happened in between must be assumed.
//
// A connection can also die without closing (a host or a network gone quiet): no error, no end, and no
// notification either. So the listener notifies itself every `everyMs`, on the channel every process
// listens to, and takes the connection for lost when its own notification has not come back within
// `timeoutMs`. Notifications arrive in commit order, so its heartbeat's return also says that everything
// committed before the heartbeat was sent has arrived.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

const RECONNECT_AFTER_MS = 1000;
const HEARTBEAT_CHANNEL = 'guide_service_heartbeat';
/** At most everyMs + timeoutMs pass between a connection going quiet and `onLost`. */
export const HEARTBEAT = { everyMs: 2000, timeoutMs: 3000 };
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
  private heartbeat: NodeJS.Timeout | null = null;
  /** The payload of the heartbeat on its way, which only this listener sends. */
  private awaited: string | null = null;
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
    // TCP keepalive lets the system close a dead connection too, but only after minutes.
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: LISTENER_NAME, keepAlive: true });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === HEARTBEAT_CHANNEL) this.heard(client, message.payload ?? '');
      else this.handlers.channels[message.channel]?.(message.payload ?? '');
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      for (const channel of [...Object.keys(this.handlers.channels), HEARTBEAT_CHANNEL]) await client.query(`LISTEN ${channel}`);
      if (this.client !== client) return;
      this.connected = true;
      this.handlers.onListening();
      this.beat(client);
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  private beat(client: pg.Client): void {
    const payload = randomUUID();
    this.awaited = payload;
    this.heartbeat = setTimeout(() => this.lost(client, new Error(`no heartbeat back within ${HEARTBEAT.timeoutMs} ms`)), HEARTBEAT.timeoutMs);
    client.query('SELECT pg_notify($1, $2)', [HEARTBEAT_CHANNEL, payload]).catch((error: Error) => this.lost(client, error));
  }

  private heard(client: pg.Client, payload: string): void {
    // Other processes' heartbeats come by on the same channel.
    if (this.client !== client || payload !== this.awaited) return;
    this.awaited = null;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = setTimeout(() => this.beat(client), HEARTBEAT.everyMs);
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    this.awaited = null;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    if (this.connected && !this.stopped) this.log.warn({ err: error }, 'lost the LISTEN connection; polling until it is back');
    this.connected = false;
    this.handlers.onLost();
    client.end().catch(() => undefined);
    if (!this.stopped) this.timer = setTimeout(() => void this.connect(), RECONNECT_AFTER_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeat) clearTimeout(this.heartbeat);
    const client = this.client;
    this.client = null;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }
}

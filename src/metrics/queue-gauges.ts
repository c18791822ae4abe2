// The gauges that need a query: how many delivery attempts are due and how old the oldest is (by lane),
// endpoints by state, and unsent mail. They are computed on a timer, every REFRESH_MS at most, never per
// scrape, so that however often and by however many scrapers a process is scraped, the store sees the
// same few indexed queries. Only processes that run the worker compute them (the API role serves none):
// with several workers each reports the same numbers, so rules take max() over them (docs/monitoring.md).
import { sql } from 'kysely';
import type { Store } from '../db/database.js';
import type { Clock } from '../domain/clock.js';
import { MAX_SEND_ATTEMPTS } from '../mail/mailer.js';
import { Gauge } from 'prom-client';
import { METRICS_PREFIX, type ServiceMetrics } from './service-metrics.js';
import { LANES, QUEUE_LANE } from '../domain/delivery-queues.js';

export const REFRESH_MS = 5000;
/** Due attempts counted at most: a backlog past this is reported as this (the count stays one index range). */
export const DUE_COUNTED_AT_MOST = 100_000;

const ENDPOINT_STATES = ['active', 'failing', 'paused'] as const;

export interface QueueGaugeOptions {
  store: Store;
  clock: Clock;
  /** Mail gauges only when mail is sent at all (SMTP_URL): without it mail stays in the outbox on purpose. */
  mail: boolean;
  refreshMs?: number;
  /** Told when a refresh fails; the gauges keep their last values. */
  onError?: (error: unknown) => void;
}

export class QueueGauges {
  private readonly dueAttempts: Gauge<'lane'>;
  private readonly oldestDue: Gauge<'lane'>;
  private readonly endpoints: Gauge<'state'>;
  private readonly mailQueued: Gauge | null;
  private readonly oldestUnsent: Gauge | null;
  private readonly refreshedAt: Gauge;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    metrics: ServiceMetrics,
    private readonly options: QueueGaugeOptions,
  ) {
    const registers = [metrics.registry];
    this.dueAttempts = new Gauge({
      name: `${METRICS_PREFIX}webhook_due_attempts`,
      help: `Delivery attempts due and not yet sent, by the lane of their endpoint (healthy, failing); counted up to ${DUE_COUNTED_AT_MOST}.`,
      labelNames: ['lane'],
      registers,
    });
    this.oldestDue = new Gauge({
      name: `${METRICS_PREFIX}webhook_oldest_due_attempt_age_seconds`,
      help: 'How long the oldest due attempt has waited past its due time, by lane; 0 when nothing is due.',
      labelNames: ['lane'],
      registers,
    });
    this.endpoints = new Gauge({
      name: `${METRICS_PREFIX}webhook_endpoints`,
      help: 'Webhook endpoints by state: active (healthy), failing (active, last attempts failed), paused.',
      labelNames: ['state'],
      registers,
    });
    this.mailQueued = options.mail
      ? new Gauge({ name: `${METRICS_PREFIX}mail_queued`, help: 'E-mails in the outbox not sent yet and not given up.', registers })
      : null;
    this.oldestUnsent = options.mail
      ? new Gauge({ name: `${METRICS_PREFIX}mail_oldest_unsent_age_seconds`, help: 'Age of the oldest e-mail not sent yet and not given up; 0 when none waits.', registers })
      : null;
    this.refreshedAt = new Gauge({
      name: `${METRICS_PREFIX}metrics_queries_refreshed_timestamp_seconds`,
      help: 'When the gauges that need a query were last computed (Unix time).',
      registers,
    });
    for (const lane of LANES) {
      this.dueAttempts.set({ lane }, 0);
      this.oldestDue.set({ lane }, 0);
    }
    for (const state of ENDPOINT_STATES) this.endpoints.set({ state }, 0);
  }

  start(): void {
    if (this.timer) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs ?? REFRESH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Computes every gauge once; a refresh still running is not started again. */
  refresh(): Promise<void> {
    this.running ??= this.compute()
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async compute(): Promise<void> {
    const { db } = this.options.store;
    const now = this.options.clock.now();
    const nowText = now.toISOString();
    const ageSeconds = (at: string | null) => (at === null ? 0 : Math.max(0, (now.getTime() - Date.parse(at)) / 1000));

    // The oldest due first, from the (status, due_at, seq) index, at most DUE_COUNTED_AT_MOST of them.
    const due = await sql<{ lane: string; waiting: number | string; oldest: string | null }>`
      SELECT ${QUEUE_LANE} AS lane, count(*) AS waiting, min(a.due_at) AS oldest
      FROM (SELECT endpoint_id, due_at FROM webhook_attempts WHERE status = 'scheduled' AND due_at <= ${nowText}
            ORDER BY due_at LIMIT ${DUE_COUNTED_AT_MOST}) a
      LEFT JOIN webhook_queues q ON q.endpoint_id = a.endpoint_id
      GROUP BY 1`.execute(db);
    const byLane = new Map(due.rows.map((row) => [row.lane, row]));
    for (const lane of LANES) {
      const row = byLane.get(lane);
      this.dueAttempts.set({ lane }, Number(row?.waiting ?? 0));
      this.oldestDue.set({ lane }, ageSeconds(row?.oldest ?? null));
    }

    const states = await sql<{ state: string; endpoints: number | string }>`
      SELECT CASE WHEN status = 'paused' THEN 'paused' WHEN failing_since IS NOT NULL THEN 'failing' ELSE 'active' END AS state,
        count(*) AS endpoints
      FROM webhook_endpoints GROUP BY 1`.execute(db);
    const byState = new Map(states.rows.map((row) => [row.state, Number(row.endpoints)]));
    for (const state of ENDPOINT_STATES) this.endpoints.set({ state }, byState.get(state) ?? 0);

    if (this.mailQueued && this.oldestUnsent) {
      const mail = await sql<{ queued: number | string; oldest: string | null }>`
        SELECT count(*) AS queued, min(created_at) AS oldest FROM mail_outbox
        WHERE sent_at IS NULL AND send_attempts < ${MAX_SEND_ATTEMPTS}`.execute(db);
      this.mailQueued.set(Number(mail.rows[0]?.queued ?? 0));
      this.oldestUnsent.set(ageSeconds(mail.rows[0]?.oldest ?? null));
    }
    this.refreshedAt.set(Date.now() / 1000);
  }
}

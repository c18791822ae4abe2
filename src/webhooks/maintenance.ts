// The webhook upkeep that is not sending, in a loop of its own so that it never waits on a delivery and no
// delivery waits on it: it closes coalescing windows when they are due (which records their guide.updated
// events), once a minute pauses endpoints that have failed for too long, prunes what is older than its
// retention (pruning.ts, and the audit log's) and forgets signing keys whose overlap has ended, and hands
// queued e-mail to SMTP. A committed write wakes it; otherwise it sleeps until the next window closes, a
// minute at most.
import type { FastifyBaseLogger } from 'fastify';
import { pruneAudit } from '../domain/audit.js';
import { pruneIdempotencyKeys } from '../domain/idempotency.js';
import type { DomainContext } from '../domain/context.js';
import { closeDueWindows, nextWindowClose } from '../domain/guides/guide-update-windows.js';
import type { Mailer } from '../mail/mailer.js';
import { forgetEndedOldKeys } from './endpoints.js';
import { pauseLongFailingEndpoints } from './pausing.js';
import { pruneOldDeliveries } from './pruning.js';
import { WakeableLoop } from './wakeable-loop.js';

export interface MaintenanceOptions {
  mailer: Mailer;
  pauseAfterMs: number;
  /** How long the events feed keeps an event (EVENTS_RETENTION_DAYS); 30 days when not given. */
  eventsRetentionMs?: number;
  /** How long the Deliveries list keeps a sent attempt (WEBHOOK_ATTEMPTS_RETENTION_DAYS); 30 days when not given. */
  attemptsRetentionMs?: number;
  /** How long the audit log keeps an event (AUDIT_RETENTION_DAYS); 365 days when not given. */
  auditRetentionMs?: number;
  log: FastifyBaseLogger;
  /** The longest it sleeps without a wake-up; short while it cannot be woken from other processes. */
  idleAtMostMs?: () => number;
}

const EVERY_MINUTE_MS = 60_000;
/** AUDIT_RETENTION_DAYS' default. */
const AUDIT_RETENTION_MS = 365 * 86_400_000;

export class WebhookMaintenance extends WakeableLoop {
  private lastMinutely = 0;
  private mailRun: Promise<void> | null = null;

  constructor(
    private readonly ctx: DomainContext,
    private readonly options: MaintenanceOptions,
  ) {
    super(options.log);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.mailRun;
  }

  protected async cycle(): Promise<number> {
    const now = this.ctx.clock.now().getTime();
    // Each job fails on its own, so that a fault in one does not hold up the others.
    await this.attempt('closing coalescing windows', () => closeDueWindows(this.ctx, new Date(now)));
    if (now - this.lastMinutely >= EVERY_MINUTE_MS) {
      this.lastMinutely = now;
      await this.attempt('pausing failing endpoints', () => pauseLongFailingEndpoints(this.ctx, this.options.pauseAfterMs));
      await this.attempt('pruning old deliveries', () => pruneOldDeliveries(this.ctx, this.options.eventsRetentionMs, this.options.attemptsRetentionMs));
      await this.attempt('pruning the audit log', () => pruneAudit(this.ctx, this.options.auditRetentionMs ?? AUDIT_RETENTION_MS));
      await this.attempt('pruning idempotency keys', () => pruneIdempotencyKeys(this.ctx));
      await this.attempt('forgetting replaced signing keys', () => forgetEndedOldKeys(this.ctx, new Date(now)));
    }
    this.sendMail();
    const wakeAt = [now + (this.options.idleAtMostMs?.() ?? EVERY_MINUTE_MS), this.lastMinutely + EVERY_MINUTE_MS];
    const nextWindow = await this.attempt('planning the next cycle', () => nextWindowClose(this.ctx.db));
    if (nextWindow) wakeAt.push(nextWindow.getTime());
    return Math.max(0, Math.min(...wakeAt) - now);
  }

  /** Hands queued mail to SMTP in the background, one run at a time, so a slow mail server holds up nothing. */
  private sendMail(): void {
    if (this.mailRun) return;
    this.mailRun = this.options.mailer
      .sendDue(this.ctx)
      .then(() => undefined)
      .catch((error: unknown) => this.options.log.error({ err: error }, 'sending queued mail failed'))
      .finally(() => {
        this.mailRun = null;
      });
  }
}

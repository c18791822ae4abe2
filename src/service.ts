// Assembles the service from its configuration: the store (migrated), the domain context, the rate-limit
// counters, the HTTP application and, for the worker role, the delivery worker with its LISTEN
// connection. main.ts runs it; tests build it the same way.
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { resolveAdminToken } from './admin-token.js';
import type { Config } from './config.js';
import { openStore, type Store } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { type Clock, systemClock } from './domain/clock.js';
import type { DomainContext } from './domain/context.js';
import { ReadCache } from './domain/read-cache.js';
import { answerWeight } from './http/v1/cached-answer.js';
import { serviceSecret } from './domain/service-secrets.js';
import { WriteWatch } from './db/write-watch.js';
import { buildApp } from './http/app.js';
import { openRateLimit } from './http/rate-limit-store.js';
import type { TypeBoxApp } from './http/typebox-app.js';
import { Mailer } from './mail/mailer.js';
import type { Resolver } from './webhooks/network-guard.js';
import { OutboxListener } from './webhooks/outbox-listener.js';
import { WebhookMaintenance } from './webhooks/maintenance.js';
import { type Transport, WebhookSender } from './webhooks/sender.js';
import { DeliveryWorker, type LaneLimits } from './webhooks/worker.js';

export interface Service {
  app: TypeBoxApp;
  ctx: DomainContext;
  store: Store;
  worker: DeliveryWorker | null;
  adminToken: string;
  adminTokenGenerated: boolean;
  /** Stops taking requests, finishes requests and deliveries in flight, releases claims, closes the store. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: FastifyBaseLogger;
  /** Name resolution for outbound requests; tests replace it to play DNS tricks. */
  resolver?: Resolver;
  /** Jitter source for retry delays. */
  random?: () => number;
  /** What sends deliveries instead of the HTTP sender; tests script receivers with it. */
  transport?: Transport;
  /** The worker's lanes, instead of their defaults. */
  lanes?: Partial<LaneLimits>;
}

export function loggerOptions(config: Config): pino.LoggerOptions {
  // Keys and tokens travel in Authorization; never let a log line carry one.
  return { level: config.logLevel, redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' } };
}

// Answers kept in memory weigh at most this much (RSS stays well under 300 MB with SQLite's own cache).
const READ_CACHE_BYTES = 48 * 1024 * 1024;

// On the embedded store a commit writes whole pages, whatever is in it: delivery outcomes are committed
// at most this often, in groups (PostgreSQL groups them by itself while each commit is under way).
const SQLITE_COMMIT_EVERY_MS = 5;

// Polling while the LISTEN connection is down (PostgreSQL), so work from other processes still flows.
const POLL_WITHOUT_LISTENER_MS = 1000;

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const log = options.logger ?? pino(loggerOptions(config));
  const store = openStore(config.databaseUrl);
  const closers: (() => Promise<void> | void)[] = [() => store.close()];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  let app: TypeBoxApp | null = null;
  try {
    await migrateToLatest(store);
    let worker: DeliveryWorker | null = null;
    let maintenance: WebhookMaintenance | null = null;
    const readCache = config.readCache && store.dataVersion ? new ReadCache({ maxWeight: READ_CACHE_BYTES, weigh: answerWeight, externalVersion: store.dataVersion }) : undefined;
    const ctx: DomainContext = {
      db: readCache ? store.db.withPlugin(new WriteWatch(() => readCache.invalidate())) : store.db,
      readCache,
      dialect: store.dialect,
      clock: options.clock ?? systemClock,
      settings: { appUrl: config.appUrl, previewSteps: config.previewSteps, coalesceMs: config.webhookCoalesceMs },
      cursorSecret: await serviceSecret(store.db, 'cursor_hmac_key'),
      outbox: { wake: () => (worker?.wake(), maintenance?.wake()) },
    };
    const admin = resolveAdminToken(config.adminToken, config.dataDir);
    const rateLimits = await openRateLimit(store, config.redisUrl, config.rateLimitPerMinute, log);
    closers.push(() => rateLimits.close());
    const endpointPolicy = { allowPrivateNetworks: config.webhookAllowPrivateNetworks, maxPerHome: config.webhookMaxEndpointsPerHome, resolver: options.resolver };
    app = await buildApp({
      ctx,
      store,
      publicUrl: config.publicUrl,
      adminToken: admin.token,
      rateLimit: rateLimits.rateLimit,
      loggerInstance: log,
      endpointPolicy,
      serveApi: config.role !== 'worker',
      trustProxy: config.trustProxy,
      logSignInLinks: config.smtpUrl === null,
    });

    if (config.role !== 'api') {
      const sender = options.transport ? null : new WebhookSender({ timeoutMs: config.webhookTimeoutMs, ...endpointPolicy });
      const mailer = new Mailer(config.smtpUrl, config.mailFrom, log);
      closers.push(() => sender?.close(), () => mailer.close());
      const listener = store.pool
        ? new OutboxListener(config.databaseUrl, () => ctx.outbox.wake(), log.child({ component: 'listener' }))
        : null;
      const idleAtMostMs = listener ? () => (listener.connected ? 60_000 : POLL_WITHOUT_LISTENER_MS) : undefined;
      const policy = { retryDelaysMs: config.webhookRetryDelaysMs, pauseAfterMs: config.webhookPauseAfterMs, random: options.random };
      const deliveryWorker = new DeliveryWorker(ctx, {
        transport: options.transport ?? sender!,
        commitEveryMs: store.dialect === 'sqlite' ? SQLITE_COMMIT_EVERY_MS : 0,
        policy,
        timeoutMs: config.webhookTimeoutMs,
        log: log.child({ component: 'worker' }),
        concurrency: config.webhookConcurrency,
        lanes: options.lanes,
        idleAtMostMs,
      });
      const upkeep = new WebhookMaintenance(ctx, { mailer, pauseAfterMs: policy.pauseAfterMs, log: log.child({ component: 'maintenance' }), idleAtMostMs });
      worker = deliveryWorker;
      maintenance = upkeep;
      listener?.start();
      deliveryWorker.start();
      upkeep.start();
      // Closed in reverse: the listener and the loops stop before the sender and the store they use.
      closers.push(() => deliveryWorker.stop(), () => upkeep.stop());
      if (listener) closers.push(() => listener.stop());
    }
    const running = app;
    return {
      app: running,
      ctx,
      store,
      worker,
      adminToken: admin.token,
      adminTokenGenerated: admin.generated,
      close: async () => {
        // The app first: it stops taking requests and lets those in flight finish.
        await running.close();
        await closeAll();
      },
    };
  } catch (error) {
    await app?.close();
    await closeAll();
    throw error;
  }
}

// Assembles the service from its configuration: the store (migrated), the domain context, the rate-limit
// counters, the read cache, the HTTP application and, for the worker role, the delivery worker; on
// PostgreSQL one LISTEN connection per process for both. main.ts runs it; tests build it the same way.
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { resolveAdminToken } from './auth/admin-token.js';
import type { Config } from './config.js';
import { openStore, type Store } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { type Clock, systemClock } from './domain/clock.js';
import { announceEverythingChanged, type DomainContext, OUTBOX_CHANNEL, READS_CHANNEL, UPKEEP_NOTICE } from './domain/context.js';
import { EventFeedSignal } from './domain/event-feed-signal.js';
import { feedAheadOfServer, newestEventSeq } from './domain/event-feed.js';
import { ReadCache } from './domain/read-cache.js';
import { decodeChanges, READ_TABLES } from './domain/read-dependencies.js';
import { answerWeight } from './http/v1/cached-answer.js';
import { serviceSecret } from './domain/service-secrets.js';
import { ChangeWatch } from './db/change-watch.js';
import { NotificationListener } from './db/notification-listener.js';
import { buildApp } from './http/app.js';
import type { NextTurn } from './http/request-turns.js';
import { loggedRequest } from './http/logged-request.js';
import { secretScrubber } from './http/secret-shapes.js';
import { currentRequestTransaction } from './domain/request-transaction.js';
import { openRateLimit } from './http/rate-limit-store.js';
import type { TypeBoxApp } from './http/typebox-app.js';
import { Mailer } from './mail/mailer.js';
import { type OpenedMetrics, openMetrics } from './metrics/open-metrics.js';
import type { Resolver } from './webhooks/network-guard.js';
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
  /** The metrics, with METRICS_TOKEN set (docs/monitoring.md). */
  metrics?: OpenedMetrics;
  /** Stops taking requests, finishes requests and deliveries in flight, releases claims, closes the store. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: FastifyBaseLogger;
  /** Where the service's own logger writes its lines instead of stdout (tests read them). */
  logStream?: pino.DestinationStream;
  /** Name resolution for outbound requests; tests replace it to play DNS tricks. */
  resolver?: Resolver;
  /** Jitter source for retry delays. */
  random?: () => number;
  /** What sends deliveries instead of the HTTP sender; tests script receivers with it. */
  transport?: Transport;
  /** The worker's lanes, instead of their defaults. */
  lanes?: Partial<LaneLimits>;
  /** When a waiting request's turn comes (request-turns.ts); tests hold turns back with it. */
  nextTurn?: NextTurn;
}

function loggerOptions(config: Config, adminToken: string): pino.LoggerOptions {
  // Keys and tokens travel in Authorization, and sometimes in the URL; never let a log line carry one.
  // Under the redactions, every line passes the secret scrubber: a key or token that reached a message or
  // an error by any other way is replaced too, and so are the admin token, configured or generated, and
  // the metrics token.
  return {
    level: config.logLevel,
    serializers: { req: loggedRequest },
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'req.headers.cookie', 'headers.cookie'], censor: '[redacted]' },
    hooks: { streamWrite: secretScrubber([adminToken, ...(config.metricsToken ? [config.metricsToken] : [])]) },
  };
}

// Answers kept in memory weigh at most this much (RSS stays well under 300 MB with SQLite's own cache).
const READ_CACHE_BYTES = 48 * 1024 * 1024;

/**
 * The read cache. On SQLite, commits by other processes show in `PRAGMA data_version`; on PostgreSQL
 * they arrive through LISTEN, so the cache starts suspended until the listener is connected.
 */
function openReadCache(store: Store, log: FastifyBaseLogger): ReadCache {
  const reported = new Set<string>();
  return new ReadCache({
    maxWeight: READ_CACHE_BYTES,
    weigh: answerWeight,
    externalVersion: store.dataVersion,
    suspended: store.dialect === 'postgres',
    onUncovered: (key, tables) => {
      const what = tables.join(',');
      if (reported.has(what)) return;
      reported.add(what);
      log.error({ tables }, 'a cached read depends on tables none of its tags stands for, so it is never kept: declare them in read-dependencies.ts');
    },
  });
}

// How often delivery outcomes are committed at most (src/webhooks/outcome-recorder.ts). On the embedded
// store a commit writes whole pages, whatever is in it; PostgreSQL groups what waits while each commit is
// under way, and pays a round trip per statement.
const COMMIT_PACE = {
  sqlite: { urgentEveryMs: 5, deliveredEveryMs: 20 },
  postgres: { urgentEveryMs: 0, deliveredEveryMs: 10 },
};

// Polling while the LISTEN connection is down (PostgreSQL), so work from other processes still flows.
const POLL_WITHOUT_LISTENER_MS = 1000;

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  // The admin token first, so that the logger knows it to scrub.
  const admin = resolveAdminToken(config.adminToken, config.dataDir);
  const log = options.logger ?? pino(loggerOptions(config, admin.token), options.logStream);
  const store = openStore(config.databaseUrl, { backgroundLog: { error: (message) => log.error(message), info: (message) => log.info(message) } });
  const closers: (() => Promise<void> | void)[] = [() => store.close()];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  let app: TypeBoxApp | null = null;
  try {
    const newer = await migrateToLatest(store);
    if (newer.length > 0) {
      log.warn({ migrations: newer }, 'the store has migrations of a newer release; this release runs on it, as expand-only migrations allow (docs/decisions.md)');
    }
    if (store.dialect === 'postgres' && (await feedAheadOfServer(store.db))) {
      log.error(
        "the events feed holds events of transactions newer than this server's counter (a dump restored onto another server?): GET /v1/events hides them until the counter catches up; docs/deploy.md, \"Restoring a dump onto another server\", says how to move it on",
      );
    }
    let worker: DeliveryWorker | null = null;
    let maintenance: WebhookMaintenance | null = null;
    // A worker serves no reads: it keeps no cache and listens to no invalidations.
    const readCache = config.readCache && config.role !== 'worker' ? openReadCache(store, log) : undefined;
    // Writes outside a declared change (read-dependencies.ts) drop every cached answer, here and, through
    // the store, in every other process.
    const changeWatch = new ChangeWatch(READ_TABLES, (table) => {
      log.warn({ table }, 'a write changed a table of the read-only API without saying what it changed; every cached answer is dropped');
      announceEverythingChanged(ctx).catch((error: unknown) => log.error({ err: error }, 'could not announce a change to other processes'));
    });
    // Requests waiting on the events feed are woken by the same signals as the workers (see below).
    const eventFeed = config.role !== 'worker' ? new EventFeedSignal(() => newestEventSeq(store.db)) : undefined;
    let db = store.db.withPlugin(changeWatch);
    const ctx: DomainContext = {
      // Inside a request that keeps one transaction for all its writes, once it has begun, every query
      // runs in it (request-transaction.ts): it reads what the request wrote, and on the embedded store's
      // one connection it does not wait behind its own transaction.
      get db() {
        return currentRequestTransaction()?.open ?? db;
      },
      // A test may put a plugin in front (a query counter): the request's transaction still comes first.
      set db(replaced) {
        db = replaced;
      },
      readCache,
      eventFeed,
      dialect: store.dialect,
      clock: options.clock ?? systemClock,
      settings: { appUrl: config.appUrl, previewSteps: config.previewSteps, coalesceMs: config.webhookCoalesceMs, webhookRetries: config.webhookRetryDelaysMs.length },
      cursorSecret: await serviceSecret(store.db, 'cursor_hmac_key'),
      outbox: { wake: () => (worker?.wake(), maintenance?.wake(), eventFeed?.committed()), wakeSenders: () => (worker?.wake(), eventFeed?.committed()) },
      purgeDeleted: store.purgeDeleted,
    };
    const metrics = openMetrics(config, { store, clock: ctx.clock, readCache, log });
    closers.push(() => metrics?.close());
    const rateLimits = await openRateLimit(store, { redisUrl: config.redisUrl, points: config.rateLimitPerMinute, serveApi: config.role !== 'worker' }, log);
    closers.push(() => rateLimits.close());
    const endpointPolicy = {
      allowPrivateNetworks: config.webhookAllowPrivateNetworks,
      maxPerHome: config.webhookMaxEndpointsPerHome,
      attemptsRetentionMs: config.webhookAttemptsRetentionDays * 86_400_000,
      resolver: options.resolver,
    };
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
      metrics,
      nextTurn: options.nextTurn,
    });

    // One LISTEN connection on PostgreSQL, for what the workers and the read cache need to hear.
    const channels: Record<string, (payload: string) => void> = {};
    if (readCache) {
      channels[READS_CHANNEL] = (payload) => {
        const { origin, changes } = decodeChanges(payload);
        // This process's own writes were dropped from its cache as they committed.
        if (origin !== readCache.origin) readCache.invalidate(changes);
      };
    }
    // Every transaction that records an event notifies the outbox channel: workers send, feed waiters read.
    if (config.role !== 'api' || eventFeed) {
      channels[OUTBOX_CHANNEL] = (payload) => {
        if (config.role !== 'api') {
          if (payload === UPKEEP_NOTICE) ctx.outbox.wake();
          else ctx.outbox.wakeSenders();
        }
        eventFeed?.notified();
      };
    }
    const listener =
      store.pool && Object.keys(channels).length > 0
        ? new NotificationListener(
            config.databaseUrl,
            {
              channels,
              onListening: () => {
                readCache?.resume();
                // Work may have been scheduled, and events recorded, while nobody listened.
                ctx.outbox.wake();
                eventFeed?.notified();
              },
              onLost: () => readCache?.suspend(),
            },
            log.child({ component: 'listener' }),
          )
        : null;
    if (listener) {
      listener.start();
      closers.push(() => listener.stop());
    }

    if (config.role !== 'api') {
      const sender = options.transport ? null : new WebhookSender({ timeoutMs: config.webhookTimeoutMs, ...endpointPolicy });
      const mailer = new Mailer(config.smtpUrl, config.mailFrom, log, metrics?.metrics);
      closers.push(() => sender?.close(), () => mailer.close());
      const idleAtMostMs = listener ? () => (listener.connected ? 60_000 : POLL_WITHOUT_LISTENER_MS) : undefined;
      const policy = { retryDelaysMs: config.webhookRetryDelaysMs, pauseAfterMs: config.webhookPauseAfterMs, random: options.random };
      const deliveryWorker = new DeliveryWorker(ctx, {
        transport: options.transport ?? sender!,
        commitPace: COMMIT_PACE[store.dialect],
        policy,
        timeoutMs: config.webhookTimeoutMs,
        log: log.child({ component: 'worker' }),
        concurrency: config.webhookConcurrency,
        lanes: options.lanes,
        idleAtMostMs,
        metrics: metrics?.metrics,
      });
      const upkeep = new WebhookMaintenance(ctx, {
        mailer,
        pauseAfterMs: policy.pauseAfterMs,
        eventsRetentionMs: config.eventsRetentionDays * 86_400_000,
        attemptsRetentionMs: config.webhookAttemptsRetentionDays * 86_400_000,
        auditRetentionMs: config.auditRetentionDays * 86_400_000,
        log: log.child({ component: 'maintenance' }),
        idleAtMostMs,
      });
      worker = deliveryWorker;
      maintenance = upkeep;
      deliveryWorker.start();
      upkeep.start();
      // Closed in reverse: the loops stop before the sender and the store they use.
      closers.push(() => deliveryWorker.stop(), () => upkeep.stop());
    }
    const running = app;
    return {
      app: running,
      ctx,
      store,
      worker,
      adminToken: admin.token,
      adminTokenGenerated: admin.generated,
      metrics,
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

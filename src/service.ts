// Assembles the service from its configuration: the store (migrated), the domain context, the HTTP
// application and, for the worker role, the delivery worker. main.ts runs it; tests build it the same
// way on an in-memory store.
import type { FastifyServerOptions } from 'fastify';
import { resolveAdminToken } from './admin-token.js';
import type { Config } from './config.js';
import { openStore, type Store } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { type Clock, systemClock } from './domain/clock.js';
import type { DomainContext } from './domain/context.js';
import { serviceSecret } from './domain/service-secrets.js';
import { buildApp } from './http/app.js';
import { RequestRateLimit } from './http/rate-limit.js';
import type { TypeBoxApp } from './http/typebox-app.js';
import { Mailer } from './mail/mailer.js';
import type { Resolver } from './webhooks/network-guard.js';
import { WebhookSender } from './webhooks/sender.js';
import { DeliveryWorker } from './webhooks/worker.js';

export interface Service {
  app: TypeBoxApp;
  ctx: DomainContext;
  store: Store;
  worker: DeliveryWorker | null;
  adminToken: string;
  adminTokenGenerated: boolean;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Name resolution for outbound requests; tests replace it to play DNS tricks. */
  resolver?: Resolver;
  /** Jitter source for retry delays. */
  random?: () => number;
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  // Keys and tokens travel in Authorization; never let a log line carry one.
  return { level: config.logLevel, redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' } };
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const store = openStore(config.databaseUrl);
  try {
    await migrateToLatest(store);
    let worker: DeliveryWorker | null = null;
    const ctx: DomainContext = {
      db: store.db,
      dialect: store.dialect,
      clock: options.clock ?? systemClock,
      settings: { appUrl: config.appUrl, previewSteps: config.previewSteps, coalesceMs: config.webhookCoalesceMs },
      cursorSecret: await serviceSecret(store.db, 'cursor_hmac_key'),
      outbox: { wake: () => worker?.wake() },
    };
    const admin = resolveAdminToken(config.adminToken, config.dataDir);
    const endpointPolicy = { allowPrivateNetworks: config.webhookAllowPrivateNetworks, resolver: options.resolver };
    const app = await buildApp({
      ctx,
      publicUrl: config.publicUrl,
      adminToken: admin.token,
      rateLimit: RequestRateLimit.inMemory(config.rateLimitPerMinute),
      logger: options.logger ?? loggerOptions(config),
      endpointPolicy,
    });

    const sender = new WebhookSender({ timeoutMs: config.webhookTimeoutMs, ...endpointPolicy });
    const mailer = new Mailer(config.smtpUrl, config.mailFrom, app.log);
    if (config.role !== 'api') {
      worker = new DeliveryWorker(ctx, {
        sender,
        mailer,
        policy: { retryDelaysMs: config.webhookRetryDelaysMs, pauseAfterMs: config.webhookPauseAfterMs, random: options.random },
        timeoutMs: config.webhookTimeoutMs,
        allowPrivateNetworks: config.webhookAllowPrivateNetworks,
        resolver: options.resolver,
        log: app.log.child({ component: 'worker' }),
      });
      worker.start();
    }
    return {
      app,
      ctx,
      store,
      worker,
      adminToken: admin.token,
      adminTokenGenerated: admin.generated,
      close: async () => {
        await worker?.stop();
        await app.close();
        await sender.close();
        mailer.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

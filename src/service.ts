// Assembles the service from its configuration: the store (migrated), the domain context and the HTTP
// application. main.ts runs it; tests build it the same way on an in-memory store.
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

export interface Service {
  app: TypeBoxApp;
  ctx: DomainContext;
  store: Store;
  adminToken: string;
  adminTokenGenerated: boolean;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  // Keys and tokens travel in Authorization; never let a log line carry one.
  return { level: config.logLevel, redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' } };
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const store = openStore(config.databaseUrl);
  try {
    await migrateToLatest(store);
    const ctx: DomainContext = {
      db: store.db,
      dialect: store.dialect,
      clock: options.clock ?? systemClock,
      settings: { appUrl: config.appUrl, previewSteps: config.previewSteps },
      cursorSecret: await serviceSecret(store.db, 'cursor_hmac_key'),
    };
    const admin = resolveAdminToken(config.adminToken, config.dataDir);
    const app = await buildApp({
      ctx,
      publicUrl: config.publicUrl,
      adminToken: admin.token,
      rateLimit: RequestRateLimit.inMemory(config.rateLimitPerMinute),
      logger: options.logger ?? loggerOptions(config),
    });
    return {
      app,
      ctx,
      store,
      adminToken: admin.token,
      adminTokenGenerated: admin.generated,
      close: async () => {
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

// Assembles the metrics of one service from its configuration (service.ts calls it once): nothing at
// all without METRICS_TOKEN; with it, the registry, what it reads when scraped (read cache, pool), and
// on processes that run the worker the gauges that need a query.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../db/database.js';
import type { Clock } from '../domain/clock.js';
import type { ReadCache } from '../domain/read-cache.js';
import type { MetricsEndpoint } from './metrics-http.js';
import { QueueGauges } from './queue-gauges.js';
import { ServiceMetrics } from './service-metrics.js';

export interface OpenedMetrics extends MetricsEndpoint {
  /** Null on API-only processes. */
  gauges: QueueGauges | null;
  close(): Promise<void>;
}

export interface MetricsSources {
  store: Store;
  clock: Clock;
  readCache?: ReadCache;
  log: FastifyBaseLogger;
  /** How often the query gauges are computed (tests); REFRESH_MS by default. */
  refreshMs?: number;
}

export function openMetrics(config: Config, sources: MetricsSources): OpenedMetrics | undefined {
  if (config.metricsToken === null) return undefined;
  const metrics = new ServiceMetrics();
  if (sources.readCache) metrics.watchReadCache(sources.readCache);
  if (sources.store.pool) metrics.watchPool(sources.store.pool);
  let gauges: QueueGauges | null = null;
  if (config.role !== 'api') {
    let reported = false;
    gauges = new QueueGauges(metrics, {
      store: sources.store,
      clock: sources.clock,
      mail: config.smtpUrl !== null,
      refreshMs: sources.refreshMs,
      onError: (error) => {
        // Once per process: the gauges keep their last values, and the timestamp gauge shows they are old.
        if (!reported) sources.log.warn({ err: error }, 'could not compute the metrics that need a query');
        reported = true;
      },
    });
    gauges.start();
  }
  return {
    metrics,
    token: config.metricsToken,
    gauges,
    close: async () => {
      await gauges?.stop();
    },
  };
}

// What a process tells Prometheus (docs/monitoring.md), with prom-client: one registry per service (tests
// run several in one process), made only when METRICS_TOKEN is set, so that without it nothing is
// measured at all. Every label has a bounded set of values: route templates, methods, status classes,
// error codes, outcome classes, lanes and states; never a URL, an id or a key.
//
// Families whose value is already kept elsewhere (the read cache's counts, the PostgreSQL pool) are read
// when scraped, costing the hot path nothing; the ones that need a query are computed on a timer
// (queue-gauges.ts); the rest are counted where they happen, through the few methods below.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type pg from 'pg';
import type { InvalidationCause, ReadCache } from '../domain/read-cache.js';
import type { ClaimedAttempt } from '../webhooks/attempt-claims.js';
import type { DeliveryOutcome } from '../webhooks/sender.js';
import { RequestDurations, type RouteRecorder } from './request-durations.js';
import { attemptOutcomeClass, eventCreatedAt, type AttemptOutcomeClass } from './webhook-outcomes.js';

export const METRICS_PREFIX = 'guide_';

// Request durations: most reads answer in a millisecond or two from the cache.
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// Commit to 2xx: a second when all is well; minutes to a day through retries.
const DELIVERY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 6 * 3600, 24 * 3600];

const LINT_FAILING_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export class ServiceMetrics {
  readonly registry = new Registry();

  readonly requestDuration = new RequestDurations(
    `${METRICS_PREFIX}http_request_duration_seconds`,
    'Time to answer a request, by route template (unmatched: no route), method and status class. /metrics, /healthz and /readyz are not counted.',
    REQUEST_BUCKETS,
    this.registry,
  );
  readonly rateLimited = new Counter({
    name: `${METRICS_PREFIX}http_rate_limited_total`,
    help: 'Requests refused with 429 (rate limit), by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly unauthorized = new Counter({
    name: `${METRICS_PREFIX}http_unauthorized_total`,
    help: 'Requests refused with 401 (missing, wrong or expired key, token or session), by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly problems = new Counter({
    name: `${METRICS_PREFIX}http_problems_total`,
    help: 'Problem answers (RFC 9457), by error code.',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: `${METRICS_PREFIX}webhook_attempts_total`,
    help: 'Delivery attempts sent, by outcome: delivered, or failed by class (timeout, connect, blocked, 3xx, 4xx, 410, 5xx).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly deliveryLatency = new Histogram({
    name: `${METRICS_PREFIX}webhook_delivery_latency_seconds`,
    help: "Time from an event's commit to its receiver's 2xx answer, retries included (manual resends not counted).",
    buckets: DELIVERY_BUCKETS,
    registers: [this.registry],
  });
  readonly resends = new Counter({
    name: `${METRICS_PREFIX}webhook_resends_total`,
    help: 'Deliveries sent again by hand (POST /admin/v1/deliveries/{id}/resend answered 2xx).',
    registers: [this.registry],
  });
  readonly resumes = new Counter({
    name: `${METRICS_PREFIX}webhook_resumes_total`,
    help: 'Paused endpoints resumed (POST /admin/v1/webhook-endpoints/{id}/resume answered 2xx).',
    registers: [this.registry],
  });

  readonly mailSent = new Counter({
    name: `${METRICS_PREFIX}mail_sent_total`,
    help: 'E-mails handed to SMTP.',
    registers: [this.registry],
  });
  readonly mailFailed = new Counter({
    name: `${METRICS_PREFIX}mail_failed_total`,
    help: 'Attempts to hand an e-mail to SMTP that failed (it is tried again later, for about two days).',
    registers: [this.registry],
  });

  private readonly problemChildren = new Map<string, Counter.Internal>();

  constructor() {
    // Process CPU, memory, handles, GC, event loop lag (nodejs_eventloop_lag_seconds and its percentiles).
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters, which `promtool check metrics` refuses; the same counts are exported
    // without the suffix, by type (nodejs_active_handles{type}, nodejs_active_requests{type}, nodejs_active_resources{type}).
    for (const name of LINT_FAILING_DEFAULTS) this.registry.removeSingleMetric(name);
  }

  /** What records the requests of one route template: durations, and the 429s and 401s among them. */
  requestRecorder(route: string): RouteRecorder {
    const duration = this.requestDuration.recorder(route);
    const rateLimited = this.rateLimited.labels(route);
    const unauthorized = this.unauthorized.labels(route);
    return (method, statusCode, seconds) => {
      duration(method, statusCode, seconds);
      if (statusCode === 429) rateLimited.inc();
      else if (statusCode === 401) unauthorized.inc();
    };
  }

  /** One problem answer. */
  problem(code: string): void {
    let child = this.problemChildren.get(code);
    if (!child) this.problemChildren.set(code, (child = this.problems.labels(code)));
    child.inc();
  }

  /** One delivery attempt's outcome, as the worker received it; `now` is when the answer arrived. */
  observeAttempt(attempt: Pick<ClaimedAttempt, 'auto_retry' | 'payload'>, outcome: DeliveryOutcome, now: Date): AttemptOutcomeClass {
    const outcomeClass = attemptOutcomeClass(outcome);
    this.webhookAttempts.inc({ outcome: outcomeClass });
    if (outcomeClass === 'delivered' && attempt.auto_retry) {
      const created = eventCreatedAt(attempt.payload);
      if (created !== null) this.deliveryLatency.observe(Math.max(0, (now.getTime() - created) / 1000));
    }
    return outcomeClass;
  }

  /** The read cache's own counts, read when scraped (the cache counts them anyway). */
  watchReadCache(cache: ReadCache): void {
    const counted = (name: string, help: string, field: 'hits' | 'misses' | 'partHits' | 'partMisses') => {
      let seen = 0;
      return new Counter({
        name: `${METRICS_PREFIX}read_cache_${name}_total`,
        help,
        registers: [this.registry],
        collect() {
          const now = cache.stats[field];
          if (now > seen) this.inc(now - seen);
          seen = now;
        },
      });
    };
    counted('hits', 'v1 answers served from the read cache.', 'hits');
    counted('misses', 'v1 answers computed because the read cache did not hold them.', 'misses');
    counted('part_hits', "Parts of v1 answers (a guide's row on a list page) taken from the read cache while computing an answer.", 'partHits');
    counted('part_misses', 'Parts of v1 answers read from the store because the read cache did not hold them.', 'partMisses');
    const seenDropped: Partial<Record<InvalidationCause, number>> = {};
    new Counter({
      name: `${METRICS_PREFIX}read_cache_invalidations_total`,
      help:
        'Cached v1 answers and parts dropped because a write changed what they depend on (not evictions), by cause: the kind of what the write changed ' +
        '(key, team, organization, guides, guide, titles, members, users), or why everything was dropped (undeclared_write, other_process, listener_down).',
      labelNames: ['cause'] as const,
      registers: [this.registry],
      collect() {
        for (const [cause, now] of Object.entries(cache.stats.dropped) as [InvalidationCause, number][]) {
          const seen = seenDropped[cause] ?? 0;
          if (now > seen) this.inc({ cause }, now - seen);
          seenDropped[cause] = now;
        }
      },
    });
    new Gauge({
      name: `${METRICS_PREFIX}read_cache_entries`,
      help: 'Answers and parts of answers the read cache holds.',
      registers: [this.registry],
      collect() {
        this.set(cache.size);
      },
    });
  }

  /** The PostgreSQL pool of this process, read when scraped. */
  watchPool(pool: pg.Pool): void {
    const gauge = (name: string, help: string, value: () => number) =>
      new Gauge({
        name: `${METRICS_PREFIX}db_pool_${name}`,
        help,
        registers: [this.registry],
        collect() {
          this.set(value());
        },
      });
    gauge('connections_in_use', 'PostgreSQL connections of this process lent out to a query or transaction.', () => pool.totalCount - pool.idleCount);
    gauge('connections_idle', 'PostgreSQL connections of this process open and idle.', () => pool.idleCount);
    gauge('waiting_clients', 'Queries and transactions of this process waiting for a PostgreSQL connection.', () => pool.waitingCount);
  }

  /** The exposition, in Prometheus's text format. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

// Typed configuration read from environment variables (decisions §1). Every variable is validated at
// start; a bad value stops the start with a message that names the variable.
import { DEFAULT_CONNECTIONS_PER_ADDRESS } from './http/connection-limits.js';

export type Role = 'api' | 'worker' | 'all';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  appUrl: string;
  databaseUrl: string;
  redisUrl: string | null;
  role: Role;
  /** null: read from or generated into `dataDir` by the admin-token module at start. */
  adminToken: string | null;
  dataDir: string;
  rateLimitPerMinute: number;
  previewSteps: number;
  webhookTimeoutMs: number;
  webhookRetryDelaysMs: number[];
  webhookCoalesceMs: number;
  webhookPauseAfterMs: number;
  webhookAllowPrivateNetworks: boolean;
  /** Endpoints a team or an organization may register at most. */
  webhookMaxEndpointsPerHome: number;
  /** Healthy endpoints a worker sends to at once; failing ones get a quarter as many probes. */
  webhookConcurrency: number;
  smtpUrl: string | null;
  mailFrom: string;
  demo: boolean;
  logLevel: string;
  /** Whom to believe about the client address (X-Forwarded-For): nobody, every proxy, N hops, or these addresses. */
  trustProxy: boolean | number | string;
  /** Keeps v1 answers in memory between requests (embedded store only), dropped on every write. */
  readCache: boolean;
  /** Connections of one client address served at once (src/http/connection-limits.ts); 0: no limit. */
  connectionsPerAddress: number;
  /** Bearer token of GET /metrics (docs/monitoring.md); null: no /metrics (404) and nothing measured. */
  metricsToken: string | null;
  /** Days GET /v1/events keeps an event (events a paused endpoint still has to redeliver stay longer). */
  eventsRetentionDays: number;
  /** Days the Deliveries list keeps an attempt once it is sent (attempts still to be sent stay whatever their age). */
  webhookAttemptsRetentionDays: number;
  /** Days the audit log keeps an entry (shared decisions §10, "Audit log"). */
  auditRetentionDays: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be from ${min} to ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lower)) return true;
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = read(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `10s,1m,5m` into milliseconds; a bare number is milliseconds. */
export function parseDurations(name: string, raw: string): number[] {
  const parts = raw.split(',').map((part) => part.trim());
  return parts.map((part) => {
    const match = /^(\d+)(ms|s|m|h|d)?$/.exec(part);
    if (!match) throw new ConfigError(name, `must be a comma-separated list of durations like 10s,1m,2h, got "${raw}"`);
    return Number(match[1]) * DURATION_UNITS[match[2] ?? 'ms']!;
  });
}

function databaseUrl(env: Env): string {
  const raw = read(env, 'DATABASE_URL') ?? 'file:./data/service.db';
  if (raw.startsWith('file:') && raw.length > 'file:'.length) return raw;
  if (/^postgres(ql)?:\/\//.test(raw)) return raw;
  throw new ConfigError('DATABASE_URL', `must be file:PATH, file::memory: or postgres://…, got "${raw}"`);
}

function trustProxy(env: Env): boolean | number | string {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (['true', 'false'].includes(raw.toLowerCase())) return raw.toLowerCase() === 'true';
  if (!/^[0-9A-Fa-f.:/, ]+$/.test(raw)) throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count or addresses, got "${raw}"`);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']);
  const appUrl = url(env, 'APP_URL', publicUrl, ['http:', 'https:']);
  const proxy = trustProxy(env);
  const role = read(env, 'ROLE') ?? 'all';
  if (role !== 'api' && role !== 'worker' && role !== 'all') {
    throw new ConfigError('ROLE', `must be api, worker or all, got "${role}"`);
  }
  const adminToken = read(env, 'ADMIN_TOKEN') ?? null;
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters long');
  }
  const metricsToken = read(env, 'METRICS_TOKEN') ?? null;
  if (metricsToken !== null && !/^\S{16,}$/.test(metricsToken)) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters long, without spaces');
  }
  const redisUrl = read(env, 'REDIS_URL') ?? null;
  if (redisUrl !== null) url(env, 'REDIS_URL', redisUrl, ['redis:', 'rediss:']);
  const smtpUrl = read(env, 'SMTP_URL') ?? null;
  if (smtpUrl !== null) url(env, 'SMTP_URL', smtpUrl, ['smtp:', 'smtps:']);
  const retryDelays = parseDurations('WEBHOOK_RETRY_DELAYS', read(env, 'WEBHOOK_RETRY_DELAYS') ?? '10s,1m,5m,30m,1h,3h,6h,12h');

  return {
    port,
    host,
    publicUrl,
    appUrl,
    databaseUrl: databaseUrl(env),
    redisUrl,
    role,
    adminToken,
    dataDir: read(env, 'DATA_DIR') ?? './data',
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    previewSteps: integer(env, 'PREVIEW_STEPS', 3, 0, 1000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1, 600_000),
    webhookRetryDelaysMs: retryDelays,
    webhookCoalesceMs: integer(env, 'WEBHOOK_COALESCE_MS', 60_000, 0, 86_400_000),
    webhookPauseAfterMs: integer(env, 'WEBHOOK_PAUSE_AFTER_MS', 86_400_000, 0, 30 * 86_400_000),
    webhookAllowPrivateNetworks: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookMaxEndpointsPerHome: integer(env, 'WEBHOOK_MAX_ENDPOINTS_PER_HOME', 20, 1, 10_000),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 1024, 1, 10_000),
    smtpUrl,
    mailFrom: read(env, 'MAIL_FROM') ?? 'Service <no-reply@localhost>',
    demo: boolean(env, 'DEMO', true),
    logLevel: read(env, 'LOG_LEVEL') ?? 'info',
    trustProxy: proxy,
    readCache: boolean(env, 'READ_CACHE', true),
    // Behind a proxy every connection comes from the proxy, which limits each client itself (docs/deploy.md).
    connectionsPerAddress: integer(env, 'CONNECTIONS_PER_ADDRESS', proxy === false ? DEFAULT_CONNECTIONS_PER_ADDRESS : 0, 0, 100_000),
    metricsToken,
    eventsRetentionDays: integer(env, 'EVENTS_RETENTION_DAYS', 30, 1, 3650),
    webhookAttemptsRetentionDays: integer(env, 'WEBHOOK_ATTEMPTS_RETENTION_DAYS', 30, 1, 3650),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365, 1, 3650),
  };
}

// Configuration (decisions §1): environment variables, validated at start; a bad value stops the start
// with a message that names the variable. loadConfig reads only the env object it is given.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

function expectRefused(env: Record<string, string>, variable: string): void {
  const error = configError(env);
  expect(error.variable).toBe(variable);
  expect(error.message).toContain(variable);
}

describe('loadConfig: defaults (decisions §1)', () => {
  const config = loadConfig({});

  it('PORT defaults to 3000 and HOST to 127.0.0.1 (decisions §1)', () => {
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
  });

  it('PUBLIC_URL defaults to http://localhost:$PORT (decisions §1)', () => {
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('APP_URL defaults to PUBLIC_URL (decisions §1)', () => {
    expect(config.appUrl).toBe(config.publicUrl);
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com' }).appUrl).toBe('https://api.example.com');
    expect(loadConfig({ PORT: '4000' }).appUrl).toBe('http://localhost:4000');
  });

  it('DATABASE_URL defaults to file:./data/service.db (decisions §1)', () => {
    expect(config.databaseUrl).toBe('file:./data/service.db');
  });

  it('REDIS_URL and SMTP_URL default to none (decisions §1)', () => {
    expect(config.redisUrl).toBeNull();
    expect(config.smtpUrl).toBeNull();
  });

  it('ROLE defaults to all (decisions §1)', () => {
    expect(config.role).toBe('all');
  });

  it('ADMIN_TOKEN defaults to none, to be generated at first start (decisions §1)', () => {
    expect(config.adminToken).toBeNull();
  });

  it('RATE_LIMIT_PER_MINUTE defaults to 600 (decisions §1)', () => {
    expect(config.rateLimitPerMinute).toBe(600);
  });

  it('PREVIEW_STEPS defaults to 3 (decisions §1)', () => {
    expect(config.previewSteps).toBe(3);
  });

  it('WEBHOOK_TIMEOUT_MS defaults to 10000 (decisions §1)', () => {
    expect(config.webhookTimeoutMs).toBe(10_000);
  });

  it('WEBHOOK_RETRY_DELAYS defaults to 10s,1m,5m,30m,1h,3h,6h,12h in milliseconds: 8 retries, about 22.6 h (decisions §1)', () => {
    expect(config.webhookRetryDelaysMs).toEqual([10_000, 60_000, 300_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000]);
    const hours = config.webhookRetryDelaysMs.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeCloseTo(22.6, 1);
  });

  it('WEBHOOK_COALESCE_MS defaults to 60000 (decisions §1)', () => {
    expect(config.webhookCoalesceMs).toBe(60_000);
  });

  it('WEBHOOK_PAUSE_AFTER_MS defaults to 86400000 (decisions §1)', () => {
    expect(config.webhookPauseAfterMs).toBe(86_400_000);
  });

  it('WEBHOOK_MAX_ENDPOINTS_PER_HOME defaults to 20 (decisions §9)', () => {
    expect(config.webhookMaxEndpointsPerHome).toBe(20);
  });

  it('EVENTS_RETENTION_DAYS defaults to 30 days of events in GET /v1/events (issue 17)', () => {
    expect(config.eventsRetentionDays).toBe(30);
  });

  it('WEBHOOK_ATTEMPTS_RETENTION_DAYS defaults to 30 days of sent attempts in the Deliveries list (decisions §6, issue 33)', () => {
    expect(config.webhookAttemptsRetentionDays).toBe(30);
  });

  it('AUDIT_RETENTION_DAYS defaults to 365 days of the audit log (shared decisions §10)', () => {
    expect(config.auditRetentionDays).toBe(365);
  });

  it('WEBHOOK_CONCURRENCY defaults to 1024 healthy endpoints sent to at once', () => {
    expect(config.webhookConcurrency).toBe(1024);
  });

  it('WEBHOOK_ALLOW_PRIVATE_NETWORKS defaults to false (decisions §1)', () => {
    expect(config.webhookAllowPrivateNetworks).toBe(false);
  });

  it('DEMO defaults to on, so an empty database gets the demo (decisions §1)', () => {
    expect(config.demo).toBe(true);
  });

  it('an empty or blank variable counts as unset (decisions §1)', () => {
    const blank = loadConfig({ PORT: '', HOST: '  ', PUBLIC_URL: '', DATABASE_URL: ' ', WEBHOOK_RETRY_DELAYS: '', DEMO: '' });
    expect(blank.port).toBe(3000);
    expect(blank.host).toBe('127.0.0.1');
    expect(blank.publicUrl).toBe('http://localhost:3000');
    expect(blank.databaseUrl).toBe('file:./data/service.db');
    expect(blank.webhookRetryDelaysMs).toHaveLength(8);
    expect(blank.demo).toBe(true);
  });
});

describe('loadConfig: values that are read (decisions §1)', () => {
  it('PORT and HOST are read (decisions §1)', () => {
    const config = loadConfig({ PORT: '8080', HOST: '0.0.0.0' });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
  });

  it('PUBLIC_URL and APP_URL are read, without a trailing slash (decisions §1: the REST base is $PUBLIC_URL/v1)', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://api.example.com/', APP_URL: 'https://app.example.com/' });
    expect(config.publicUrl).toBe('https://api.example.com');
    expect(config.appUrl).toBe('https://app.example.com');
  });

  it('DATABASE_URL accepts file:PATH, file::memory: and postgres:// (decisions §1)', () => {
    for (const value of ['file:./x.db', 'file::memory:', 'postgres://u:p@db:5432/app', 'postgresql://db/app']) {
      expect(loadConfig({ DATABASE_URL: value }).databaseUrl).toBe(value);
    }
  });

  it('ROLE accepts api, worker and all (decisions §1)', () => {
    for (const role of ['api', 'worker', 'all'] as const) expect(loadConfig({ ROLE: role }).role).toBe(role);
  });

  it('ADMIN_TOKEN of 16 characters or more is kept (decisions §1)', () => {
    expect(loadConfig({ ADMIN_TOKEN: 'abcdefghijklmnop' }).adminToken).toBe('abcdefghijklmnop');
  });

  it('WEBHOOK_RETRY_DELAYS accepts ms, s, m, h and d, and a bare number is milliseconds (decisions §1)', () => {
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: '250ms, 2s,3m,1h,1d,500' }).webhookRetryDelaysMs).toEqual([
      250, 2_000, 180_000, 3_600_000, 86_400_000, 500,
    ]);
  });

  it('numeric variables are read (decisions §1)', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_MINUTE: '60',
      PREVIEW_STEPS: '5',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_COALESCE_MS: '0',
      WEBHOOK_PAUSE_AFTER_MS: '3600000',
      WEBHOOK_MAX_ENDPOINTS_PER_HOME: '3',
      WEBHOOK_CONCURRENCY: '16',
      EVENTS_RETENTION_DAYS: '7',
      WEBHOOK_ATTEMPTS_RETENTION_DAYS: '90',
      AUDIT_RETENTION_DAYS: '3650',
    });
    expect(config.rateLimitPerMinute).toBe(60);
    expect(config.previewSteps).toBe(5);
    expect(config.webhookTimeoutMs).toBe(2000);
    expect(config.webhookCoalesceMs).toBe(0);
    expect(config.webhookPauseAfterMs).toBe(3_600_000);
    expect(config.webhookMaxEndpointsPerHome).toBe(3);
    expect(config.webhookConcurrency).toBe(16);
    expect(config.eventsRetentionDays).toBe(7);
    expect(config.webhookAttemptsRetentionDays).toBe(90);
    expect(config.auditRetentionDays).toBe(3650);
    expect(loadConfig({ WEBHOOK_ATTEMPTS_RETENTION_DAYS: '1', AUDIT_RETENTION_DAYS: '1' })).toMatchObject({ webhookAttemptsRetentionDays: 1, auditRetentionDays: 1 });
  });

  it('DEMO=false skips the demo and WEBHOOK_ALLOW_PRIVATE_NETWORKS=true allows private networks (decisions §1)', () => {
    expect(loadConfig({ DEMO: 'false' }).demo).toBe(false);
    expect(loadConfig({ DEMO: 'FALSE' }).demo).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).webhookAllowPrivateNetworks).toBe(true);
  });

  it('REDIS_URL and SMTP_URL are read when set (decisions §1)', () => {
    const config = loadConfig({ REDIS_URL: 'redis://cache:6379', SMTP_URL: 'smtp://mail:25' });
    expect(config.redisUrl).toBe('redis://cache:6379');
    expect(config.smtpUrl).toBe('smtp://mail:25');
  });
});

describe('loadConfig: a bad value stops the start with a message naming the variable (decisions §1)', () => {
  it('PORT=abc is refused, naming PORT (decisions §1)', () => {
    expectRefused({ PORT: 'abc' }, 'PORT');
  });

  it('PORT=70000 is refused, naming PORT (decisions §1)', () => {
    expectRefused({ PORT: '70000' }, 'PORT');
  });

  it('PORT that is negative, fractional or has a unit is refused, naming PORT (decisions §1)', () => {
    for (const value of ['-1', '3000.5', '3e3', '3000ms', '0x10']) expectRefused({ PORT: value }, 'PORT');
  });

  it('ROLE=x is refused, naming ROLE (decisions §1)', () => {
    expectRefused({ ROLE: 'x' }, 'ROLE');
  });

  it('DATABASE_URL=mysql:// is refused, naming DATABASE_URL (decisions §1)', () => {
    expectRefused({ DATABASE_URL: 'mysql://' }, 'DATABASE_URL');
  });

  it('DATABASE_URL=file: without a path is refused, naming DATABASE_URL (decisions §1)', () => {
    expectRefused({ DATABASE_URL: 'file:' }, 'DATABASE_URL');
    expectRefused({ DATABASE_URL: './data/service.db' }, 'DATABASE_URL');
  });

  it('PUBLIC_URL=notaurl is refused, naming PUBLIC_URL (decisions §1)', () => {
    expectRefused({ PUBLIC_URL: 'notaurl' }, 'PUBLIC_URL');
  });

  it('PUBLIC_URL with a scheme other than http(s) is refused, naming PUBLIC_URL (decisions §1)', () => {
    expectRefused({ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL');
  });

  it('APP_URL=notaurl is refused, naming APP_URL (decisions §1)', () => {
    expectRefused({ APP_URL: 'notaurl' }, 'APP_URL');
  });

  it('WEBHOOK_RETRY_DELAYS=10x is refused, naming WEBHOOK_RETRY_DELAYS (decisions §1)', () => {
    expectRefused({ WEBHOOK_RETRY_DELAYS: '10x' }, 'WEBHOOK_RETRY_DELAYS');
    expectRefused({ WEBHOOK_RETRY_DELAYS: '10s,,1m' }, 'WEBHOOK_RETRY_DELAYS');
    expectRefused({ WEBHOOK_RETRY_DELAYS: '-5s' }, 'WEBHOOK_RETRY_DELAYS');
  });

  it('DEMO=maybe is refused, naming DEMO (decisions §1)', () => {
    expectRefused({ DEMO: 'maybe' }, 'DEMO');
  });

  it('WEBHOOK_ALLOW_PRIVATE_NETWORKS=sometimes is refused, naming it (decisions §1)', () => {
    expectRefused({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'sometimes' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS');
  });

  it('an ADMIN_TOKEN that is too short is refused, naming ADMIN_TOKEN (decisions §1)', () => {
    expectRefused({ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN');
    expectRefused({ ADMIN_TOKEN: 'a'.repeat(15) }, 'ADMIN_TOKEN');
  });

  it('a bad ADMIN_TOKEN is not echoed in the message (it is a secret)', () => {
    const error = configError({ ADMIN_TOKEN: 'secret-xyz' });
    expect(error.message).not.toContain('secret-xyz');
  });

  it('non-numeric or out-of-range numbers are refused, naming the variable (decisions §1)', () => {
    expectRefused({ RATE_LIMIT_PER_MINUTE: 'lots' }, 'RATE_LIMIT_PER_MINUTE');
    expectRefused({ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE');
    expectRefused({ PREVIEW_STEPS: 'three' }, 'PREVIEW_STEPS');
    expectRefused({ WEBHOOK_TIMEOUT_MS: '10s' }, 'WEBHOOK_TIMEOUT_MS');
    expectRefused({ WEBHOOK_TIMEOUT_MS: '0' }, 'WEBHOOK_TIMEOUT_MS');
    expectRefused({ WEBHOOK_COALESCE_MS: '1.5' }, 'WEBHOOK_COALESCE_MS');
    expectRefused({ WEBHOOK_PAUSE_AFTER_MS: '-1' }, 'WEBHOOK_PAUSE_AFTER_MS');
    expectRefused({ WEBHOOK_MAX_ENDPOINTS_PER_HOME: '0' }, 'WEBHOOK_MAX_ENDPOINTS_PER_HOME');
    expectRefused({ WEBHOOK_MAX_ENDPOINTS_PER_HOME: 'many' }, 'WEBHOOK_MAX_ENDPOINTS_PER_HOME');
    expectRefused({ WEBHOOK_CONCURRENCY: '0' }, 'WEBHOOK_CONCURRENCY');
    expectRefused({ EVENTS_RETENTION_DAYS: '0' }, 'EVENTS_RETENTION_DAYS');
    expectRefused({ EVENTS_RETENTION_DAYS: '3651' }, 'EVENTS_RETENTION_DAYS');
    expectRefused({ EVENTS_RETENTION_DAYS: '30d' }, 'EVENTS_RETENTION_DAYS');
  });

  it('retention days outside 1–3650, or not whole numbers, are refused, naming the variable (issue 33)', () => {
    for (const variable of ['WEBHOOK_ATTEMPTS_RETENTION_DAYS', 'AUDIT_RETENTION_DAYS']) {
      for (const bad of ['0', '3651', '-1', '30d', '1.5', 'forever']) {
        expectRefused({ [variable]: bad }, variable);
      }
      expect(configError({ [variable]: '3651' }).message).toBe(`Invalid configuration: ${variable} must be from 1 to 3650, got 3651`);
    }
  });

  it('REDIS_URL and SMTP_URL with the wrong scheme are refused, naming the variable (decisions §1)', () => {
    expectRefused({ REDIS_URL: 'http://cache' }, 'REDIS_URL');
    expectRefused({ SMTP_URL: 'notaurl' }, 'SMTP_URL');
  });

  it('ConfigError is an Error named ConfigError (decisions §1)', () => {
    const error = configError({ PORT: 'abc' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ConfigError');
  });
});

describe('CONNECTIONS_PER_ADDRESS (issue 13, item 15)', () => {
  it('is 32 by default, 0 behind a trusted proxy, and what it is set to', () => {
    expect(loadConfig({}).connectionsPerAddress).toBe(32);
    expect(loadConfig({ TRUST_PROXY: 'true' }).connectionsPerAddress).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true', CONNECTIONS_PER_ADDRESS: '8' }).connectionsPerAddress).toBe(8);
    expect(loadConfig({ CONNECTIONS_PER_ADDRESS: '0' }).connectionsPerAddress).toBe(0);
    expect(() => loadConfig({ CONNECTIONS_PER_ADDRESS: '-1' })).toThrow(/CONNECTIONS_PER_ADDRESS/);
  });
});

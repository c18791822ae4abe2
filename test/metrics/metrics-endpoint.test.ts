// GET /metrics (decisions §9, issue 15): Prometheus's text format behind METRICS_TOKEN, 404 without it;
// requests measured by route template, method and status class; 401s, 429s and problem codes counted;
// /metrics and the probes neither measured, nor rate-limited, nor logged at info.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, soloTeam, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { has, METRICS_TOKEN, parseExposition, scrape, total } from './exposition.js';

const DURATION_COUNT = 'guide_http_request_duration_seconds_count';

describe('without METRICS_TOKEN', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t.close());

  it('/metrics does not exist: 404 with or without a bearer token', async () => {
    const bare = await t.service.app.inject({ method: 'GET', url: '/metrics' });
    expect(bare.statusCode).toBe(404);
    const withToken = await t.service.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(withToken.statusCode).toBe(404);
    expect(withToken.json().code).toBe('not_found');
  });
});

describe('with METRICS_TOKEN', () => {
  let t: TestService;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await startTestService({ METRICS_TOKEN, RATE_LIMIT_PER_MINUTE: '20' }, { logLines });
  });
  afterAll(() => t.close());

  const metrics = (authorization?: string) =>
    t.service.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

  it('answers 401 without the token or with a wrong one, and the text format with it', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${METRICS_TOKEN}`, METRICS_TOKEN]) {
      const refused = await metrics(authorization);
      expect(refused.statusCode, String(authorization)).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.body).not.toContain('guide_');
    }
    const answer = await metrics(`Bearer ${METRICS_TOKEN}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    const samples = parseExposition(answer.body);
    // Default process metrics, event loop lag, and this service's families.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(has(samples, name), name).toBe(true);
    }
    for (const family of [
      'guide_http_request_duration_seconds',
      'guide_http_rate_limited_total',
      'guide_http_unauthorized_total',
      'guide_http_problems_total',
      'guide_read_cache_hits_total',
      'guide_read_cache_misses_total',
      'guide_read_cache_invalidations_total',
      'guide_webhook_attempts_total',
      'guide_webhook_delivery_latency_seconds',
      'guide_webhook_due_attempts',
      'guide_webhook_oldest_due_attempt_age_seconds',
      'guide_webhook_endpoints',
      'guide_webhook_resends_total',
      'guide_webhook_resumes_total',
      'guide_mail_sent_total',
      'guide_mail_failed_total',
    ]) {
      expect(answer.body, family).toContain(`# TYPE ${family} `);
    }
  });

  it('measures requests by route template, method and status class, never by their URL', async () => {
    const { team, key } = await soloTeam(t);
    const guide = await createGuide(t, team.id, { title: 'Measured' });
    expect((await t.get(`/v1/guides/${guide.id}`, key)).statusCode).toBe(200);
    expect((await t.get(`/v1/guides/${guide.id}?unknown_parameter=secretish`, key)).statusCode).toBe(400);
    expect((await t.get('/nowhere/at-all-123', key)).statusCode).toBe(404);
    const { text, samples } = await scrape(t);
    expect(total(samples, DURATION_COUNT, { route: '/v1/guides/:guideId', method: 'GET', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, DURATION_COUNT, { route: '/v1/guides/:guideId', method: 'GET', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, DURATION_COUNT, { route: '(unmatched)', method: 'GET', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, DURATION_COUNT, { route: '/admin/v1/guides', method: 'POST', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    // Nothing of what the requests carried: ids, keys, paths no route has, query strings.
    for (const secret of [guide.id, team.id, key, 'at-all-123', 'secretish']) expect(text).not.toContain(secret);
    for (const sample of samples.filter((s) => s.name === DURATION_COUNT)) {
      expect(sample.labels.route).toMatch(/^(\/[A-Za-z0-9_.:*/-]*|\(unmatched\))$/);
      expect(sample.labels.status_class).toMatch(/^[1-5]xx$/);
    }
  });

  it('counts 401s, 429s and the problem codes answered, by route template', async () => {
    const before = (await scrape(t)).samples;
    expect((await t.get('/v1/guides', 'gsk_not_a_real_key')).statusCode).toBe(401);
    const { key } = await soloTeam(t);
    let refused = 0;
    for (let i = 0; i < 25 && refused === 0; i++) if ((await t.get('/v1/teams', key)).statusCode === 429) refused++;
    expect(refused).toBe(1);
    const after = (await scrape(t)).samples;
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    expect(moved('guide_http_unauthorized_total', { route: '/v1/guides' })).toBe(1);
    expect(moved('guide_http_rate_limited_total', { route: '/v1/teams' })).toBe(1);
    expect(moved('guide_http_problems_total', { code: 'invalid_key' })).toBe(1);
    expect(moved('guide_http_problems_total', { code: 'rate_limited' })).toBe(1);
  });

  it('/metrics, /healthz and /readyz are not measured, not rate-limited and not logged at info', async () => {
    logLines.length = 0;
    // More than RATE_LIMIT_PER_MINUTE of each, wrong tokens included: none is refused with 429, and the
    // wrong tokens do not spend the client address's budget for refused credentials.
    for (let i = 0; i < 30; i++) {
      expect((await t.service.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await t.service.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect((await metrics('Bearer wrong-token-0123456789')).statusCode).toBe(401);
      expect((await metrics(`Bearer ${METRICS_TOKEN}`)).statusCode).toBe(200);
    }
    expect(logLines.filter((line) => line.includes('request answered'))).toEqual([]);
    const { samples } = await scrape(t);
    for (const route of ['/metrics', '/healthz', '/readyz']) expect(has(samples, DURATION_COUNT, { route }), route).toBe(false);
    expect(total(samples, 'guide_http_unauthorized_total', { route: '/metrics' })).toBe(0);
    // Other requests are still logged, once each.
    const { key } = await soloTeam(t);
    await t.get('/v1/teams', key);
    expect(logLines.filter((line) => line.includes('request answered') && line.includes('"url":"/v1/teams"'))).toHaveLength(1);
  });

  it('counts read cache hits, misses and invalidations, these by cause', async () => {
    const { team, key } = await soloTeam(t);
    const guide = await createGuide(t, team.id, { title: 'Cached' });
    const before = (await scrape(t)).samples;
    const moved = async (name: string) => total((await scrape(t)).samples, name) - total(before, name);
    // On PostgreSQL the cache serves once its listener is connected.
    await eventually('a read served from the cache', async () => {
      await t.get(`/v1/guides/${guide.id}`, key);
      return (await moved('guide_read_cache_hits_total')) >= 1;
    });
    expect(await moved('guide_read_cache_misses_total')).toBeGreaterThanOrEqual(1);
    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Cached, renamed' });
    await eventually('an invalidation', async () => (await moved('guide_read_cache_invalidations_total')) >= 1);
    // The renamed guide's detail was dropped by its own tag, not by a drop of everything.
    const invalidations = (await scrape(t)).samples;
    expect(total(invalidations, 'guide_read_cache_invalidations_total', { cause: 'guide' }) - total(before, 'guide_read_cache_invalidations_total', { cause: 'guide' })).toBeGreaterThanOrEqual(1);
    expect(total(invalidations, 'guide_read_cache_invalidations_total', { cause: 'undeclared_write' })).toBe(0);
    expect(total((await scrape(t)).samples, 'guide_read_cache_entries')).toBeGreaterThanOrEqual(0);
  });
});

// A real Prometheus scrapes a running service (issue 15): Debian's prometheus, started here on loopback
// with a scrape interval of one second and the repository's alert rules, against the service listening on
// loopback with METRICS_TOKEN. The test drives traffic over HTTP (reads, a refused key, an endpoint that
// receives its delivery, one whose address refuses connections) and asks Prometheus, through its HTTP
// API in PromQL, whether the numbers moved as they should. `promtool check metrics` lints the exposition.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build.js';
import { freePort } from '../support/processes.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service.js';
import { eventually, sleep } from '../support/waiting.js';
import { closedPortUrl } from '../support/webhooks.js';
import { METRICS_TOKEN } from './exposition.js';
import { available, PROMETHEUS, PROMTOOL, promtool } from './tools.js';

const SCRAPE = { timeoutMs: 30_000, intervalMs: 250 };

interface QueryResult {
  metric: Record<string, string>;
  value: [number, string];
}

describe.runIf(available(PROMETHEUS, 'prometheus') && available(PROMTOOL, 'promtool'))('a real Prometheus scraping the service', () => {
  let receiver: Receiver;
  let t: TestService;
  let base: string;
  let dir: string;
  let prometheus: ChildProcess;
  let prometheusUrl: string;
  let prometheusOutput = '';

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestService({
      METRICS_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_COALESCE_MS: '0',
      WEBHOOK_RETRY_DELAYS: '1h',
      WEBHOOK_TIMEOUT_MS: '2000',
    });
    base = await t.service.app.listen({ port: 0, host: '127.0.0.1' });
    dir = mkdtempSync(join(tmpdir(), 'guide-prometheus-'));
    writeFileSync(join(dir, 'token'), METRICS_TOKEN);
    const target = new URL(base).host;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }',
        `rule_files: ['${join(projectRoot, 'monitoring', 'alerts.yml')}']`,
        'scrape_configs:',
        '  - job_name: guide',
        `    authorization: { type: Bearer, credentials_file: '${join(dir, 'token')}' }`,
        `    static_configs: [{ targets: ['${target}'], labels: { role: all } }]`,
        // The same target without the token: refused, so Prometheus sees it down.
        '  - job_name: guide-without-token',
        `    static_configs: [{ targets: ['${target}'] }]`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS!,
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout!.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
    prometheus.stderr!.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
    await eventually(
      'Prometheus to be ready',
      async () => {
        if (prometheus.exitCode !== null) throw new Error(`prometheus exited: ${prometheusOutput}`);
        return (await fetch(`${prometheusUrl}/-/ready`)).ok;
      },
      { timeoutMs: 20_000, intervalMs: 100, retryOnError: true },
    );
  });

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (prometheus.exitCode === null) prometheus.kill('SIGKILL');
    }
    await t?.close();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** An instant PromQL query; fails on anything but success. */
  async function query(promql: string): Promise<QueryResult[]> {
    const response = await fetch(`${prometheusUrl}/api/v1/query?${new URLSearchParams({ query: promql })}`);
    const body = (await response.json()) as { status: string; error?: string; data: { resultType: string; result: QueryResult[] } };
    if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
    return body.data.result;
  }

  /** The single value of a query that aggregates to one series; null while it has none. */
  async function value(promql: string): Promise<number | null> {
    const result = await query(promql);
    if (result.length === 0) return null;
    expect(result, promql).toHaveLength(1);
    return Number(result[0]!.value[1]);
  }

  /** Waits until Prometheus answers `promql` with a value that `holds`, and answers it. */
  function until(promql: string, holds: (value: number) => boolean): Promise<number> {
    return eventually(`${promql} to hold`, async () => {
      const current = await value(promql);
      return current !== null && holds(current) ? { current } : null;
    }, SCRAPE).then(({ current }) => current);
  }

  const call = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await call(method, `/admin/v1${path}`, ADMIN_TOKEN, body);
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return ((await response.json()) as { data: any }).data;
  };

  it('scrapes every second, and PromQL sees reads, refusals, a delivery and a failing endpoint move the numbers', { timeout: 90_000 }, async () => {
    expect(await until('up{job="guide"}', (up) => up === 1)).toBe(1);
    expect(await until('up{job="guide-without-token"}', (up) => up === 0)).toBe(0);
    const reads = 'sum(guide_http_request_duration_seconds_count{route="/v1/guides",method="GET",status_class="2xx"})';
    expect(await value(reads)).toBeNull();
    expect(await value('sum(guide_webhook_attempts_total)')).toBeNull();

    // Reads (the same page again and again: the cache serves them) and one refused key.
    const team = await admin('POST', '/teams', { name: 'Scraped', plan: 'growth' });
    const created = (await (await call('POST', '/admin/v1/api-keys', ADMIN_TOKEN, { home: { type: 'team', id: team.id }, name: 'reader', scopes: ['guides:read'], expires_in_days: null })).json()) as { secret: string };
    await admin('POST', '/guides', { team_id: team.id, title: 'Watched' });
    for (let i = 0; i < 20; i++) expect((await call('GET', '/v1/guides', created.secret)).status).toBe(200);
    expect((await call('GET', '/v1/guides', 'gsk_not_a_real_key')).status).toBe(401);
    // A receiver that takes its ping, and an address where nothing listens.
    await admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
    await admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: await closedPortUrl(), events: ['guide.created'] });
    await receiver.waitFor(1);

    expect(await until(reads, (n) => n >= 20)).toBe(20);
    expect(await until('sum(guide_http_unauthorized_total{route="/v1/guides"})', (n) => n >= 1)).toBe(1);
    expect(await until('sum(guide_http_problems_total{code="invalid_key"})', (n) => n >= 1)).toBe(1);
    expect(await until('sum(guide_read_cache_hits_total)', (n) => n >= 15)).toBeGreaterThanOrEqual(15);
    expect(await until('sum(guide_webhook_attempts_total{outcome="delivered"})', (n) => n >= 1)).toBe(1);
    expect(await until('sum(guide_webhook_attempts_total{outcome="connect"})', (n) => n >= 1)).toBe(1);
    expect(await until('sum(guide_webhook_delivery_latency_seconds_count)', (n) => n >= 1)).toBe(1);
    // Commit to 2xx on loopback: well under the 5 s bucket.
    expect(await until('sum(guide_webhook_delivery_latency_seconds_bucket{le="5"})', (n) => n >= 1)).toBe(1);
    // The query gauges, computed every few seconds by this process (it runs the worker).
    expect(await until('max(guide_webhook_endpoints{state="failing"})', (n) => n === 1)).toBe(1);
    expect(await until('max(guide_webhook_endpoints{state="active"})', (n) => n === 1)).toBe(1);
    expect(await value('max(guide_webhook_oldest_due_attempt_age_seconds{lane="healthy"})')).toBe(0);
    // More reads, seen as an increase between scrapes.
    for (let i = 0; i < 10; i++) expect((await call('GET', '/v1/guides', created.secret)).status).toBe(200);
    expect(await until(reads, (n) => n >= 30)).toBe(30);
    expect(await until(`sum(increase(guide_http_request_duration_seconds_count{route="/v1/guides",status_class="2xx"}[1m]))`, (n) => n >= 9)).toBeGreaterThanOrEqual(9);
    const p99 = await value('histogram_quantile(0.99, sum by (le) (rate(guide_http_request_duration_seconds_bucket{route="/v1/guides"}[1m])))');
    if (p99 !== null && !Number.isNaN(p99)) expect(p99).toBeLessThan(10);

    // Prometheus scraped /metrics dozens of times meanwhile: none of it counts as API traffic.
    expect(await query('guide_http_request_duration_seconds_count{route=~"/metrics|/healthz|/readyz"}')).toEqual([]);
    expect(await value('sum(guide_http_unauthorized_total)')).toBe(1);
    // Every series carries a route template, never a URL with an id in it.
    const routes = (await query('count by (route) (guide_http_request_duration_seconds_count)')).map((row) => row.metric.route!);
    expect(routes).toContain('/v1/guides');
    for (const route of routes) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
  });

  it('loads the alert rules, evaluates them without errors, and none fires', { timeout: 30_000 }, async () => {
    const rules = await eventually(
      'the rules evaluated',
      async () => {
        const body = (await (await fetch(`${prometheusUrl}/api/v1/rules`)).json()) as { data: { groups: { rules: { name: string; health: string; state: string; lastError?: string }[] }[] } };
        const all = body.data.groups.flatMap((group) => group.rules);
        return all.length === 5 && all.every((rule) => rule.health === 'ok') ? all : null;
      },
      SCRAPE,
    );
    expect(rules.map((rule) => rule.name).sort()).toEqual(['GuideHighErrorRate', 'GuideHighLatency', 'GuideMailFailing', 'GuideWebhookBacklog', 'GuideWebhookEndpointPaused']);
    expect(rules.filter((rule) => rule.state !== 'inactive')).toEqual([]);
  });

  it("every expression of the Grafana dashboard is valid PromQL for this Prometheus", async () => {
    const dashboard = JSON.parse(readFileSync(join(projectRoot, 'monitoring', 'grafana-dashboard.json'), 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    for (const { expr } of dashboard.panels.flatMap((panel) => panel.targets)) await query(expr);
  });

  it('promtool check metrics passes on the scraped text', async () => {
    const response = await call('GET', '/metrics', METRICS_TOKEN);
    expect(response.status).toBe(200);
    const { code, output } = await promtool(['check', 'metrics'], await response.text());
    expect(code, output).toBe(0);
  });
});

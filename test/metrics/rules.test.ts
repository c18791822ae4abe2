// The alert rules and the dashboard of docs/monitoring.md (issue 15): `promtool check rules` accepts the
// rule file, its unit tests pass (`promtool test rules`), and every series the rules and the dashboard
// name is one the service exports.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build.js';
import { startTestService, type TestService } from '../support/service.js';
import { METRICS_TOKEN, scrape } from './exposition.js';
import { available, PROMTOOL, promtool } from './tools.js';

const MONITORING = join(projectRoot, 'monitoring');
const RULES = join(MONITORING, 'alerts.yml');
const DASHBOARD = join(MONITORING, 'grafana-dashboard.json');

/** The `expr` of every rule in a rule file (one line, or a `|` block). */
function ruleExprs(yaml: string): string[] {
  const exprs: string[] = [];
  const lines = yaml.split('\n');
  lines.forEach((line, index) => {
    const match = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!match) return;
    if (match[2] !== '|') return void exprs.push(match[2]!);
    const block: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.search(/\S/) <= match[1]!.length) break;
      block.push(next);
    }
    exprs.push(block.join('\n'));
  });
  return exprs;
}

// Exported only where there is a pool: on PostgreSQL.
const POSTGRES_ONLY = new Set(['guide_db_pool_connections_in_use', 'guide_db_pool_connections_idle', 'guide_db_pool_waiting_clients']);

/** The metric families an expression names (histogram series by their family). */
function familiesIn(text: string): Set<string> {
  return new Set([...text.matchAll(/\b(guide_[a-z0-9_]+|nodejs_[a-z0-9_]+|process_[a-z0-9_]+)/g)].map(([name]) => name!.replace(/_(bucket|count|sum)$/, '')));
}

describe.runIf(available(PROMTOOL, 'promtool'))('alert rules', () => {
  it('promtool check rules accepts monitoring/alerts.yml, with the five alerts', async () => {
    const { code, output } = await promtool(['check', 'rules', RULES]);
    expect(code, output).toBe(0);
    expect(output).toContain('SUCCESS: 5 rules found');
  });

  it('the rules fire and stay quiet as their unit tests say (promtool test rules)', async () => {
    const { code, output } = await promtool(['test', 'rules', 'alerts.test.yml'], undefined, MONITORING);
    expect(code, output).toBe(0);
    expect(output).toContain('SUCCESS');
  });
});

describe('what the rules and the dashboard name', () => {
  let t: TestService;
  beforeAll(async () => {
    // SMTP set, so that the mail gauges exist (nothing is sent in this test).
    t = await startTestService({ METRICS_TOKEN, SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(() => t.close());

  it('every family the alert rules and the Grafana dashboard use is exported by the service', async () => {
    const { text } = await scrape(t);
    const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name!));
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
    const dashboardExprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
    expect(dashboardExprs.length).toBeGreaterThanOrEqual(8);
    const alertExprs = ruleExprs(readFileSync(RULES, 'utf8'));
    expect(alertExprs).toHaveLength(5);
    const onSqlite = t.service.store.dialect === 'sqlite';
    for (const [source, names] of [
      ['alerts.yml', familiesIn(alertExprs.join('\n'))],
      ['grafana-dashboard.json', familiesIn(dashboardExprs.join('\n'))],
    ] as const) {
      expect(names.size, source).toBeGreaterThan(0);
      for (const name of names) expect(exported.has(name) || (onSqlite && POSTGRES_ONLY.has(name)), `${source} names ${name}`).toBe(true);
    }
  });
});

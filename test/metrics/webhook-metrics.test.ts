// The webhook and mail families (issue 15): attempts by outcome class, commit-to-2xx latency, due
// attempts and the age of the oldest by lane, endpoints by state, resends and resumes, mail sent, failed,
// queued and the age of the oldest unsent; which roles report what. The worker sends through a scripted
// transport and the clock moves only when the test moves it.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queueMail } from '../../src/mail/mail-outbox.js';
import { attemptOutcomeClass, eventCreatedAt } from '../../src/metrics/webhook-outcomes.js';
import { type Reply, ScriptedTransport } from '../support/scripted-transport.js';
import { soloTeam, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { deliveriesPage } from '../support/webhooks.js';
import { has, METRICS_TOKEN, scrape, type Sample, total } from './exposition.js';

const ENV = { METRICS_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_RETRY_DELAYS: '1h,1h,1h' };

async function endpointAt(t: TestService, path: string) {
  const { team } = await soloTeam(t);
  return t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `http://127.0.0.1:9${path}`, events: ['guide.created'] });
}

/** Computes the gauges that need a query now, then scrapes. */
async function refreshedScrape(t: TestService): Promise<Sample[]> {
  await t.service.metrics!.gauges!.refresh();
  return (await scrape(t)).samples;
}

describe('outcome classes', () => {
  it('delivered, timeout, connect, blocked, then by status: 3xx, 4xx, 410 on its own, 5xx', () => {
    const failed = (status: number | null, error: string) => attemptOutcomeClass({ delivered: false, status, error });
    expect(attemptOutcomeClass({ delivered: true, status: 204, error: null })).toBe('delivered');
    expect(failed(null, 'no answer within 10000 ms')).toBe('timeout');
    expect(failed(null, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9')).toBe('connect');
    expect(failed(null, 'UND_ERR_CONNECT_TIMEOUT: Connect Timeout Error')).toBe('connect');
    expect(failed(null, 'hooks.example does not resolve to a public address')).toBe('blocked');
    expect(failed(301, 'redirect answered (301); redirects are not followed')).toBe('3xx');
    expect(failed(429, 'answered 429')).toBe('4xx');
    expect(failed(410, 'answered 410')).toBe('410');
    expect(failed(503, 'answered 503')).toBe('5xx');
  });

  it("reads the event's commit time from the body every attempt sends", () => {
    expect(eventCreatedAt('{"id":"0b7c","created_at":"2026-11-25T10:00:00.000Z","team_id":"t"}')).toBe(Date.parse('2026-11-25T10:00:00.000Z'));
    expect(eventCreatedAt('{"created_at":"2026-11-25T10:00:00.000Z"}')).toBeNull();
  });
});

describe('webhook families', () => {
  const transport = new ScriptedTransport();
  let t: TestService;
  beforeAll(async () => {
    const replies: Record<string, Reply> = { '/fail': { status: 500 }, '/gone': { status: 410 }, '/hang': 'hang' };
    transport.reply = (path) => replies[path] ?? { status: 200 };
    t = await startTestService(ENV, { transport, random: () => 0 });
  });
  afterAll(async () => {
    transport.hangUpAll();
    await t.close();
  });

  it('counts attempts by outcome class and observes commit-to-2xx latency; endpoints by state; resumes and resends', async () => {
    const ok = await endpointAt(t, '/ok');
    await endpointAt(t, '/fail');
    const gone = await endpointAt(t, '/gone');
    await transport.waitForStarts('/gone', 1);
    await transport.waitForStarts('/fail', 1);
    let samples = await eventually('the three pings recorded', async () => {
      const current = await refreshedScrape(t);
      return total(current, 'guide_webhook_endpoints', { state: 'paused' }) === 1 && total(current, 'guide_webhook_endpoints', { state: 'failing' }) === 1 ? current : null;
    });
    expect(total(samples, 'guide_webhook_attempts_total', { outcome: 'delivered' })).toBe(1);
    expect(total(samples, 'guide_webhook_attempts_total', { outcome: '5xx' })).toBe(1);
    expect(total(samples, 'guide_webhook_attempts_total', { outcome: '410' })).toBe(1);
    expect(total(samples, 'guide_webhook_delivery_latency_seconds_count')).toBe(1);
    expect(total(samples, 'guide_webhook_delivery_latency_seconds_bucket', { le: '+Inf' })).toBe(1);
    expect(total(samples, 'guide_webhook_endpoints', { state: 'active' })).toBe(1);

    // A resume and a resend, each counted once; a resend is not an event's latency.
    expect((await t.adminRaw('POST', `/webhook-endpoints/${gone.id}/resume`, { redeliver_missed: false })).statusCode).toBe(200);
    const [ping] = (await deliveriesPage(t, ok.id)).data;
    expect((await t.adminRaw('POST', `/deliveries/${ping.id}/resend`)).statusCode).toBe(202);
    await transport.waitForStarts('/ok', 2);
    samples = await eventually('the resend counted', async () => {
      const current = await refreshedScrape(t);
      return total(current, 'guide_webhook_attempts_total', { outcome: 'delivered' }) === 2 ? current : null;
    });
    expect(total(samples, 'guide_webhook_resumes_total')).toBe(1);
    expect(total(samples, 'guide_webhook_resends_total')).toBe(1);
    expect(total(samples, 'guide_webhook_delivery_latency_seconds_count')).toBe(1);
    expect(total(samples, 'guide_webhook_endpoints', { state: 'paused' })).toBe(0);
  });

  it('reports due attempts and how long the oldest has waited, by lane', async () => {
    // A new endpoint is probed in the failing lane until it answers 2xx: its hanging ping counts there.
    await endpointAt(t, '/hang');
    await transport.waitForStarts('/hang', 1);
    let samples = await refreshedScrape(t);
    expect(total(samples, 'guide_webhook_due_attempts', { lane: 'failing' })).toBe(1);
    t.clock.advance(10 * 60_000);
    samples = await refreshedScrape(t);
    expect(total(samples, 'guide_webhook_due_attempts', { lane: 'failing' })).toBe(1);
    expect(total(samples, 'guide_webhook_oldest_due_attempt_age_seconds', { lane: 'failing' })).toBeGreaterThanOrEqual(600);
    expect(has(samples, 'guide_webhook_oldest_due_attempt_age_seconds', { lane: 'healthy' })).toBe(true);
    expect(total(samples, 'guide_metrics_queries_refreshed_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 60);
  });
});

describe('mail families', () => {
  let smtp: SMTPServer;
  let accepting = false;
  let t: TestService;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(accepting ? undefined : Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    t = await startTestService({ ...ENV, SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('counts mail failed and sent, and reports the queued and the age of the oldest unsent', async () => {
    await queueMail(t.service.ctx.db, { to: ['ops@example.test'], subject: 'Hello', text: 'Hello' }, t.clock.now());
    t.service.ctx.outbox.wake();
    let samples = await eventually('a failed send', async () => {
      const current = await refreshedScrape(t);
      return total(current, 'guide_mail_failed_total') >= 1 ? current : null;
    });
    expect(total(samples, 'guide_mail_queued')).toBe(1);
    t.clock.advance(120_000);
    samples = await refreshedScrape(t);
    expect(total(samples, 'guide_mail_oldest_unsent_age_seconds')).toBeGreaterThanOrEqual(120);

    accepting = true;
    t.service.ctx.outbox.wake();
    // The queue gauges come from a query that may have begun before the mail was marked sent (a refresh
    // under way is joined, not started again): wait for one that began after.
    samples = await eventually('the mail sent, and no longer queued', async () => {
      const current = await refreshedScrape(t);
      return total(current, 'guide_mail_sent_total') === 1 && total(current, 'guide_mail_queued') === 0 ? current : null;
    });
    expect(total(samples, 'guide_mail_oldest_unsent_age_seconds')).toBe(0);
  });
});

describe('roles', () => {
  const open: TestService[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  it('a worker serves /metrics with the queue gauges and no read cache; an API process has no queue gauges', async () => {
    const worker = await startTestService({ ...ENV, ROLE: 'worker' });
    open.push(worker);
    const fromWorker = await refreshedScrape(worker);
    expect(has(fromWorker, 'guide_webhook_due_attempts', { lane: 'healthy' })).toBe(true);
    expect(has(fromWorker, 'guide_read_cache_hits_total')).toBe(false);
    expect((await worker.service.app.inject({ method: 'GET', url: '/v1/guides' })).statusCode).toBe(404);

    const api = await startTestService({ ...ENV, ROLE: 'api' });
    open.push(api);
    expect(api.service.metrics!.gauges).toBeNull();
    const fromApi = (await scrape(api)).samples;
    expect(has(fromApi, 'guide_webhook_due_attempts')).toBe(false);
    expect(has(fromApi, 'guide_read_cache_hits_total')).toBe(true);
    // Without SMTP_URL no mail is meant to go out: no mail gauges to alert on.
    expect(has(fromWorker, 'guide_mail_queued')).toBe(false);
  });
});

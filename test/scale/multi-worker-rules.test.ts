// With several workers on one PostgreSQL (decisions §8, issue 4): a coalescing window is emitted once,
// and a failing endpoint is paused with exactly one e-mail, whichever worker gets there first.
import { beforeAll, describe, expect, it } from 'vitest';
import { clusterServers, useCluster } from '../support/cluster.js';
import { adminFetch, PROCESS_WAIT } from '../support/processes.js';
import { eventually, sleep } from '../support/waiting.js';

describe.runIf(clusterServers)('coalescing and pausing with three workers (decisions §6, §8)', () => {
  const cluster = useCluster({
    WEBHOOK_COALESCE_MS: '1500',
    WEBHOOK_TIMEOUT_MS: '1000',
    // Failures go on for about 3 s, past the 1.5 s that pauses an endpoint.
    WEBHOOK_RETRY_DELAYS: '400ms,400ms,400ms,400ms,400ms,400ms,400ms,400ms',
    WEBHOOK_PAUSE_AFTER_MS: '1500',
  });
  let api = '';
  const admin = (method: string, path: string, body?: unknown) => adminFetch(api, method, path, body);

  beforeAll(async () => {
    api = (await cluster.start('api')).url;
    await Promise.all([cluster.start('worker'), cluster.start('worker'), cluster.start('worker')]);
  }, 120_000);

  it('edits inside one window reach the receiver as one guide.updated, however many workers watch the window', async () => {
    const team = await admin('POST', '/teams', { name: 'Window', plan: 'growth' });
    await admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${cluster.receiver.url}/window`, events: ['guide.updated'] });
    const guide = await admin('POST', '/guides', { team_id: team.id, title: 'One' });
    await admin('PATCH', `/guides/${guide.id}`, { title: 'Two' });
    await admin('PATCH', `/guides/${guide.id}`, { is_public: true });
    await admin('PATCH', `/guides/${guide.id}`, { description: 'Three' });
    const updates = () => cluster.receiver.received.filter((request) => request.path === '/hook/window' && request.headers['x-service-event'] === 'guide.updated');
    await eventually('the coalesced update', async () => updates().length >= 1, PROCESS_WAIT);
    await sleep(2000);
    expect(updates()).toHaveLength(1);
    expect(JSON.parse(updates()[0]!.body).data.changed).toEqual(['title', 'description', 'is_public']);
  }, 60_000);

  it('an endpoint failing for WEBHOOK_PAUSE_AFTER_MS is paused once, with exactly one e-mail', async () => {
    const team = await admin('POST', '/teams', { name: 'Failing', plan: 'growth' });
    const user = await admin('POST', '/users', { email: 'ops@failing.test' });
    await admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' });
    cluster.receiver.answer = (request) => (request.path.startsWith('/hook/failing') ? { status: 500 } : { status: 200 });
    const endpoints = await Promise.all(
      ['a', 'b'].map((name) =>
        admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${cluster.receiver.url}/failing-${name}`, events: ['guide.created'] }),
      ),
    );
    for (let i = 0; i < 10; i++) await admin('POST', '/guides', { team_id: team.id, title: `Fail ${i}` });
    await eventually('both endpoints paused', async () => {
      const states = await Promise.all(endpoints.map((endpoint) => admin('GET', `/webhook-endpoints/${endpoint.id}`)));
      return states.every((state) => state.status === 'paused' && state.paused_reason === 'failing');
    }, PROCESS_WAIT);
    await sleep(1000);
    const mail = (await admin('GET', '/mail')).filter((entry: { to: string[] }) => entry.to.includes('ops@failing.test'));
    expect(mail).toHaveLength(2); // one per paused endpoint
    expect(new Set(mail.map((entry: { subject: string }) => entry.subject)).size).toBe(2);
  }, 60_000);
});

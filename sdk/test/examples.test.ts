// The receivers of README.md, run: each example file (the README shows them as they are) verifies a real
// delivery by its Standard Webhooks headers and answers 204, and answers 400 with the reason to a tampered
// one and to one stripped down to X-Service-Signature (verifyWebhook's default refuses it).
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../test/support/processes.js';
import { createGuide, createKey, soloTeam } from '../../test/support/service.js';
import { eventually } from '../../test/support/waiting.js';
import { DELIVERING, type Delivery, type LiveService, realDelivery, startLiveService } from './live-service.js';

const RECEIVERS = ['node-http', 'express', 'fastify'] as const;
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const serviceReadme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

let live: LiveService;
let delivery: Delivery;
beforeAll(async () => {
  live = await startLiveService(DELIVERING);
  delivery = await realDelivery(live, 'Rotate the keys');
});
afterAll(() => live.t.close());

/** The README shows the example file as it is, so that what runs here is what readers copy. */
function shownInReadme(example: string): void {
  const source = readFileSync(new URL(`../examples/${example}.ts`, import.meta.url), 'utf8');
  expect(readme, `README.md shows examples/${example}.ts unchanged`).toContain('```ts\n' + source + '```');
}

/** Starts an example as the README says to (its standard_webhooks_secret and port in the environment); answers how to stop it. */
async function run(example: (typeof RECEIVERS)[number]): Promise<{ url: string; stop: () => Promise<unknown> }> {
  const port = await freePort();
  process.env.GUIDE_STANDARD_WEBHOOKS_SECRET = delivery.standardWebhooksSecret;
  process.env.PORT = String(port);
  const module = await import(`../examples/${example}.ts`);
  const url = `http://127.0.0.1:${port}/webhooks/guides`;
  if ('app' in module) return { url, stop: () => module.app.close() };
  const server = module.server as import('node:http').Server;
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  expect((server.address() as AddressInfo).port).toBe(port);
  return { url, stop: () => new Promise((resolve) => server.close(resolve)) };
}

const post = (url: string, body: string, headers: Delivery['headers']) =>
  fetch(url, { method: 'POST', body, headers: Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : []))) });

describe('README receivers', () => {
  for (const example of RECEIVERS) {
    it(`${example}: shown in README.md as it is, verifies a real delivery, refuses a tampered or stripped one`, async () => {
      shownInReadme(example);
      // The service's README leads its "For receivers" with this one.
      if (example === 'node-http') expect(serviceReadme).toContain('```ts\n' + readFileSync(new URL('../examples/node-http.ts', import.meta.url), 'utf8') + '```');
      const receiver = await run(example);
      try {
        const headers = { ...delivery.headers };
        delete headers['content-length'];
        delete headers.host;
        delete headers.connection;
        expect((await post(receiver.url, delivery.body, headers)).status).toBe(204);
        const tampered = await post(receiver.url, delivery.body.replace('Rotate', 'Rotated'), headers);
        expect(tampered.status).toBe(400);
        expect(await tampered.text()).toBe('bad_signature');
        const stripped = await post(receiver.url, delivery.body, { 'content-type': 'application/json', 'x-service-signature': headers['x-service-signature'] });
        expect(stripped.status).toBe(400);
        expect(await stripped.text()).toBe('missing_id');
      } finally {
        await receiver.stop();
      }
    });
  }
});

describe('README clients', () => {
  it('client: pages through a search and reads a guide by permalink', async () => {
    shownInReadme('client');
    const { team, key } = await soloTeam(live.t);
    await createGuide(live.t, team.id, { title: 'Reset a password', permalink: 'reset-a-password' });
    for (const title of ['Change a password', 'Close the month']) await createGuide(live.t, team.id, { title });
    process.env.GUIDE_API_KEY = key;
    process.env.GUIDE_URL = live.baseUrl;
    const logged = captureLog();
    try {
      const { titles } = await import('../examples/client.js');
      expect(titles).toEqual(['Change a password', 'Reset a password']);
      expect(logged.lines).toEqual([expect.stringMatching(/^Reset a password \d+ characters of markdown$/)]);
    } finally {
      logged.restore();
    }
  });

  it('manage-webhooks: registers the endpoint once, however often it runs, and hands back its secret', async () => {
    shownInReadme('manage-webhooks');
    const { team } = await soloTeam(live.t);
    const key = await createKey(live.t, { type: 'team', id: team.id }, { scopes: ['webhooks:manage'] });
    process.env.GUIDE_MANAGEMENT_KEY = key.secret;
    process.env.GUIDE_URL = live.baseUrl;
    process.env.GUIDE_TEAM_ID = team.id;
    process.env.WEBHOOK_URL = 'http://127.0.0.1:9/deploy';
    const first = await import('../examples/manage-webhooks.js');
    // The deploy step again, as a module run anew.
    vi.resetModules();
    const second = await import('../examples/manage-webhooks.js');
    expect(second.endpointId).toBe(first.endpointId);
    expect(first.secret).toMatch(/^whsec_/);
    expect(second.secret).toBe(first.secret);
    expect((await live.t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${team.id}`)).map((endpoint: { id: string }) => endpoint.id)).toEqual([first.endpointId]);
  });

  it('tail-events: catches up, then follows a change as it happens, until stopped', async () => {
    shownInReadme('tail-events');
    const { team, key } = await soloTeam(live.t);
    await createGuide(live.t, team.id, { title: 'Before' });
    process.env.GUIDE_API_KEY = key;
    process.env.GUIDE_URL = live.baseUrl;
    const example = await import('../examples/tail-events.js');
    await eventually('the earlier event', () => (example.seen.length === 1 || null));
    const later = await createGuide(live.t, team.id, { title: 'After' });
    await live.t.admin('PATCH', `/guides/${later.id}`, { title: 'After, renamed' });
    await eventually('the later events', () => (example.seen.length === 3 || null));
    expect(example.seen.map((line: string) => line.split(' ')[0])).toEqual(['guide.created', 'guide.created', 'guide.updated']);
    example.stopTailing();
    await example.tailing;
    // Started again from the cursor it saved: only what came after.
    await createGuide(live.t, team.id, { title: 'While stopped' });
    process.env.LAST_EVENT_CURSOR = example.savedCursor;
    vi.resetModules();
    const again = await import('../examples/tail-events.js');
    await eventually('the event written while it was stopped', () => (again.seen.length === 1 || null));
    again.stopTailing();
    await again.tailing;
    delete process.env.LAST_EVENT_CURSOR;
  });
});

/** console.log's lines while a client example runs. */
function captureLog() {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  return { lines, restore: () => void (console.log = original) };
}

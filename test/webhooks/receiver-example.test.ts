// examples/receiver.mjs, which README calls a complete receiver, run as README says against real deliveries
// of the service: it verifies the Standard Webhooks headers with standard_webhooks_secret (the key for
// webhook-signature) within five minutes of its clock, so a captured delivery replayed later is refused;
// it acknowledges a duplicate (same webhook-id) without handling it again; it takes both secrets during a
// rotation's overlap (decisions §10); and it will not start with signing_key, the X-Service-Signature key.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build.js';
import { freePort } from '../support/processes.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { allAttempts, createEndpoint, signingKeyAnswerOf } from '../support/webhooks.js';

const EXAMPLE = join(projectRoot, 'examples/receiver.mjs');
const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill();
});

interface RunningExample {
  url: string;
  /** The ids of the events it handled, in order, from its log lines (`type id data`). */
  handled(): string[];
}

/**
 * Starts the example as README says (`STANDARD_WEBHOOKS_SECRET=whsec_… PORT=… node examples/receiver.mjs`).
 * `clockAheadMs` moves its clock forward: Date.now, which the standardwebhooks package reads, is replaced
 * before the example loads, so that the example has nothing in it for tests.
 */
async function startExample(secrets: string, { port = 0, clockAheadMs = 0 } = {}): Promise<RunningExample> {
  port ||= await freePort();
  const clock = `const realNow = Date.now; Date.now = () => realNow() + ${clockAheadMs};`;
  const flags = clockAheadMs ? ['--import', `data:text/javascript,${encodeURIComponent(clock)}`] : [];
  const child = spawn(process.execPath, [...flags, EXAMPLE], { env: { ...process.env, STANDARD_WEBHOOKS_SECRET: secrets, PORT: String(port) }, stdio: 'pipe' });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  await eventually('the example to listen', () => output.includes('receiver listening'));
  const lines = () => output.split('\n').filter((line) => line !== '' && line !== 'receiver listening');
  return { url: `http://127.0.0.1:${port}/`, handled: () => lines().map((line) => line.split(' ')[1]!) };
}

/** Runs the example until it exits; answers its exit code and what it wrote to stderr. */
function exitOf(secrets: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [EXAMPLE], { env: { ...process.env, STANDARD_WEBHOOKS_SECRET: secrets, PORT: '0' }, stdio: 'pipe' });
  running.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

/**
 * A team's endpoint for guide.created on a free port, with its keys as the signing-key reveal answers them
 * and the example started there with `secrets` of them (its creation ping went out before: refused, retried).
 */
async function exampleEndpoint(secrets: (keys: Awaited<ReturnType<typeof signingKeyAnswerOf>>) => string = (keys) => keys.standard_webhooks_secret) {
  const port = await freePort();
  const { team } = await soloTeam(t);
  const endpoint = await createEndpoint(t, { type: 'team', id: team.id }, `http://127.0.0.1:${port}/`, ['guide.created']);
  const keys = await signingKeyAnswerOf(t, endpoint.id);
  return { endpoint, team, keys, example: await startExample(secrets(keys), { port }) };
}

interface Attempt {
  id: string;
  event_id: string;
  response_status: number | null;
  request_headers: Record<string, string>;
  request_body: string;
}

/** Creates a guide titled `title` and answers the delivered attempt of its guide.created: the bytes and headers as sent. */
async function deliveredGuide(endpointId: string, teamId: string, title: string): Promise<Attempt> {
  await createGuide(t, teamId, { title });
  return eventually(`the guide.created of "${title}" to be delivered`, async () =>
    (await allAttempts(t, endpointId, { status: 'delivered' })).find((attempt) => JSON.parse(attempt.request_body).data?.guide?.title === title),
  );
}

/** Posts an attempt's body and headers again, as someone who captured it would. */
const replay = (url: string, attempt: Attempt, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...attempt.request_headers, ...headers }, body: attempt.request_body });

describe('examples/receiver.mjs', () => {
  it('README runs it with STANDARD_WEBHOOKS_SECRET; it verifies a real delivery by its Standard Webhooks headers and answers 204, and refuses a wrong webhook-signature', async () => {
    expect(readFileSync(join(projectRoot, 'README.md'), 'utf8')).toContain('STANDARD_WEBHOOKS_SECRET=whsec_… PORT=4000 node examples/receiver.mjs');
    const { endpoint, team, example } = await exampleEndpoint();
    const delivered = await deliveredGuide(endpoint.id, team.id, 'Verified');
    expect(delivered.response_status).toBe(204);
    await eventually('the event to be handled', () => example.handled().includes(delivered.event_id));

    const forged = await replay(example.url, delivered, { 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` });
    expect(forged.status).toBe(401);
    // X-Service-Signature alone signs no time, so it is not enough.
    const { 'webhook-signature': _, ...stripped } = delivered.request_headers;
    expect((await fetch(example.url, { method: 'POST', headers: stripped, body: delivered.request_body })).status).toBe(401);
  });

  it('a real delivery replayed six minutes later is refused: its webhook-timestamp is beyond the five-minute tolerance (Standard Webhooks)', async () => {
    const { endpoint, team, keys, example } = await exampleEndpoint();
    const delivered = await deliveredGuide(endpoint.id, team.id, 'Captured');
    expect(delivered.response_status).toBe(204);

    const sixMinutesLater = await startExample(keys.standard_webhooks_secret, { clockAheadMs: 6 * 60_000 });
    const replayed = await replay(sixMinutesLater.url, delivered);
    expect(replayed.status).toBe(401);
    expect(await replayed.text()).toMatch(/timestamp too old/i);
    expect(sixMinutesLater.handled()).toEqual([]);
    // The control: the same bytes now verify (and are a duplicate there, acknowledged).
    expect((await replay(example.url, delivered)).status).toBe(204);
  });

  it('a duplicate delivery (same webhook-id: the service resending it, or the same request again) is acknowledged with 204 and handled once', async () => {
    const { endpoint, team, example } = await exampleEndpoint();
    const first = await deliveredGuide(endpoint.id, team.id, 'Once');
    await eventually('the event to be handled', () => example.handled().includes(first.event_id));

    await t.admin('POST', `/deliveries/${first.id}/resend`);
    const resent = await eventually('the resend to be delivered', async () =>
      (await allAttempts(t, endpoint.id, { status: 'delivered' })).find((attempt) => attempt.event_id === first.event_id && attempt.id !== first.id),
    );
    expect(resent.request_headers['webhook-id']).toBe(first.request_headers['webhook-id']);
    expect(resent.response_status).toBe(204);
    expect((await replay(example.url, first)).status).toBe(204);

    // Handled in order: once a later event is handled, a duplicate handled again would have been logged before it.
    const later = await deliveredGuide(endpoint.id, team.id, 'Later');
    await eventually('the later event to be handled', () => example.handled().includes(later.event_id));
    expect(example.handled().filter((id) => id === first.event_id)).toHaveLength(1);
  });

  it("during a rotation's overlap it takes both secrets, new first: it accepts deliveries signed by both keys and one signed by the old key alone (decisions §10)", async () => {
    const { endpoint, team, keys: before, example: oldOnly } = await exampleEndpoint();
    const signedByOld = await deliveredGuide(endpoint.id, team.id, 'Before the rotation');
    await eventually('the event to be handled', () => oldOnly.handled().includes(signedByOld.event_id));

    const rotated = await t.admin('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`, { keep_old_for_hours: 24 });
    expect(rotated.old_key.standard_webhooks_secret).toBe(before.standard_webhooks_secret);
    const both = await startExample(`${rotated.standard_webhooks_secret} ${rotated.old_key.standard_webhooks_secret}`);
    const newOnly = await startExample(rotated.standard_webhooks_secret);

    const signedByBoth = await deliveredGuide(endpoint.id, team.id, 'In the overlap');
    expect(signedByBoth.request_headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect((await replay(both.url, signedByBoth)).status).toBe(204);
    expect((await replay(newOnly.url, signedByBoth)).status).toBe(204);
    // Signed before the rotation by the old key alone (a retry already on its way, say).
    expect((await replay(newOnly.url, signedByOld)).status).toBe(401);
    expect((await replay(both.url, signedByOld)).status).toBe(204);
    await eventually('both events to be handled', () => [signedByOld.event_id, signedByBoth.event_id].every((id) => both.handled().includes(id)));
  });

  it('given signing_key (the X-Service-Signature key) instead of standard_webhooks_secret, it does not start, and says which key it needs', async () => {
    const { team } = await soloTeam(t);
    const endpoint = await createEndpoint(t, { type: 'team', id: team.id }, 'http://127.0.0.1:9/', ['guide.created']);
    const keys = await signingKeyAnswerOf(t, endpoint.id);
    for (const secrets of [keys.signing_key, `${keys.standard_webhooks_secret} ${keys.signing_key}`]) {
      const { code, stderr } = await exitOf(secrets);
      expect(code).not.toBe(0);
      expect(stderr).toContain('this looks like the X-Service-Signature key (signing_key); Standard Webhooks needs standard_webhooks_secret (whsec_…)');
      expect(stderr).not.toContain(keys.signing_key);
    }
  });
});

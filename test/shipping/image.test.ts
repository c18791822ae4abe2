// Issue 45, decisions §11 "Shipping": the image the Containerfile builds, run as an operator would run it.
// On the embedded store in a /data volume it answers the demo key's /v1/guides as a user other than root;
// a guide written survives the container replaced on the same volume, the new one on a read-only root
// filesystem (a tmpfs for /tmp); SIGTERM stops it at once with exit code 0 (Node as PID 1 handles it); its
// HEALTHCHECK passes with what the slim image has. Prints the image's size and the cold start to /healthz.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.js';
import { eventually } from '../support/waiting.js';
import { buildServiceImage, containerLogs, containerTestsRun, ensureStandIns, inspect, podman } from './podman.js';

const IMAGE = 'localhost/guide-service:image-test';
const suffix = randomBytes(4).toString('hex');
const VOLUME = `guide-service-image-test-${suffix}`;
const containers: string[] = [];

/** Runs the image detached on `VOLUME` with `options` before it, published on a loopback port. */
async function runContainer(name: string, options: string[] = []): Promise<{ base: string; startedAt: number }> {
  const port = await freePort();
  const startedAt = Date.now();
  await podman(['run', '--detach', '--name', name, '--publish', `127.0.0.1:${port}:3000`, '--volume', `${VOLUME}:/data`, ...options, IMAGE]);
  containers.push(name);
  return { base: `http://127.0.0.1:${port}`, startedAt };
}

async function healthy(base: string): Promise<void> {
  await eventually('/healthz 200', async () => (await fetch(`${base}/healthz`)).ok, { timeoutMs: 60_000, intervalMs: 100, retryOnError: true });
}

/** A value the service printed at start (`Admin token:`, `Organization key …:`). */
async function printed(name: string, label: RegExp): Promise<string> {
  return eventually(`${label} in the log of ${name}`, async () => label.exec(await containerLogs(name))?.[1], { timeoutMs: 30_000, intervalMs: 200 });
}

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: response.status === 204 ? null : await response.json() };
}

describe.runIf(containerTestsRun)('the image (Containerfile)', () => {
  beforeAll(async () => {
    await ensureStandIns();
    const started = Date.now();
    await buildServiceImage(IMAGE);
    const size = Number(await inspect(IMAGE, '{{.Size}}', 'image'));
    const base = Number(await inspect('docker.io/library/node:22-bookworm-slim', '{{.Size}}', 'image'));
    console.log(`image built in ${((Date.now() - started) / 1000).toFixed(0)} s: ${(size / 1e6).toFixed(0)} MB, of which the service adds ${((size - base) / 1e6).toFixed(0)} MB to its base`);
  }, 45 * 60_000);

  afterAll(async () => {
    for (const name of containers) await podman(['rm', '--force', '--time', '0', name]).catch(() => undefined);
    await podman(['volume', 'rm', '--force', VOLUME]).catch(() => undefined);
  }, 120_000);

  let adminToken = '';
  let guideId = '';

  it('runs on the embedded store in /data as a user other than root, and the demo key answers /v1/guides', async () => {
    const name = `guide-service-first-${suffix}`;
    const { base, startedAt } = await runContainer(name);
    await healthy(base);
    console.log(`cold start: /healthz answered ${Date.now() - startedAt} ms after podman run`);

    expect(await inspect(name, '{{.Config.User}}')).toBe('node');
    expect((await podman(['exec', name, 'id', '-u'])).trim()).not.toBe('0');
    expect(await podman(['exec', name, 'ls', '/data'])).toMatch(/admin-token[\s\S]*service\.db/);

    const key = await printed(name, /Organization key .*:\s+(gsk_\S+)/);
    const guides = await call(base, key, 'GET', '/v1/guides?limit=5');
    expect(guides.status).toBe(200);
    expect(guides.json.data.length).toBeGreaterThan(0);
    // What the build must bring besides dist/: the console's assets and the examples /docs shows.
    expect((await fetch(`${base}/console/`)).status).toBe(200);
    expect(await (await fetch(`${base}/docs/webhooks`)).text()).toContain('verify_webhook');

    adminToken = await printed(name, /Admin token:\s+(adm_\S+)/);
    const teams = await call(base, key, 'GET', '/v1/teams');
    const written = await call(base, adminToken, 'POST', '/admin/v1/guides', { team_id: teams.json.data[0].id, title: 'Written before the replacement' });
    expect(written.status).toBe(201);
    guideId = written.json.data.id;
  }, 120_000);

  it('its HEALTHCHECK passes with what the slim image has', async () => {
    expect(await inspect(IMAGE, '{{json .Config.Healthcheck.Test}}', 'image')).toContain('/healthz');
    await podman(['healthcheck', 'run', `guide-service-first-${suffix}`]);
  }, 60_000);

  it('stops on SIGTERM within a few seconds with exit code 0', async () => {
    const name = `guide-service-first-${suffix}`;
    const started = Date.now();
    await podman(['stop', '--time', '20', name]);
    const ms = Date.now() - started;
    console.log(`stopped by SIGTERM in ${ms} ms`);
    expect(await inspect(name, '{{.State.ExitCode}}')).toBe('0');
    expect(await containerLogs(name)).toContain('"signal":"SIGTERM"');
    expect(ms).toBeLessThan(5_000);
  }, 60_000);

  it('a new container on the same volume, with a read-only root filesystem, serves what the old one wrote', async () => {
    const name = `guide-service-read-only-${suffix}`;
    // podman adds tmpfs mounts of its own to --read-only unless told not to: only /tmp is writable here.
    const { base } = await runContainer(name, ['--read-only', '--read-only-tmpfs=false', '--tmpfs', '/tmp']);
    await healthy(base);
    expect((await podman(['exec', name, 'sh', '-c', 'touch /app/x 2>&1 || echo refused'])).trim()).toMatch(/Read-only file system|refused/);
    // The admin token generated at the first start is read back from /data, not printed again.
    const guide = await call(base, adminToken, 'GET', `/admin/v1/guides/${guideId}`);
    expect(guide.status).toBe(200);
    expect(guide.json.data.title).toBe('Written before the replacement');
    const another = await call(base, adminToken, 'PATCH', `/admin/v1/guides/${guideId}`, { title: 'Written on a read-only root' });
    expect(another.status).toBe(200);
    expect(await containerLogs(name)).not.toContain('Demo data loaded');
    await podman(['stop', '--time', '20', name]);
    expect(await inspect(name, '{{.State.ExitCode}}')).toBe('0');
  }, 120_000);
});

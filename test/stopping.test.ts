// Stopping (decisions §10, docs/deploy.md "Stopping"): SIGTERM closes idle connections at once, those
// that never sent a request included, answers every request already in flight (with
// `Connection: close`), takes no new connection, and the process exits 0 by itself rather than by its
// stop deadline (which exits 1).
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Build, buildService } from './support/build.js';
import { freePort, type ServiceProcess, spawnService } from './support/processes.js';
import { ADMIN_TOKEN } from './support/service.js';
import { eventually } from './support/waiting.js';

let build: Build;
beforeAll(async () => {
  build = await buildService();
}, 120_000);
afterAll(() => build.remove());

/** A connection to the service, with everything it has received so far. */
async function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return { socket, received: () => received, closed };
}

async function started(): Promise<{ service: ServiceProcess; port: number }> {
  const port = await freePort();
  const cwd = mkdtempSync(join(tmpdir(), 'guide-service-stop-'));
  const service = spawnService(build.main, { PORT: String(port), DATABASE_URL: '', REDIS_URL: '', DEMO: 'false', ADMIN_TOKEN, LOG_LEVEL: 'info' }, cwd);
  await eventually('the service listening', () => service.output().includes('is listening'), 30_000);
  return { service, port };
}

describe('SIGTERM stops the process without keeping anyone waiting and without dropping an answer', () => {
  it('idle connections, one that never sent a request among them, are closed at once and the process exits 0', async () => {
    const { service, port } = await started();
    const silent = await open(port);
    const keptAlive = await open(port);
    keptAlive.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await eventually('the first answer on the kept-alive connection', () => keptAlive.received().includes('"ok"'));
    service.child.kill('SIGTERM');
    // The stop deadline would end it with 1 after 15 s (WEBHOOK_TIMEOUT_MS + 5 s).
    expect(await service.exited).toBe(0);
    await Promise.all([silent.closed, keptAlive.closed]);
    expect(silent.received()).toBe('');
  }, 30_000);

  it('a request in flight when SIGTERM comes is answered with Connection: close, new connections are refused, then the process exits 0', async () => {
    const { service, port } = await started();
    const body = JSON.stringify({ name: 'Finished after the stop', plan: 'free' });
    const busy = await open(port);
    // The headers, then half the body: the request is in flight until the rest comes. The go-ahead
    // (100 Continue, sent once the request is admitted) says the service has taken the request in;
    // before it, a SIGTERM would find a connection with no request on it and rightly close it.
    busy.socket.write(
      `POST /admin/v1/teams HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await eventually('the go-ahead for the body', () => busy.received().startsWith('HTTP/1.1 100 Continue\r\n\r\n'));
    busy.socket.write(body.slice(0, 10));
    const idle = await open(port);
    service.child.kill('SIGTERM');
    await eventually('the stop to begin', () => service.output().includes('stopping: no new requests'));
    await idle.closed;
    await eventually('new connections refused', () => open(port).then(
      (late) => (late.socket.destroy(), false),
      () => true,
    ));
    busy.socket.write(body.slice(10));
    await busy.closed;
    expect(busy.received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    expect(busy.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(busy.received()).toContain('Finished after the stop');
    expect(await service.exited).toBe(0);
  }, 30_000);
});

// The README's receiver example works as printed: it accepts the service's signed deliveries and refuses
// a body whose signature does not match.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { soloTeam, useTestService } from '../support/service.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });
let child: ChildProcess | undefined;
afterAll(() => child?.kill());

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function attemptsOf(endpointId: string, status: string, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const page = await t.admin('GET', `/webhook-endpoints/${endpointId}/deliveries?status=${status}`);
    if (page.length >= count || Date.now() > deadline) return page;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('examples/receiver.mjs', () => {
  it('verifies the signature over the raw body and answers 204; a wrong key is refused (README, spec §5 rule 8)', async () => {
    const { team } = await soloTeam(t);
    const port = await freePort();
    const endpoint = await t.admin('POST', '/webhook-endpoints', {
      home: { type: 'team', id: team.id },
      url: `http://127.0.0.1:${port}/`,
      events: ['guide.created'],
    });
    const { signing_key } = await t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
    child = spawn(process.execPath, [join(import.meta.dirname, '../../examples/receiver.mjs')], {
      env: { ...process.env, SIGNING_KEY: signing_key, PORT: String(port) },
      stdio: 'pipe',
    });
    await new Promise((resolve) => child!.stdout!.once('data', resolve));
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/ping`);
    const [delivered] = await attemptsOf(endpoint.id, 'delivered', 1);
    expect(delivered.response_status).toBe(204);

    const bad = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'x-service-signature': 'sha256=' + '0'.repeat(64) },
      body: delivered.request_body,
    });
    expect(bad.status).toBe(401);
  });
});

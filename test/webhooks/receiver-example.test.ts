// The README's receiver example works as printed: it accepts the service's signed deliveries and refuses
// a body whose signature does not match.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.js';
import { soloTeam, useTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { allAttempts, endpointWithKey } from '../support/webhooks.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });
let child: ChildProcess | undefined;
afterAll(() => child?.kill());

describe('examples/receiver.mjs', () => {
  it('verifies the signature over the raw body and answers 204; a wrong key is refused (README, spec §5 rule 8)', async () => {
    const { team } = await soloTeam(t);
    const port = await freePort();
    const { endpoint, signingKey } = await endpointWithKey(t, { type: 'team', id: team.id }, `http://127.0.0.1:${port}/`, ['guide.created']);
    child = spawn(process.execPath, [join(import.meta.dirname, '../../examples/receiver.mjs')], {
      env: { ...process.env, SIGNING_KEY: signingKey, PORT: String(port) },
      stdio: 'pipe',
    });
    await new Promise((resolve) => child!.stdout!.once('data', resolve));
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/ping`);
    const delivered = await eventually('the ping to be delivered', async () => (await allAttempts(t, endpoint.id, { status: 'delivered' }))[0]);
    expect(delivered.response_status).toBe(204);

    const bad = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'x-service-signature': 'sha256=' + '0'.repeat(64) },
      body: delivered.request_body,
    });
    expect(bad.status).toBe(401);
  });
});

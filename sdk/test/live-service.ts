// A whole service from this repository, listening on loopback, for the SDK to talk to over real HTTP:
// on PostgreSQL when TEST_DATABASE_URL is set (as in CI's second pass), on SQLite otherwise.
import type { AddressInfo } from 'node:net';
import { startReceiver } from '../../test/support/receiver.js';
import { createGuide, soloTeam, startTestService, type TestService } from '../../test/support/service.js';

export interface LiveService {
  t: TestService;
  /** The service's root URL, what the SDK takes as baseUrl. */
  baseUrl: string;
}

export async function startLiveService(env: Record<string, string> = {}): Promise<LiveService> {
  const t = await startTestService(env);
  await t.service.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.service.app.server.address() as AddressInfo;
  return { t, baseUrl: `http://127.0.0.1:${port}` };
}

export interface Delivery {
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** The endpoint's signing_key: the key for X-Service-Signature. */
  signingKey: string;
  /** The same key as the admin API also reveals it, standard_webhooks_secret: the key for webhook-signature. */
  standardWebhooksSecret: string;
  /** During a rotation's overlap, the key the rotation replaced, which signs beside `signingKey`. */
  oldSigningKey: string | null;
  /** And its standard_webhooks_secret. */
  oldStandardWebhooksSecret: string | null;
}

/**
 * A real delivery: a team's endpoint on a receiver of its own gets the guide.created of `title`; with
 * `keepOldForHours`, after a rotation that keeps the old key signing that long.
 */
export async function realDelivery(live: LiveService, title: string, keepOldForHours?: number): Promise<Delivery> {
  const receiver = await startReceiver();
  try {
    const { team } = await soloTeam(live.t);
    const endpoint = await live.t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
    await receiver.waitFor(1);
    const rotation = keepOldForHours === undefined ? null : { keep_old_for_hours: keepOldForHours };
    const key = rotation
      ? await live.t.admin('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`, rotation)
      : await live.t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
    await createGuide(live.t, team.id, { title });
    // The endpoint's ping, then the guide's event.
    const [, created] = await receiver.waitFor(2);
    return {
      body: created!.body,
      headers: created!.headers,
      signingKey: key.signing_key,
      standardWebhooksSecret: key.standard_webhooks_secret,
      oldSigningKey: key.old_key?.signing_key ?? null,
      oldStandardWebhooksSecret: key.old_key?.standard_webhooks_secret ?? null,
    };
  } finally {
    await receiver.close();
  }
}

/** The environment a service needs to deliver to receivers on loopback at once. */
export const DELIVERING = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' };

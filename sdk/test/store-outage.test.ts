// The service's own SDK rides out a store taken away (decisions §10): the service answers 503
// service_unavailable with Retry-After while its PostgreSQL refuses connections, and the SDK waits that
// long and asks again, so the caller sees the answer once the database is back, not an error. (The
// embedded store cannot be taken away from a running service that way: its reads do not fail.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, organizationWithTeams } from '../../test/support/service.js';
import { takePostgresAway } from '../../test/support/store-outage.js';
import { usingPostgres } from '../../test/support/test-database.js';
import { GuideService } from '../src/index.js';
import { type LiveService, startLiveService } from './live-service.js';

let live: LiveService;
beforeAll(async () => {
  if (usingPostgres) live = await startLiveService();
});
afterAll(() => live?.t.close());

describe.runIf(usingPostgres)('a store taken away', () => {
  it('a call answered 503 with Retry-After while the database refuses connections succeeds once it is back', async () => {
    const { teams, key } = await organizationWithTeams(live.t);
    const guide = await createGuide(live.t, teams[0].id, { title: 'Survives the outage' });
    let bringBack: (() => Promise<void>) | null = await takePostgresAway(live.t);
    const answers: Array<{ status: number; retryAfter: string | null; at: number }> = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      answers.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
      // The database comes back while the client waits out the first refusal.
      if (response.status === 503 && bringBack) {
        const opening = bringBack;
        bringBack = null;
        await opening();
      }
      return response;
    };
    try {
      const client = new GuideService({ apiKey: key, baseUrl: live.baseUrl, fetch });
      const found = await client.guides.get(guide.id);
      expect(found.title).toBe('Survives the outage');
    } finally {
      await bringBack?.();
    }
    expect(answers[0]).toMatchObject({ status: 503, retryAfter: '2' });
    expect(answers.at(-1)!.status).toBe(200);
    // Never sooner than the service asked.
    expect(answers[1]!.at - answers[0]!.at).toBeGreaterThanOrEqual(2000);
  });
});

// The events feed through the client: every event the key reaches, oldest first, paged by itself; and
// tail(), which goes on with each new event as it happens (the service holds the empty page open).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, soloTeam } from '../../test/support/service.js';
import { type FeedEvent, GuideService } from '../src/index.js';
import { type LiveService, startLiveService } from './live-service.js';

let live: LiveService;
let team: { id: string };
let client: GuideService;

beforeAll(async () => {
  live = await startLiveService({ WEBHOOK_COALESCE_MS: '0' });
  const solo = await soloTeam(live.t);
  team = solo.team;
  client = new GuideService({ apiKey: solo.key, baseUrl: live.baseUrl });
  for (const title of ['First', 'Second', 'Third']) await createGuide(live.t, team.id, { title });
});
afterAll(() => live.t.close());

const titleOf = (event: FeedEvent) => (event.type === 'guide.created' ? event.data.guide.title : null);

describe('events', () => {
  it('lists the key’s events oldest first, over pages, filtered by type', async () => {
    const created = await client.events.list({ types: ['guide.created'], limit: 2 }).toArray();
    expect(created.map(titleOf)).toEqual(['First', 'Second', 'Third']);
    const pages = [];
    for await (const page of client.events.list({ types: ['guide.created'], limit: 2 }).pages()) pages.push(page.items.length);
    expect(pages).toEqual([2, 1, 0]);
  });

  it('tail() gives what is there, then an event created while it waits', async () => {
    const controller = new AbortController();
    const seen: (string | null)[] = [];
    const tailing = (async () => {
      for await (const event of client.events.tail({ types: ['guide.created'] }, { signal: controller.signal })) {
        seen.push(titleOf(event));
        // Created once the tail has asked for more and is held waiting.
        if (seen.length === 3) setTimeout(() => void createGuide(live.t, team.id, { title: 'Fourth' }), 300);
        if (seen.length === 4) break;
      }
    })();
    await tailing;
    expect(seen).toEqual(['First', 'Second', 'Third', 'Fourth']);
  });
});

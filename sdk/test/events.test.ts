// The events feed through the client: every event the key reaches, oldest first, paged by itself; and
// tail(), which goes on with each new event as it happens (the service holds the empty page open).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneOldDeliveries } from '../../src/webhooks/pruning.js';
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
  it('lists the key’s events oldest first, over pages, filtered by type; the last page keeps the place to go on from', async () => {
    const created = await client.events.list({ types: ['guide.created'], limit: 2 }).toArray();
    expect(created.map(titleOf)).toEqual(['First', 'Second', 'Third']);
    const pages = [];
    for await (const page of client.events.list({ types: ['guide.created'], limit: 2 }).pages()) pages.push(page);
    expect(pages.map((page) => page.items.length)).toEqual([2, 1, 0]);
    // Not null: where a later walk goes on from, past everything seen.
    const last = pages.at(-1)!.next;
    expect(last).toEqual(expect.any(String));
    await createGuide(live.t, team.id, { title: 'Later' });
    expect((await client.events.list({ types: ['guide.created'], after: last! }).toArray()).map(titleOf)).toEqual(['Later']);
  });

  it('tail() gives what is there, then an event created while it waits, a page at a time with its cursor', async () => {
    const controller = new AbortController();
    const seen: (string | null)[] = [];
    for await (const page of client.events.tail({ types: ['guide.created'] }, { signal: controller.signal })) {
      expect(page.cursor).toEqual(expect.any(String));
      expect(page.restarted).toBe(false);
      seen.push(...page.events.map(titleOf));
      // Created once the tail has asked for more and is held waiting.
      if (seen.length === 4) setTimeout(() => void createGuide(live.t, team.id, { title: 'Fifth' }), 300);
      if (seen.length === 5) break;
    }
    expect(seen).toEqual(['First', 'Second', 'Third', 'Later', 'Fifth']);
  });

  it('a consumer stopped mid-way goes on from its saved cursor: no event missed (duplicates counted)', async () => {
    const { team: busy, key } = await soloTeam(live.t);
    const consumer = new GuideService({ apiKey: key, baseUrl: live.baseUrl });
    const made: string[] = [];
    const write = async (count: number) => {
      for (let i = 0; i < count; i++) made.push((await createGuide(live.t, busy.id, { title: `Busy ${made.length}` })).id);
    };
    await write(12);
    const handled: string[] = [];
    let saved: string | undefined;
    // First run: handles pages of 5 and is killed in the middle of its third page, after two saves.
    const first = new AbortController();
    let pagesSeen = 0;
    try {
      for await (const page of consumer.events.tail({ types: ['guide.created'], limit: 5 }, { signal: first.signal })) {
        pagesSeen += 1;
        for (const [index, event] of page.events.entries()) {
          handled.push((event as { data: { guide: { id: string } } }).data.guide.id);
          if (pagesSeen === 3 && index === 0) first.abort();
        }
        if (first.signal.aborted) break;
        saved = page.cursor;
      }
    } catch (error) {
      if (!first.signal.aborted) throw error;
    }
    // Meanwhile more is written; then the consumer starts again from its cursor.
    await write(6);
    const second = new AbortController();
    for await (const page of consumer.events.tail({ types: ['guide.created'], limit: 5, after: saved }, { signal: second.signal })) {
      for (const event of page.events) handled.push((event as { data: { guide: { id: string } } }).data.guide.id);
      if (made.every((id) => handled.includes(id))) break;
    }
    const missing = made.filter((id) => !handled.includes(id));
    const duplicates = handled.length - new Set(handled).size;
    console.log(`[sdk tail] ${made.length} events written, ${handled.length} handled, ${missing.length} missing, ${duplicates} handled twice (those after the last save)`);
    expect(missing).toEqual([]);
    expect(duplicates).toBeLessThanOrEqual(5);
  });

  it('a cursor from before what the service keeps starts the tail over from the oldest kept, on a page marked restarted', async () => {
    const retained = await startLiveService({ WEBHOOK_COALESCE_MS: '0', EVENTS_RETENTION_DAYS: '7' });
    try {
      const { team: kept, key } = await soloTeam(retained.t);
      await createGuide(retained.t, kept.id, { title: 'Old' });
      const consumer = new GuideService({ apiKey: key, baseUrl: retained.baseUrl });
      const stale = (await consumer.events.tail({ types: ['guide.created'] }).next()).value!.cursor;
      await createGuide(retained.t, kept.id, { title: 'Gone too' });
      retained.t.clock.advance(31 * 86_400_000);
      await createGuide(retained.t, kept.id, { title: 'Fresh' });
      await pruneOldDeliveries(retained.t.service.ctx, 30 * 86_400_000);
      const page = (await consumer.events.tail({ types: ['guide.created'], after: stale }).next()).value!;
      expect(page.restarted).toBe(true);
      expect(page.events.map(titleOf)).toEqual(['Fresh']);
    } finally {
      await retained.t.close();
    }
  });
});

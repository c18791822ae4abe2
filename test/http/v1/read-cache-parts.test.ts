// A page is made of parts the read cache keeps apart (docs/decisions.md, "The read cache"): the
// positions of its guides, each guide's row, the teams' lock cutoffs and the teams a key reaches. An
// edit drops every page that shows the guide, as it must; computing those pages again then reads only
// the edited guide's row from the store. Every answer stays what an uncached service answers
// (read-invalidation.test.ts); this file pins what the store is asked.
import { SelectQueryNode } from 'kysely';
import { describe, expect, it } from 'vitest';
import { QueryCounter } from '../../support/query-counter.js';
import { createGuide, organizationWithTeams, useTestService } from '../../support/service.js';

// ROLE=api: no worker or upkeep in the process, whose statements would be counted with the requests'.
const t = useTestService({ ROLE: 'api' });

/** Counts what the service's store is asked while `run` runs. */
async function counting<T>(matches: (node: SelectQueryNode) => boolean, run: () => Promise<T>): Promise<{ counter: QueryCounter; result: T }> {
  const counter = new QueryCounter((node) => SelectQueryNode.is(node) && matches(node));
  const ctx = t.service.ctx;
  const original = ctx.db;
  ctx.db = original.withPlugin(counter);
  try {
    return { counter, result: await run() };
  } finally {
    ctx.db = original;
  }
}

/** The statement that reads guides' list rows: the only one that selects the owner's name with them. */
const readsListRows = (node: SelectQueryNode) => JSON.stringify(node).includes('"owner_name"');
const anySelect = () => true;

describe('a page computed again after an edit', () => {
  it("reads only the edited guide's row: its positions, the other rows, the plans and the reach are kept parts", async () => {
    // A free plan, so that the pages have lock cutoffs to compute (its limit locks the newest guides).
    const { teams, key } = await organizationWithTeams(t, 'free', 2);
    const guides = [];
    for (let i = 0; i < 12; i++) guides.push(await createGuide(t, teams[i % 2].id, { title: `Guide ${i}` }));
    const pages = ['/v1/guides?limit=10', '/v1/guides?limit=5', `/v1/guides?team_id=${teams[0].id}&limit=10`];
    // One after the other: pages computed at the same time would each read the row they all miss.
    const read = async () => {
      const answers = [];
      for (const path of pages) answers.push((await t.get(path, key)).json());
      return answers;
    };

    const first = await counting(readsListRows, read);
    expect(first.counter.rows, 'the first reads fetch every row once').toBeGreaterThanOrEqual(10);

    // The newest guide is on all three pages.
    const edited = guides[10];
    await t.admin('PATCH', `/guides/${edited.id}`, { title: 'Edited title' });

    const rows = await counting(readsListRows, read);
    for (const page of rows.result) expect(page.data.find((item: { id: string }) => item.id === edited.id).title).toBe('Edited title');
    expect(rows.counter.count, 'one statement read rows').toBe(1);
    expect(rows.counter.rows, "only the edited guide's row was read").toBe(1);

    await t.admin('PATCH', `/guides/${edited.id}`, { title: 'Edited again' });
    const all = await counting(anySelect, read);
    expect(all.result.map((page) => page.data.map((item: { title: string }) => item.title))).toEqual(
      rows.result.map((page) => page.data.map((item: { id: string; title: string }) => (item.id === edited.id ? 'Edited again' : item.title))),
    );
    expect(all.counter.count, 'no statement but the row read: positions, plans, lock cutoffs and reach were kept').toBe(1);
  });

  it('a new guide changes the positions: the pages of its team are computed again with only the new row read', async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 2);
    for (let i = 0; i < 6; i++) await createGuide(t, teams[i % 2].id, { title: `Guide ${i}` });
    const read = async () => (await t.get('/v1/guides?limit=5', key)).json();
    await read();

    const created = await createGuide(t, teams[1].id, { title: 'Brand new' });
    const again = await counting(readsListRows, read);
    expect(again.result.data[0].id).toBe(created.id);
    expect(again.result.data).toHaveLength(5);
    expect(again.counter.rows, "only the new guide's row was read; the others were kept").toBe(1);
  });

  it("a guide's detail computed again after an edit reads its row and its owner's name; the plans, the lock cutoffs and the reach are kept", async () => {
    const { teams, key } = await organizationWithTeams(t, 'free', 2);
    const guide = await createGuide(t, teams[0].id, { title: 'Detailed', permalink: `detailed-${Date.now()}` });
    const read = async () => [(await t.get(`/v1/guides/${guide.id}`, key)).json(), (await t.get(`/v1/guides/${guide.permalink}`, key)).json()];
    await read();
    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Detailed, edited' });
    const again = await counting(anySelect, read);
    expect(again.result.map((answer) => answer.data.title)).toEqual(['Detailed, edited', 'Detailed, edited']);
    expect(again.counter.count, 'per answer: the row, then its owner and team color').toBe(4);
  });
});

// What `q` of GET /v1/guides and MCP's search_guides match (issue 43, item 5; decisions §4, docs/decisions.md
// "MCP"): `q` is one piece of the title, as written but for case (a substring, as the specification says);
// search_guides takes words, in any order, accents and common English words aside. /docs and /docs/mcp
// show the same examples side by side; this test asks each of them of the service, both ways.
import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_EXAMPLES, SEARCHED_TITLES } from '../../src/http/docs/search-examples.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';

const t = useTestService();
let key: string;
beforeAll(async () => {
  const solo = await soloTeam(t, 'growth');
  key = solo.key;
  for (const title of SEARCHED_TITLES) await createGuide(t, solo.team.id, { title });
});

async function byQ(asked: string): Promise<string[]> {
  const response = await t.get(`/v1/guides?q=${encodeURIComponent(asked)}`, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((guide: { title: string }) => guide.title);
}

async function byWords(asked: string): Promise<string[] | 'refused'> {
  const response = await t.service.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_guides', arguments: { query: asked } } },
  });
  expect(response.statusCode, response.body).toBe(200);
  const { result } = response.json();
  if (result.isError) {
    expect(JSON.parse(result.content[0].text)).toMatchObject({ code: 'invalid_request', status: 400 });
    return 'refused';
  }
  return result.structuredContent.data.map((guide: { title: string }) => guide.title);
}

describe('q and search_guides, by the examples the references give', () => {
  it.each(SEARCH_EXAMPLES.map((example) => [example.asked, example] as const))('"%s"', async (_asked, example) => {
    expect(await byQ(example.asked), 'q').toEqual(example.q);
    expect(await byWords(example.asked), 'search_guides').toEqual(example.words);
  });

  it('the examples show that each finds what the other does not', () => {
    expect(SEARCH_EXAMPLES.some((example) => example.q.length === 0 && example.words !== 'refused' && example.words.length > 0)).toBe(true);
    expect(SEARCH_EXAMPLES.some((example) => example.q.length > 0 && example.words === 'refused')).toBe(true);
  });

  it.each(['/docs', '/docs/mcp'])('%s shows every example under #searching', async (url) => {
    const page = (await t.service.app.inject({ url })).body;
    const start = page.indexOf('id="searching"');
    expect(start, url).toBeGreaterThan(0);
    const section = page.slice(start, page.indexOf('<h2', start + 1));
    for (const example of SEARCH_EXAMPLES) expect(section, example.asked).toContain(`<code>${example.asked}</code>`);
    expect(section).toContain('search_guides');
  });
});

// The MCP tools (shared decisions §9; docs/decisions.md "MCP") through the SDK's own client over HTTP: the
// tool list an assistant chooses from (only the tools of the key's scopes), and each tool answering what the
// v1 route answers for the same key (same domain functions, same presenters, same plan rules) as structured
// content under its output schema, which the client checks, and as text; search_guides with a query
// searches by words; refusals are tool errors carrying v1's problem body.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createGuide, createKey, organizationWithTeams, PUBLIC_URL, soloTeam, useTestService } from '../../support/service.js';
import { connect, listening, textOf } from './mcp-client.js';

const t = useTestService();

/** A client that has listed the tools, so that it checks every answer against the tool's output schema. */
async function connectListed(key: string) {
  const mcp = await connect(await listening(t), key);
  await mcp.client.listTools();
  return mcp;
}

/** A tool's structured answer, which its text block repeats (for clients before structured output). */
function structured(result: CallToolResult): any {
  expect(result.isError).toBeFalsy();
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** The titles of a search_guides answer, in order. */
const titles = (result: CallToolResult) => structured(result).data.map((guide: any) => guide.title);

const steps = (count: number) => Array.from({ length: count }, (_, i) => ({ text: `Step number ${i + 1}`, image_url: `https://img.example.com/${i + 1}.png` }));

/** The `data` of a v1 answer for the same key. */
async function v1(path: string, key: string) {
  const response = await t.get(path, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function problemOf(result: Awaited<ReturnType<Awaited<ReturnType<typeof connect>>['call']>>) {
  expect(result.isError).toBe(true);
  const body = JSON.parse(textOf(result));
  expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'request_id', 'status', 'title', 'type']);
  expect(body.type).toBe(`${PUBLIC_URL}/docs#error-${body.code}`);
  return body as { code: string; detail: string; status: number; request_id: string };
}

describe('MCP tools', () => {
  it('lists four read-only tools whose descriptions say what they are for, each with its input and output schemas', async () => {
    const { key } = await organizationWithTeams(t);
    const mcp = await connect(await listening(t), key);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_guide', 'list_members', 'list_teams', 'search_guides']);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName.search_guides!.inputSchema.properties ?? {}).sort()).toEqual(['cursor', 'limit', 'query', 'team_id']);
    expect(byName.get_guide!.inputSchema.required).toEqual(['guide_id']);
    expect(byName.list_members!.inputSchema.required).toEqual(['team_id']);
    expect(byName.search_guides!.description).toMatch(/guides:read/);
    expect(byName.search_guides!.description).toMatch(/any order, ignoring case and accents/);
    expect(Object.keys(byName.search_guides!.outputSchema!.properties ?? {}).sort()).toEqual(['data', 'next_cursor']);
    const info = mcp.client.getServerVersion();
    expect(info?.name).toBe('guide-service');
    expect(mcp.client.getInstructions()).toMatch(/search_guides/);
    await mcp.close();
  });

  it('search_guides without a query lists what GET /v1/guides lists, pages included, and its cursors work in both', async () => {
    const { key, teams } = await organizationWithTeams(t);
    for (const title of ['Reset a password', 'Change the PASSWORD policy', 'Invite a colleague']) await createGuide(t, teams[0].id, { title });
    await createGuide(t, teams[1].id, { title: 'Another password guide' });
    const mcp = await connectListed(key);

    expect(structured(await mcp.call('search_guides'))).toEqual(await v1('/v1/guides?limit=20', key));
    const first = structured(await mcp.call('search_guides', { team_id: teams[0].id.toUpperCase(), limit: 2 }));
    expect(first).toEqual(await v1(`/v1/guides?team_id=${teams[0].id}&limit=2`, key));
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = structured(await mcp.call('search_guides', { team_id: teams[0].id, limit: 2, cursor: first.next_cursor }));
    expect(second).toEqual(await v1(`/v1/guides?team_id=${teams[0].id}&limit=2&cursor=${first.next_cursor}`, key));
    expect(second.data).toHaveLength(1);

    // A cursor of another list, a team the key does not reach.
    expect(problemOf(await mcp.call('search_guides', { query: 'invite', cursor: first.next_cursor }))).toMatchObject({ code: 'invalid_request', status: 400 });
    const { team: elsewhere } = await soloTeam(t);
    expect(problemOf(await mcp.call('search_guides', { team_id: elsewhere.id }))).toMatchObject({ code: 'not_found', status: 404 });
    expect(problemOf(await mcp.call('search_guides', { query: 'password', team_id: elsewhere.id }))).toMatchObject({ code: 'not_found', status: 404 });
    // Arguments are refused as v1 refuses parameters, naming them.
    expect(problemOf(await mcp.call('search_guides', { query: 'p' }))).toMatchObject({ code: 'invalid_request', detail: "Parameter 'query' must be at least 2 characters long" });
    expect(problemOf(await mcp.call('search_guides', { limit: 101 }))).toMatchObject({ code: 'invalid_request', detail: "Parameter 'limit' must be <= 100" });
    expect(problemOf(await mcp.call('search_guides', { limit: '5' }))).toMatchObject({ code: 'invalid_request', detail: "Parameter 'limit' must be a whole number" });
    expect(problemOf(await mcp.call('search_guides', { q: 'password' }))).toMatchObject({ code: 'invalid_request', detail: "Unknown parameter 'q'" });
    expect(problemOf(await mcp.call('search_guides', { query: 'pass\u0000word' }))).toMatchObject({ code: 'invalid_request' });
    // An unknown tool is a JSON-RPC error, as the protocol has it.
    await expect(mcp.call('delete_guides')).rejects.toThrow(/no tool named "delete_guides"/);
    await mcp.close();
  });

  it('search_guides finds the words of a question in any order, ignoring case and accents, the guides with more of them first', async () => {
    const { key, teams } = await organizationWithTeams(t);
    for (const title of [
      'Reset a customer password',
      'Change the PASSWORD policy',
      'Invite a colleague',
      'Écran de connexion : réinitialiser le mot de passe',
      'Passwords and resets for admins',
      'Straße und Übersicht',
      'Change the UI colours',
    ]) {
      await createGuide(t, teams[0].id, { title });
    }
    await createGuide(t, teams[1].id, { title: 'Password rules of another team' });
    const mcp = await connectListed(key);

    // Both words first (newest first among them), then one word; "how do I … a" says nothing and is left out.
    const asked = ['Passwords and resets for admins', 'Reset a customer password', 'Password rules of another team', 'Change the PASSWORD policy'];
    expect(titles(await mcp.call('search_guides', { query: 'How do I reset a password?' }))).toEqual(asked);
    expect(titles(await mcp.call('search_guides', { query: 'PASSWORD   reset' }))).toEqual(asked);
    expect(titles(await mcp.call('search_guides', { query: 'password reset', team_id: teams[1].id }))).toEqual(['Password rules of another team']);
    // Accents and case on either side.
    expect(titles(await mcp.call('search_guides', { query: 'ecran reinitialiser' }))).toEqual(['Écran de connexion : réinitialiser le mot de passe']);
    expect(titles(await mcp.call('search_guides', { query: 'ÉCRAN' }))).toEqual(['Écran de connexion : réinitialiser le mot de passe']);
    expect(titles(await mcp.call('search_guides', { query: 'strasse ubersicht' }))).toEqual(['Straße und Übersicht']);
    expect(titles(await mcp.call('search_guides', { query: 'nothing like it' }))).toEqual([]);
    // A word of two letters, too short for the trigram index, is still found when it is the only word.
    expect(titles(await mcp.call('search_guides', { query: 'How do I change the UI?' }))).toEqual(['Change the UI colours', 'Change the PASSWORD policy']);
    expect(titles(await mcp.call('search_guides', { query: 'ui' }))).toEqual(['Change the UI colours']);

    // Pages of one, through cursors, give the same guides in the same order.
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = structured(await mcp.call('search_guides', { query: 'reset password', limit: 1, ...(cursor ? { cursor } : {}) }));
      walked.push(...page.data.map((guide: any) => guide.title));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(walked).toEqual(asked);

    const first = structured(await mcp.call('search_guides', { query: 'reset password', limit: 1 }));
    expect(problemOf(await mcp.call('search_guides', { query: 'password reset', limit: 1, cursor: first.next_cursor }))).toMatchObject({ code: 'invalid_request' });
    expect(problemOf(await mcp.call('search_guides', { limit: 1, cursor: first.next_cursor }))).toMatchObject({ code: 'invalid_request' });
    const nothingToSearch = problemOf(await mcp.call('search_guides', { query: 'how do I' }));
    expect(nothingToSearch).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(nothingToSearch.detail).toMatch(/no word to search for/);
    await mcp.close();
  });

  it('get_guide answers the markdown v1 answers, by id or permalink, whole on Growth', async () => {
    const { key, teams } = await organizationWithTeams(t, 'growth');
    const guide = await createGuide(t, teams[0].id, { title: 'Reset a *password*', description: 'For people who forgot it.', steps: steps(5) });
    const mcp = await connectListed(key);
    const expected = (await v1(`/v1/guides/${guide.id}`, key)).data;
    expect(expected.notice).toBeNull();
    const answer = await mcp.call('get_guide', { guide_id: guide.id });
    const markdown = textOf(answer);
    expect(markdown).toBe(expected.markdown_body);
    // The structured answer is the whole guide, as v1 answers it.
    expect(answer.structuredContent).toEqual(expected);
    expect(markdown).toMatch(/^# Reset a \\\*password\\\*/);
    expect(markdown).toContain('5. Step number 5');
    expect(textOf(await mcp.call('get_guide', { guide_id: guide.permalink }))).toBe(markdown);
    expect(textOf(await mcp.call('get_guide', { guide_id: guide.id.toUpperCase() }))).toBe(markdown);

    const missing = problemOf(await mcp.call('get_guide', { guide_id: '00000000-0000-4000-8000-000000000000' }));
    expect(missing).toMatchObject({ code: 'not_found', status: 404 });
    expect(missing.detail).toMatch(/No guide/);
    await mcp.close();
  });

  it("get_guide shows previews and locked guides exactly as v1 does for the key's plan", async () => {
    const { team, key } = await soloTeam(t, 'free');
    const preview = await createGuide(t, team.id, { title: 'Long guide', steps: steps(6) });
    // The free plan's guide limit is 25: the 26th guide is locked.
    for (let i = 0; i < 24; i++) await createGuide(t, team.id, { title: `Filler ${i}` });
    const locked = await createGuide(t, team.id, { title: 'Past the limit', description: 'Locked.', steps: steps(4) });
    const mcp = await connect(await listening(t), key);
    for (const guide of [preview, locked]) {
      const expected = (await v1(`/v1/guides/${guide.id}`, key)).data;
      expect(expected.notice).toEqual(expect.any(String));
      expect(expected.locked).toBe(guide === locked);
      expect(textOf(await mcp.call('get_guide', { guide_id: guide.id }))).toBe(expected.markdown_body);
    }
    const listed = structured(await mcp.call('search_guides', { query: 'past the limit' }));
    expect(listed.data).toEqual([expect.objectContaining({ id: locked.id, locked: true })]);
    await mcp.close();
  });

  it('list_teams and list_members answer what GET /v1/teams and /v1/members answer', async () => {
    const { key, teams } = await organizationWithTeams(t);
    const person = await t.admin('POST', '/users', { email: `ana-${Math.random()}@example.com`, name: 'Ana' });
    await t.admin('PUT', `/teams/${teams[1].id}/members/${person.id}`, { role: 'EDITOR' });
    const mcp = await connectListed(key);
    expect(structured(await mcp.call('list_teams'))).toEqual(await v1('/v1/teams', key));
    const members = structured(await mcp.call('list_members', { team_id: teams[1].id }));
    expect(members).toEqual(await v1(`/v1/members?team_id=${teams[1].id}`, key));
    expect(members.data).toEqual([expect.objectContaining({ id: person.id, name: 'Ana', role: 'EDITOR' })]);
    const { team: elsewhere } = await soloTeam(t);
    expect(problemOf(await mcp.call('list_members', { team_id: elsewhere.id }))).toMatchObject({ code: 'not_found' });
    expect(problemOf(await mcp.call('list_members', { team_id: 'not-a-uuid' }))).toMatchObject({ code: 'invalid_request', detail: "Parameter 'team_id' must be a UUID" });
    expect(problemOf(await mcp.call('list_members'))).toMatchObject({ code: 'invalid_request', detail: "Parameter 'team_id' is required" });
    await mcp.close();
  });

  it('a key is shown only the tools its scopes allow; calling another anyway is a tool error: scope_missing naming the scope, with the request id of its HTTP answer', async () => {
    const { team } = await soloTeam(t, 'growth');
    const narrow = await createKey(t, { type: 'team', id: team.id }, { scopes: ['teams:read'] });
    const mcp = await connect(await listening(t), narrow.secret);
    expect((await mcp.client.listTools()).tools.map((tool) => tool.name)).toEqual(['list_teams']);
    const guidesOnly = await createKey(t, { type: 'team', id: team.id }, { scopes: ['guides:read'] });
    const reader = await connect(await listening(t), guidesOnly.secret);
    expect((await reader.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['get_guide', 'search_guides']);
    await reader.close();
    for (const [tool, args, scope] of [
      ['search_guides', { query: 'password' }, 'guides:read'],
      ['get_guide', { guide_id: 'reset-a-password' }, 'guides:read'],
      ['list_members', { team_id: team.id }, 'members:read'],
    ] as const) {
      const refused = problemOf(await mcp.call(tool, args));
      expect(refused).toMatchObject({ code: 'scope_missing', status: 403, detail: `This tool needs the ${scope} scope` });
      expect(refused.request_id).toBe(mcp.seen.at(-1)!.headers.get('x-request-id'));
    }
    // The scope is checked before the arguments, as v1 checks it before parameters (decisions §4).
    expect(problemOf(await mcp.call('list_members', { team_id: 'not-a-uuid' }))).toMatchObject({ code: 'scope_missing' });
    expect(structured(await mcp.call('list_teams')).data).toEqual([{ id: team.id, name: team.name, role: null }]);
    await mcp.close();
  });
});

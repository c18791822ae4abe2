// The guides /docs links to (issue 34, "smaller things integrators tripped on"): /docs/webhooks says how to
// verify a delivery, /docs/mcp what /mcp is and which tools it lists, and /docs says where the management
// API's reference is and what it needs, and that a guide.created may name a guide v1 shows only after its
// guide.ready. (The verifiers the webhooks page shows run in webhook-verifiers.test.ts.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build.js';
import { PUBLIC_URL, soloTeam, useTestService } from '../support/service.js';

const t = useTestService();
const page = async (url: string) => {
  const response = await t.service.app.inject({ url });
  expect(response.statusCode, url).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  return response.body;
};
/** The page's text without tags, entities read, white space collapsed: what a reader reads. */
const text = (html: string) =>
  html
    .replace(/<\/?(?:p|h\d|li|ul|table|tr|td|th|pre)\b[^>]*>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('/docs', () => {
  it('links to the guides to verifying webhooks and to MCP, and says what the management API reference needs', async () => {
    const docs = await page('/docs');
    expect(docs).toContain('id="guides"');
    for (const path of ['/docs/webhooks', '/docs/mcp', '/admin/v1/docs']) expect(docs).toContain(`href="${PUBLIC_URL}${path}"`);
    expect(text(docs)).toContain('Authorization: Bearer $ADMIN_TOKEN');
  });

  it('says before the webhook events that a guide still processing is 404 on v1 until its guide.ready', async () => {
    const docs = text(await page('/docs'));
    const webhooks = docs.slice(docs.indexOf('Webhooks Each event'));
    expect(webhooks).toMatch(/guide\.created.*GET \/v1\/guides\/\{id\} answers 404.*guide\.ready/);
  });
});

describe('/docs/webhooks', () => {
  it('explains both signature headers, the two forms of the key each labelled by the header it verifies, the tolerance and rotation with an overlap', async () => {
    const html = await page('/docs/webhooks');
    for (const id of ['headers', 'keys', 'replays', 'rotation', 'node', 'python', 'events']) expect(html, id).toContain(`id="${id}"`);
    const read = text(html);
    for (const fact of [
      'X-Service-Signature',
      'sha256= and the lowercase hex HMAC-SHA256 of the raw body',
      '{webhook-id}.{webhook-timestamp}.{raw body}',
      "standard_webhooks_secret (whsec_ and the base64 of the key's bytes): the key for webhook-signature",
      'signing_key (whsec_…, not base64): the key for X-Service-Signature',
      '5 minutes',
      `${PUBLIC_URL}/admin/v1/webhook-endpoints/<id>/signing-key/rotate`,
      'keep_old_for_hours (0 to 72',
      'X-Service-Signature stays on the old key',
      'v1,<new> v1,<old>',
      'the new key signs both headers',
      'answers 404',
    ]) {
      expect(read, fact).toContain(fact);
    }
  });
});

describe('/docs/mcp', () => {
  it('names every tool /mcp lists for a key with every scope, with its scope, and how to connect a client', async () => {
    const { key } = await soloTeam(t);
    const listed = await t.service.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const tools: string[] = listed.json().result.tools.map((tool: { name: string }) => tool.name);
    expect(tools.length).toBeGreaterThan(0);
    const html = await page('/docs/mcp');
    const documented = [...html.matchAll(/<tr id="tool-([a-z_]+)">/g)].map((match) => match[1]);
    expect(documented.sort()).toEqual([...tools].sort());
    const read = text(html);
    for (const fact of ['Streamable HTTP', 'Authorization: Bearer gsk_…', 'StreamableHTTPClientTransport', 'mcp-remote', '@modelcontextprotocol/inspector', 'outputSchema', 'structuredContent']) {
      expect(read, fact).toContain(fact);
    }
    // README's MCP section lists the same tools and points here.
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## MCP'), readme.indexOf('## The management API'));
    expect([...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]).sort()).toEqual([...tools].sort());
    expect(section).toContain('/docs/mcp');
  });
});

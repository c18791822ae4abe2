// GET /docs/mcp: what /mcp is (shared decisions §9, docs/decisions.md "MCP"), the tools it lists and how
// to connect a client. test/docs/mcp-page.test.ts checks that the page names every tool /mcp lists.
import { codeBlock as code, escapeHtml, htmlPage } from './reference-page.js';
import { searchExamplesTable } from './search-examples.js';

/** The tools as the page describes them; the MCP server's own list is the authority (src/http/mcp/mcp-tools.ts). */
export const MCP_TOOLS = [
  {
    name: 'search_guides',
    arguments: '<code>query</code>? (words or a question, 2–200 characters), <code>team_id</code>?, <code>limit</code>? (1–100, default 20), <code>cursor</code>?',
    answer: 'the guides found, as <code>GET /v1/guides</code> answers them (<code>data</code> and <code>next_cursor</code>)',
    scope: 'guides:read',
  },
  {
    name: 'get_guide',
    arguments: '<code>guide_id</code> (an id or a permalink)',
    answer: 'the guide as <code>GET /v1/guides/{guideId}</code> answers it; as text, its <code>markdown_body</code>',
    scope: 'guides:read',
  },
  { name: 'list_teams', arguments: 'none', answer: 'the teams the key reaches, as <code>GET /v1/teams</code>', scope: 'teams:read' },
  { name: 'list_members', arguments: '<code>team_id</code>', answer: "a team's members, as <code>GET /v1/members</code>", scope: 'members:read' },
] as const;

export function mcpPage(publicUrl: string): string {
  const endpoint = `${publicUrl}/mcp`;
  const rows = MCP_TOOLS.map((tool) => `<tr id="tool-${tool.name}"><td><code>${tool.name}</code></td><td>${tool.arguments}</td><td>${tool.answer}</td><td><code>${tool.scope}</code></td></tr>`).join('\n');
  return htmlPage(
    'MCP: guides for AI assistants',
    `<h1>MCP: guides for AI assistants</h1>
<p><code>${escapeHtml(endpoint)}</code> serves the v1 reads to AI assistants over the <a href="https://modelcontextprotocol.io">Model
Context Protocol</a>, on its Streamable HTTP transport, stateless: each <code>POST</code> of one JSON-RPC message gets a JSON
answer; there is no event stream and no session (<code>GET</code> and <code>DELETE</code> are 405).</p>

<h2 id="authentication">Authentication and limits</h2>
<p>Exactly as on <code>/v1</code>: an API key as <code>Authorization: Bearer gsk_…</code>, with the same scopes, the same reach (its
team, or every team of its organization), the same plans (previews and locked guides as <code>/v1</code> shows them) and the same
rate limit: each request to <code>/mcp</code> is one of the key's requests, counted together with its <code>/v1</code> requests. A
request refused as a whole (a missing or wrong key 401, over the limit 429 with <code>Retry-After</code>, API access switched off
403) is answered over HTTP with the problem body <code>/v1</code> would send, a 401 with the same
<code>WWW-Authenticate: Bearer realm="guide-service"</code> challenge. Every answer carries <code>X-Request-Id</code>. As on
<code>/v1</code>, pages of other origins get no CORS grant: connect from a server or a desktop client, never from a web page
holding the key (<a href="${escapeHtml(publicUrl)}/docs#cross-origin">why</a>).</p>

<h2 id="tools">Tools</h2>
<p>Read-only. <code>tools/list</code> shows a key only the tools its scopes allow (a key without <code>members:read</code> does not
see <code>list_members</code>), so an assistant never plans with a tool it may not call.</p>
<table><thead><tr><th>Tool</th><th>Arguments</th><th>Answer</th><th>Scope</th></tr></thead><tbody>
${rows}
</tbody></table>
<ul>
<li><strong><code>search_guides</code></strong> takes words or a question ("how do I reset a password" finds "Reset a customer
password"). Its words are matched in any order, ignoring case and accents, each also as part of a longer word ("password" finds
"passwords"); common English words (how, do, I, a, the, …) are left out, and a query of nothing else is refused
(<code>invalid_request</code>). A guide is found when its title holds at least one of the words; those that hold more come first,
then the newest (<a href="#searching">how that differs from v1's <code>q</code></a>). Without <code>query</code> it lists every guide, newest first. When <code>next_cursor</code> is not null, pass it
back as <code>cursor</code>, with the same <code>query</code> and <code>team_id</code>, for more.</li>
<li><strong>Structured answers.</strong> Every tool declares an <code>outputSchema</code> (v1's resource schemas) and answers
<code>structuredContent</code> under it, so a client gets typed JSON. <code>content</code> holds the same as text, for clients that
read only that; for <code>get_guide</code> that text is the guide's markdown.</li>
<li><strong>Refusals inside a call</strong> (a tool outside the key's scopes, a wrong argument, a team or guide the key cannot see)
are a tool result with <code>isError: true</code> whose text is the problem body <code>/v1</code> would answer
(<code>scope_missing</code>, <code>invalid_request</code>, <code>not_found</code>), its <code>request_id</code> the answer's
<code>X-Request-Id</code>.</li>
</ul>

<h2 id="searching">Searching: <code>search_guides</code> and v1's <code>q</code></h2>
<p><code>search_guides</code> and <code>q</code> of <code>GET /v1/guides</code> match differently, on purpose. <code>q</code> is the
specification's title search: the title contains the text as it is written, one piece, case aside. <code>search_guides</code>
takes the words of a question: each on its own, in any order, accents and common English words aside, a guide found
when its title holds one of them (also inside a longer word), those that hold more first. The same text can find
different guides:</p>
${searchExamplesTable()}
<p>So an assistant passes the user's words as they come; a program that knows a title, or part of one, uses
<code>q</code>.</p>

<h2 id="connect">Connecting a client</h2>
<p>Clients that speak Streamable HTTP take the URL and a header, for example in their <code>mcp.json</code> (Cursor, VS Code,
Claude Code's <code>.mcp.json</code>):</p>
${code(JSON.stringify({ mcpServers: { guides: { type: 'http', url: endpoint, headers: { Authorization: 'Bearer gsk_…' } } } }, null, 2))}
<p>Claude Code, from the command line:</p>
${code(`claude mcp add --transport http guides ${endpoint} --header "Authorization: Bearer $KEY"`)}
<p>Claude Desktop starts local servers from <code>claude_desktop_config.json</code>; the <code>mcp-remote</code> bridge (Node.js)
connects it to <code>/mcp</code> with the key (kept in <code>env</code>, as a header argument with a space breaks on Windows;
an <code>http://</code> address other than localhost also needs <code>--allow-http</code>):</p>
${code(JSON.stringify({ mcpServers: { guides: { command: 'npx', args: ['-y', 'mcp-remote', endpoint, '--transport', 'http-only', '--header', 'Authorization:${AUTH_HEADER}'], env: { AUTH_HEADER: 'Bearer gsk_…' } } } }, null, 2))}
<p>The MCP Inspector, to try the tools by hand: run <code>npx @modelcontextprotocol/inspector</code>, open the address it prints,
choose the Streamable HTTP transport, enter <code>${escapeHtml(endpoint)}</code>, add the header <code>Authorization</code> with
<code>Bearer gsk_…</code>, connect, and list the tools.</p>
<p>From code, with the official SDK (<code>npm install @modelcontextprotocol/sdk</code>):</p>
${code(`import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const client = new Client({ name: 'my-assistant', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('${endpoint}'), {
  requestInit: { headers: { Authorization: \`Bearer \${process.env.KEY}\` } },
}));
const { tools } = await client.listTools();
const found = await client.callTool({ name: 'search_guides', arguments: { query: 'reset password' } });
console.log(found.structuredContent);`)}
<p>Or by hand, one JSON-RPC message per request:</p>
${code(`curl ${endpoint} -H "Authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -H 'accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`)}`,
    { root: publicUrl },
  );
}

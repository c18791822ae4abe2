// The prose before each reference's endpoints: how a client authenticates, is limited and pages, with
// commands to copy. Kept beside the renderer; the facts come from the same constants the service uses.
import { WAITS_PER_KEY } from '../../domain/event-feed-signal.js';
import { codeBlock as code, escapeHtml } from './reference-page.js';
import { searchExamplesTable } from './search-examples.js';

export function v1Guide(publicUrl: string, perMinute: number): string {
  const baseUrl = `${publicUrl}/v1`;
  const root = escapeHtml(publicUrl);
  return `<h2 id="guides">Guides</h2>
<ul>
<li><a href="${root}/docs/webhooks">Verifying webhooks</a>: the two signature headers, which key checks which, replay
protection, rotating a key without a failed delivery, and code for Node.js and Python.</li>
<li><a href="${root}/docs/mcp">MCP</a>: the same reads for AI assistants at <code>/mcp</code>, with the same API keys, and how
to connect a client.</li>
<li><a href="${root}/docs/versioning">Versioning</a>: what may change in <code>/v1</code> (only additions), and how a deprecated
operation says so (<code>Deprecation</code>, <code>Sunset</code>).</li>
<li>The management API's reference, <a href="${root}/admin/v1/docs">/admin/v1/docs</a> and
<code>/admin/v1/openapi.json</code>, is for its callers: send the operator token
(<code>Authorization: Bearer $ADMIN_TOKEN</code>) or sign in to the console first. Without either it answers 401.</li>
</ul>
<h2 id="authentication">Authentication</h2>
<p>Every request carries an API key as a bearer token. Admins create keys in the console (API keys) or with the
management API; the secret (<code>gsk_…</code>) is shown once. A team's key reaches that team; an organization's key
reaches every team of the organization. Each key has scopes: <code>guides:read</code>, <code>teams:read</code>,
<code>members:read</code>. A missing, wrong or revoked key is 401 <code>invalid_key</code>; an expired one 401
<code>key_expired</code>; a missing scope 403 <code>scope_missing</code>, naming it. Every 401 carries the challenge of RFC 6750,
<code>WWW-Authenticate: Bearer realm="guide-service"</code>, followed by <code>error="invalid_token"</code> and an
<code>error_description</code> when the request sent a key and it was refused.</p>
${code(`KEY=gsk_…\ncurl -H "Authorization: Bearer $KEY" ${baseUrl}/auth/verify`)}
<h2 id="rate-limits">Rate limits</h2>
<p>Each key may make ${perMinute} requests per 60-second window (requests refused with 401 count against the client
address). Every answer says where the key stands: <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code>,
<code>RateLimit-Reset</code> (seconds) and the IETF draft's <code>RateLimit</code> and <code>RateLimit-Policy</code>. Past the
limit the answer is 429 <code>rate_limited</code> with <code>Retry-After</code>: wait that many seconds, then go on.</p>
<h2 id="pagination">Pagination</h2>
<p><code>GET /guides</code> answers the newest guides first, <code>limit</code> (1–100, default 50) a page, and
<code>next_cursor</code>: pass it back unchanged as <code>cursor</code>, with the same <code>team_id</code> and <code>q</code>, for
the next page; it is null on the last page. A cursor belongs to the key and the filters it came with; keyset paging means
no guide is skipped or shown twice while guides are added.</p>
${code(`CURSOR=""\nwhile :; do\n  PAGE=$(curl -s -H "Authorization: Bearer $KEY" "${baseUrl}/guides?limit=100\${CURSOR:+&cursor=$CURSOR}")\n  echo "$PAGE" | jq -r '.data[].title'\n  CURSOR=$(echo "$PAGE" | jq -r '.next_cursor // empty')\n  [ -n "$CURSOR" ] || break\ndone`)}
<h2 id="searching">Searching: <code>q</code></h2>
<p><code>q</code> finds the guides whose title contains it as it is written: one piece of text, spaces and punctuation
included, ignoring case in every language (<code>ÉCRAN</code> finds “écran”); <code>%</code>, <code>_</code> and <code>\\</code> are
plain characters. MCP's <code>search_guides</code>, made for assistants that ask in their own words, searches by words
instead: each word of the question, in any order, accents and common English words aside, the titles that hold more of
them first (<a href="${root}/docs/mcp#searching">MCP</a>). So the same text can find different guides:</p>
${searchExamplesTable()}
<h2 id="events-feed">Events feed</h2>
<p><code>GET /events</code> is the pull side of webhooks: every event the key reaches (its team's, or those of every
team while it is in the organization), oldest first, each exactly the JSON body a delivery of it carries. Pass
<code>next_cursor</code> back as <code>after</code>; it is there on the last page too, so a client polls with it, and
<code>wait</code> (up to 30 seconds) holds an empty page open until an event arrives. <code>types</code> narrows to some
event types, separated by commas (<code>types=guide.created,guide.deleted</code>); <code>guide.*</code> events need <code>guides:read</code>, <code>member.*</code> events <code>members:read</code>.
Events are kept 30 days by default (<code>EVENTS_RETENTION_DAYS</code>): a cursor older than that is 400 <code>cursor_expired</code>,
and the client starts again from the oldest event kept, without <code>after</code>. A key holds at most ${WAITS_PER_KEY} waiting requests
at once (429 <code>too_many_waits</code> beyond, with <code>Retry-After</code>). Dedupe on the event <code>id</code>, as for webhooks.
A <code>guide.created</code> can name a guide that is still processing: it is readable once its <code>guide.ready</code> comes
(<a href="#processing-guides">below</a>).</p>
${code(`AFTER=""
while :; do
  PAGE=$(curl -s -H "Authorization: Bearer $KEY" "${baseUrl}/events?wait=30\${AFTER:+&after=$AFTER}")
  case "$(echo "$PAGE" | jq -r '.code // "ok"')" in
    ok) echo "$PAGE" | jq -c '.data[]'                    # handle each event; dedupe on its id
        AFTER=$(echo "$PAGE" | jq -r '.next_cursor // empty') ;;
    cursor_expired) AFTER="" ;;                           # start again from the oldest event kept
    *) sleep 5 ;;                                         # 429 and the like: back off, keep the cursor
  esac
done`)}
<h2 id="caching">Conditional requests</h2>
<p>Every answer carries a strong <code>ETag</code>. Send it back in <code>If-None-Match</code> and an unchanged answer is
304 Not Modified, without a body (it still counts against the rate limit).</p>
<h2 id="cross-origin">Browsers (CORS)</h2>
<p>This API is for servers. A key is a secret that reads every guide and member of its team or organization, and a key
in a web page is every visitor's. So <code>/v1</code> and <code>/mcp</code> grant pages of other origins nothing: a browser's
preflight is answered 204 without <code>Access-Control-Allow-Origin</code> (with <code>Link: &lt;…/docs#cross-origin&gt;;
rel="help"</code>, here), and the browser refuses the call, saying no <code>Access-Control-Allow-Origin</code> header is
present. Call the API from your back end, with the key in its configuration, and have your pages ask your back end. The
OpenAPI document holds no secret: <code>GET /v1/openapi.json</code> may be read from any page
(<code>Access-Control-Allow-Origin: *</code>), so that editors and viewers in a browser load it by its URL.</p>`;
}

/** What the v1 reference says before its webhook events. */
export function v1WebhooksIntro(publicUrl: string): string {
  return `<p>Each event is POSTed as JSON to every endpoint that picked it, signed with the endpoint's key:
<a href="${escapeHtml(publicUrl)}/docs/webhooks">Verifying webhooks</a> says how to check it. The same bodies are in the
<a href="#events-feed">events feed</a>.</p>
${PROCESSING_GUIDES}`;
}

/** Why a guide.created can name a guide that v1 does not show yet (spec §3.2). */
export const PROCESSING_GUIDES = `<p id="processing-guides">A guide made from a recording or an import is created while it is still
processing: its events (its <code>guide.created</code>, and <code>guide.updated</code> for edits meanwhile) are sent as for any
guide, but <code>GET /v1/guides/{id}</code> answers 404 and lists leave it out until processing ends. Then <code>guide.ready</code> says it
is readable, with its steps; <code>guide.failed</code> says processing failed (the guide stays, readable as it is). So a receiver
that fetches the content waits for <code>guide.ready</code> when that 404 follows a <code>guide.created</code>, instead of
retrying.</p>`;

export function adminGuide(baseUrl: string): string {
  return `<h2 id="authentication">Authentication</h2>
<p>The operator calls the management API with the admin token (<code>ADMIN_TOKEN</code>, or the one generated on first
start in the data directory) as a bearer token. The console calls it with its session cookie; a write from a session
must carry the session's <code>X-CSRF-Token</code>. A signed-in person reaches only what their roles allow (403
<code>forbidden</code> says who may); wrong tokens are counted per client address and answered 429 once spent.</p>
${code(`ADMIN=adm_…\ncurl -X POST ${baseUrl}/organizations -H "Authorization: Bearer $ADMIN" \\\n  -H 'content-type: application/json' -d '{"name":"Acme","plan":"growth"}'`)}
<h2 id="conventions">Conventions</h2>
<p>Bodies are JSON; an operation that takes no body accepts an empty one. Ids are UUIDs in any letter case. Lists of
guides and deliveries page like the v1 list (<code>limit</code>, <code>cursor</code>, <code>next_cursor</code>). A path asked with a
method it does not take is 405 with <code>Allow</code>. Every write that changes guides or members records the event its
webhooks deliver.</p>`;
}

// GET /docs/versioning: what may change in /v1 and how a client learns of it (shared decisions §11
// "Versioning"), with the operations deprecated now, read from the v1 document so the page cannot
// disagree with the headers they answer (src/http/deprecation.ts).
import { RELEASE_VERSION } from '../release.js';
import { escapeHtml, htmlPage } from './reference-page.js';

type Json = Record<string, any>;

/** The operations the document marks deprecated, with what their description says of them. */
function deprecatedOperations(document: Json): { method: string; path: string; operation: Json }[] {
  return Object.entries<Json>(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries<Json>(item)
      .filter(([, operation]) => operation.deprecated === true)
      .map(([method, operation]) => ({ method, path, operation })),
  );
}

export function versioningPage(publicUrl: string, v1Document: Json): string {
  const root = escapeHtml(publicUrl);
  const deprecated = deprecatedOperations(v1Document);
  const list =
    deprecated.length === 0
      ? '<p>None at the moment.</p>'
      : `<ul>${deprecated
          .map(
            ({ method, path, operation }) =>
              `<li id="deprecated-${escapeHtml(operation.operationId)}"><code>${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</code>: ${escapeHtml(operation.description ?? '')}</li>`,
          )
          .join('')}</ul>`;
  return htmlPage(
    'Versioning',
    `<h1>Versioning</h1>
<p>This service is release <code>${escapeHtml(RELEASE_VERSION)}</code>. What changed in each release is in its
<code>CHANGELOG.md</code>, a section per release (added, changed, deprecated, fixed).</p>

<h2 id="v1">What may change in /v1</h2>
<p><code>/v1</code> changes only by adding:</p>
<ul>
<li>new fields in answers and in event payloads,</li>
<li>new event types (an endpoint gets only the types it picked; the events feed filters by <code>types</code>),</li>
<li>new optional query parameters, new operations, new values of <code>code</code> in problems, new headers.</li>
</ul>
<p>So a client keeps working if it ignores fields, event types and headers it does not know, and handles a problem
code it does not know by its HTTP status. Anything else (a field removed, renamed, or its type or meaning changed; an
optional parameter made required; an operation removed) waits for a <code>/v2</code>, which will be served beside
<code>/v1</code> for at least 12 months after it is released, <code>/v1</code> unchanged meanwhile.</p>
<p><code>/v1/openapi.json</code> keeps <code>info.version</code> <code>1.0.0</code>, as the specification says: adding keeps it.
The release's own version is the management API document's <code>info.version</code> (<code>/admin/v1/openapi.json</code>)
and heads the changelog.</p>

<h2 id="deprecation">How a client learns that something goes</h2>
<p>An operation that will go is deprecated first, at least 12 months before it stops answering. Every answer of a
deprecated operation carries:</p>
<ul>
<li><code>Deprecation: @1767225600</code>: when it was deprecated, as a Unix time (RFC 9745),</li>
<li><code>Sunset: Fri, 01 Jan 2027 00:00:00 GMT</code>: after when it may stop answering (RFC 8594),</li>
<li><code>Link: &lt;${root}/docs/versioning#deprecated-…&gt;; rel="deprecation"</code>: its notice, what replaces it and how to move.</li>
</ul>
<p>It is marked <code>deprecated</code> in the OpenAPI document and in the <a href="${root}/docs">reference</a>. Log or alert
on <code>Deprecation</code> in your client to hear of it before a sunset.</p>

<h2 id="deprecated">Deprecated now</h2>
${list}

<h2 id="management">The management API and the webhooks</h2>
<p>The management API (<code>/admin/v1</code>) is the application's back end and the operator's: it follows the same
rules where it can, deprecates with the same headers, and any change that is not an addition is listed under
"Changed" in the changelog, with what to do. Webhook payloads follow the rules of <code>/v1</code>: their envelopes
are the events of <code>GET /v1/events</code>.</p>

<h2 id="sdks">The SDKs</h2>
<p>The TypeScript SDK (<code>@guide-service/sdk</code>) and the Python package follow semantic versioning: a new major
version for a change to their own API that is not an addition. Any version works with every release of the service
that serves <code>/v1</code>.</p>`,
    { root: publicUrl },
  );
}

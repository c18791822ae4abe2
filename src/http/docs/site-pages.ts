// The pages a browser gets outside the reference: the service's address itself (`/`), and any address
// nothing is at, in the reference's look, with the ways on.
import { escapeHtml, htmlPage } from './reference-page.js';

function waysOn(root: string): string {
  return `<ul class="ways">
<li><a href="${root}/docs">API reference</a>: the REST API, its resources, paging, search and errors</li>
<li><a href="${root}/docs/webhooks">Verifying webhooks</a>: checking that a delivery came from this service</li>
<li><a href="${root}/console/">Console</a>: API keys, webhook endpoints, deliveries and people, once signed in</li>
</ul>`;
}

/** `/` in a browser. */
export function homePage(publicUrl: string): string {
  const root = escapeHtml(publicUrl);
  return htmlPage(
    'Guide service',
    `<h1>Guide service</h1>
<p>A read-only REST API over guides, the teams an API key reaches and their members, with webhooks for
what changes. Its address for clients is <code>${root}/v1</code>.</p>
${waysOn(root)}`,
    { root: publicUrl, contents: [] },
  );
}

/** Any address nothing is at, in a browser; answered 404. The path is not repeated: it may hold a credential. */
export function notFoundPage(publicUrl: string): string {
  return htmlPage(
    'Page not found · Guide service',
    `<h1>There is no such page</h1>
<p>Nothing is at this address: it may be mistyped, or the link that led here may be out of date.</p>
${waysOn(escapeHtml(publicUrl))}`,
    { root: publicUrl, contents: [] },
  );
}

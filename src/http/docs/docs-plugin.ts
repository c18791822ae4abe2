// GET /: a page leading to the rest, for a browser. GET /docs: the v1 reference page, rendered once from
// the generated document; and the guides it links to, /docs/webhooks (verifying deliveries), /docs/mcp
// (the MCP endpoint) and /docs/versioning (what may change, and how a client learns of it).
import type { FastifyInstance } from 'fastify';
import type { OpenApiSource } from '../v1/v1-plugin.js';
import { prefersHtml } from '../prefers-html.js';
import { mcpPage } from './mcp-page.js';
import { v1Guide, v1WebhooksIntro } from './reference-guides.js';
import { referencePageHandler, renderReferencePage } from './reference-page.js';
import { homePage } from './site-pages.js';
import { versioningPage } from './versioning-page.js';
import { webhooksPage } from './webhooks-page.js';

export interface DocsOptions {
  document: OpenApiSource;
  publicUrl: string;
  /** Requests per key per window, as the rate limit counts them. */
  perMinute: number;
}

export async function docsPlugin(app: FastifyInstance, options: DocsOptions): Promise<void> {
  const { publicUrl } = options;
  const home = referencePageHandler(() => homePage(publicUrl));
  const page = { baseUrl: `${publicUrl}/v1`, credential: '$KEY', guide: v1Guide(publicUrl, options.perMinute), webhooksIntro: v1WebhooksIntro(publicUrl) };
  // The service's own address: a page leading on, in a browser; for API clients nothing is there, as before.
  app.get('/', { schema: { hide: true } }, async (request, reply) => (prefersHtml(request) ? home(request, reply) : reply.callNotFound()));
  app.get('/docs', { schema: { hide: true } }, referencePageHandler(() => renderReferencePage(options.document.get!(), publicUrl, page)));
  app.get('/docs/webhooks', { schema: { hide: true } }, referencePageHandler(() => webhooksPage(publicUrl)));
  app.get('/docs/mcp', { schema: { hide: true } }, referencePageHandler(() => mcpPage(publicUrl)));
  app.get('/docs/versioning', { schema: { hide: true } }, referencePageHandler(() => versioningPage(publicUrl, options.document.get!())));
}

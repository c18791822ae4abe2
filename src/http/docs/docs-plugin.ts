// GET /docs: the v1 reference page, rendered once from the generated document.
import type { FastifyInstance } from 'fastify';
import type { OpenApiSource } from '../v1/v1-plugin.js';
import { v1Guide } from './reference-guides.js';
import { referencePageHandler, renderReferencePage } from './reference-page.js';

export interface DocsOptions {
  document: OpenApiSource;
  publicUrl: string;
  /** Requests per key per window, as the rate limit counts them. */
  perMinute: number;
}

export async function docsPlugin(app: FastifyInstance, options: DocsOptions): Promise<void> {
  const baseUrl = `${options.publicUrl}/v1`;
  app.get(
    '/docs',
    { schema: { hide: true } },
    referencePageHandler(() => renderReferencePage(options.document.get!(), options.publicUrl, { baseUrl, credential: '$KEY', guide: v1Guide(baseUrl, options.perMinute) })),
  );
}

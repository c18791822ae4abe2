// GET /docs: the reference page, rendered once from the generated document.
import type { FastifyInstance } from 'fastify';
import type { OpenApiSource } from '../v1/v1-plugin.js';
import { renderReferencePage } from './reference-page.js';

export interface DocsOptions {
  document: OpenApiSource;
  publicUrl: string;
}

export async function docsPlugin(app: FastifyInstance, options: DocsOptions): Promise<void> {
  let page: string | null = null;
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    page ??= renderReferencePage(options.document.get!(), options.publicUrl);
    return reply.type('text/html; charset=utf-8').send(page);
  });
}

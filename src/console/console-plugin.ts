// The application console at /console (issue 6): a page and its files served by the service, the sign-in
// API beside it, and `guide.url` ($APP_URL/guides/{id}) leading into the console's view of the guide.
// Everything else the console does goes through the management API with the session cookie.
import type { FastifyBaseLogger } from 'fastify';
import { noStore } from '../http/no-store.js';
import type { TypeBoxApp } from '../http/typebox-app.js';
import { ConsoleAssets } from './console-assets.js';
import { type SessionRouteOptions, registerSessionRoutes } from './session-routes.js';

export interface ConsoleOptions extends SessionRouteOptions {
  log: FastifyBaseLogger;
}

// The page loads only its own files; no other site may frame it (clickjacking of the confirm buttons).
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

export async function consolePlugin(app: TypeBoxApp, options: ConsoleOptions): Promise<void> {
  const assets = new ConsoleAssets();
  if (!assets.available()) options.log.error('the console files are missing beside the service: run `npm run build` to build them into dist/');

  const serve = (name: string) => async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const asset = await assets.read(name);
    // What is not a file of the console is not found as any other path is: a page for a browser.
    if (asset === null) return reply.callNotFound();
    return reply.headers(SECURITY_HEADERS).type(asset.type).send(asset.body);
  };

  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 302));
  app.get('/console/', { schema: { hide: true } }, serve('index.html'));
  app.get<{ Params: { name: string } }>('/console/assets/:name', { schema: { hide: true } }, async (request, reply) =>
    serve(request.params.name)(request, reply),
  );
  app.get<{ Params: { id: string } }>('/guides/:id', { schema: { hide: true } }, async (request, reply) =>
    reply.redirect(`/console/#/guides/${encodeURIComponent(request.params.id)}`, 302),
  );
  app.removeContentTypeParser('text/plain');
  await app.register(async (api) => {
    api.addHook('onRequest', noStore);
    registerSessionRoutes(api, options);
  });
}

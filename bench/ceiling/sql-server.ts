// Ceiling 1: a bare node:http server, no framework, that answers the benchmark's read requests by running
// the service's own SQL (through ceiling/reads.ts) on the same store and writing JSON.stringify of the
// result. The service's v1 routes do the same work plus routing, validation, rate limiting and headers;
// the ratio between the two is what those cost. Run with the store's DATABASE_URL, READ_CACHE=off and PORT.
import { createServer } from 'node:http';
import { openReads, type Answer } from './reads.js';

const reads = await openReads();

async function answer(method: string | undefined, url: URL, authorization: string | undefined): Promise<Answer> {
  if (method !== 'GET') return { status: 405, body: { code: 'method_not_allowed' } };
  const path = url.pathname;
  const query = url.searchParams;
  if (path === '/readyz') return { status: 200, body: { status: 'ready' } };
  if (path === '/v1/guides') {
    return reads.listGuides(authorization, {
      teamId: query.get('team_id') ?? undefined,
      q: query.get('q') ?? undefined,
      limit: Number(query.get('limit') ?? 50),
      cursor: query.get('cursor') ?? undefined,
    });
  }
  if (path.startsWith('/v1/guides/')) return reads.getGuide(authorization, decodeURIComponent(path.slice('/v1/guides/'.length)));
  if (path === '/v1/members') return reads.listMembers(authorization, query.get('team_id') ?? '');
  return { status: 404, body: { code: 'not_found' } };
}

const server = createServer((request, response) => {
  answer(request.method, new URL(request.url ?? '/', 'http://ceiling'), request.headers.authorization).then(
    ({ status, body }) => {
      const bytes = JSON.stringify(body);
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(bytes) });
      response.end(bytes);
    },
    (error: unknown) => {
      process.stderr.write(`sql ceiling: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      response.writeHead(500).end();
    },
  );
});
// As the service's default (Fastify's keep-alive time-out is 72 s); wrk keeps its connections open.
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1');

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void reads.close().then(() => process.exit(0));
});

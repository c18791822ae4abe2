// Ceiling 2: a bare node:http server that writes precomputed bytes: what Node.js alone reaches when the
// answer costs nothing. The benchmark registers, per request URL, the exact bytes the service answered
// (POST /__bench/body?url=<path and query>), so every answer has the size of the service's.
import { createServer } from 'node:http';

const bodies = new Map<string, Buffer>();

const server = createServer((request, response) => {
  const url = request.url ?? '/';
  if (request.method === 'POST' && url.startsWith('/__bench/body?')) {
    const target = new URL(url, 'http://ceiling').searchParams.get('url') ?? '';
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.set(target, Buffer.concat(chunks));
      response.writeHead(204).end();
    });
    return;
  }
  if (url === '/readyz') {
    response.writeHead(200).end('ready');
    return;
  }
  const body = bodies.get(url);
  if (!body) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});

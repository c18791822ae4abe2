// node:http with no framework, for the flood benchmark: /healthz and /readyz answer 200, anything else
// 401, as the service answers /v1/auth/verify without a key. With LIMITS=on it limits connections and
// listens as the service does (src/http/connection-limits.ts, from the service's build in dist/); with
// LIMITS=off, as Node.js does by default. Run with PORT.
import { createServer } from 'node:http';
import type * as Limits from '../../src/http/connection-limits.js';
import { serviceModule } from '../paths.js';

const { DEFAULT_CONNECTIONS_PER_ADDRESS, limitConnections, LISTEN_BACKLOG } = (await import(serviceModule('http/connection-limits.js'))) as typeof Limits;
const limited = process.env.LIMITS === 'on';

const server = createServer((request, response) => {
  const healthy = request.url === '/healthz' || request.url === '/readyz';
  response.writeHead(healthy ? 200 : 401, { 'content-type': 'application/json' });
  response.end(healthy ? '{"status":"ok"}' : '{"code":"unauthorized"}');
});
limitConnections(server, { perAddress: limited ? DEFAULT_CONNECTIONS_PER_ADDRESS : 0 });
server.listen({ port: Number(process.env.PORT), host: '127.0.0.1', ...(limited ? { backlog: LISTEN_BACKLOG } : {}) });
process.once('SIGTERM', () => process.exit(0));

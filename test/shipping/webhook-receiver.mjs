// A webhook receiver for the compose test, run in a container of the stack's network (compose.receiver.yaml):
// it acknowledges every POST and keeps it; GET /received answers what it kept, for the test to read.
import { createServer } from 'node:http';

const received = [];
createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/received') {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(received));
    return;
  }
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    received.push({ path: request.url, headers: request.headers, body });
    response.statusCode = 204;
    response.end();
  });
}).listen(4000, '0.0.0.0');
process.once('SIGTERM', () => process.exit(0));

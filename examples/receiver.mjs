// A webhook receiver: verifies X-Service-Signature over the raw body in constant time, answers 2xx
// quickly, and dedupes on the event id. Run: SIGNING_KEY=whsec_… PORT=4000 node examples/receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const signingKey = process.env.SIGNING_KEY;
if (!signingKey) throw new Error('Set SIGNING_KEY to the endpoint signing key shown in the application');
const seen = new Set(); // use a table with a unique key in production

function signatureMatches(rawBody, header) {
  const expected = Buffer.from('sha256=' + createHmac('sha256', signingKey).update(rawBody).digest('hex'));
  const given = Buffer.from(String(header ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const rawBody = Buffer.concat(chunks); // the exact bytes: verify before parsing
    if (!signatureMatches(rawBody, request.headers['x-service-signature'])) {
      response.writeHead(401).end();
      return;
    }
    const event = JSON.parse(rawBody.toString('utf8'));
    response.writeHead(204).end(); // answer first; do slow work afterwards
    if (seen.has(event.id)) return; // a retry or a redelivery of an event already handled
    seen.add(event.id);
    console.log(event.type, event.id, JSON.stringify(event.data));
  });
}).listen(Number(process.env.PORT ?? 4000), () => console.log('receiver listening'));

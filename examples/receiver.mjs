// A webhook receiver that is safe against replays. It verifies the Standard Webhooks headers (webhook-id,
// webhook-timestamp, webhook-signature) with the standardwebhooks package, which refuses a delivery stamped
// more than five minutes from now, answers 2xx quickly, and handles each event once (dedupe on webhook-id).
// Run: STANDARD_WEBHOOKS_SECRET=whsec_… PORT=4000 node examples/receiver.mjs  (elsewhere: npm install standardwebhooks)
// During a key rotation's overlap give both secrets, new first: STANDARD_WEBHOOKS_SECRET="whsec_<new> whsec_<old>".
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

// The endpoint's standard_webhooks_secret: the key for webhook-signature.
const secrets = (process.env.STANDARD_WEBHOOKS_SECRET ?? '').split(' ').filter(Boolean);
if (secrets.length === 0) throw new Error("Set STANDARD_WEBHOOKS_SECRET to the endpoint's standard_webhooks_secret (whsec_…)");
// signing_key starts with whsec_ too, but what follows is not base64: it keys X-Service-Signature, not webhook-signature.
const isBase64 = (text) => Buffer.from(text, 'base64').toString('base64') === text;
if (!secrets.every((secret) => isBase64(secret.replace(/^whsec_/, '')))) {
  throw new Error('STANDARD_WEBHOOKS_SECRET: this looks like the X-Service-Signature key (signing_key); Standard Webhooks needs standard_webhooks_secret (whsec_…)');
}
const webhooks = secrets.map((secret) => new Webhook(secret));
const handled = new Set(); // in production: a table with a unique key, kept longer than the ~23 hours retries span

/** The event, if one of the secrets signed it within five minutes of now; throws why not otherwise. */
function verify(rawBody, headers) {
  let refusal;
  for (const webhook of webhooks) {
    try {
      return webhook.verify(rawBody, headers);
    } catch (error) {
      refusal = error;
    }
  }
  throw refusal;
}

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let event;
    try {
      event = verify(Buffer.concat(chunks), request.headers); // the exact bytes: verify before parsing
    } catch (error) {
      response.writeHead(401).end(error.message); // a replay, a changed body, or a key this receiver lacks
      return;
    }
    response.writeHead(204).end(); // answer first; do slow work afterwards
    const id = request.headers['webhook-id']; // the event id: the same on every retry and resend
    if (handled.has(id)) return;
    handled.add(id);
    console.log(event.type, event.id, JSON.stringify(event.data));
  });
}).listen(Number(process.env.PORT ?? 4000), () => console.log('receiver listening'));

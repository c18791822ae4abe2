// A receiver on node:http: read the raw body, verify it, answer 204 (or 400 when it does not verify).
import { createServer } from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '@guide-service/sdk';

const secret = process.env.GUIDE_STANDARD_WEBHOOKS_SECRET!; // the endpoint's standard_webhooks_secret: the key for webhook-signature

export const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const event = verifyWebhook(Buffer.concat(chunks), request.headers, secret);
    if (event.type === 'guide.created') console.log('new guide:', event.data.guide.title);
    response.writeHead(204).end();
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    response.writeHead(400).end(error.reason);
  }
});
server.listen(Number(process.env.PORT ?? 8080));

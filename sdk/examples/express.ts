// A receiver on Express: express.raw keeps the body as bytes (express.json would parse it first).
import express from 'express';
import { verifyWebhook, WebhookVerificationError } from '@guide-service/sdk';

const secret = process.env.GUIDE_STANDARD_WEBHOOKS_SECRET!;
const app = express();

app.post('/webhooks/guides', express.raw({ type: 'application/json' }), (request, response) => {
  try {
    const event = verifyWebhook(request.body as Buffer, request.headers, secret);
    if (event.type === 'member.joined') console.log('joined:', event.data.member.email);
    response.sendStatus(204);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    response.status(400).send(error.reason);
  }
});

export const server = app.listen(Number(process.env.PORT ?? 8080));

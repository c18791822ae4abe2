// A receiver on Fastify: a JSON parser that keeps the body as a Buffer, for this route's instance.
import Fastify from 'fastify';
import { verifyWebhook, WebhookVerificationError } from '@guide-service/sdk';

const secret = process.env.GUIDE_STANDARD_WEBHOOKS_SECRET!;
export const app = Fastify();

app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.post('/webhooks/guides', async (request, reply) => {
  try {
    const event = verifyWebhook(request.body as Buffer, request.headers, secret);
    if (event.type === 'guide.deleted') console.log('deleted:', event.data.guide.id);
    return reply.code(204).send();
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return reply.code(400).send(error.reason);
  }
});
await app.listen({ port: Number(process.env.PORT ?? 8080), host: '127.0.0.1' });

// `Expect: 100-continue`: a client asks whether to send its body before it sends it. Node answers
// `100 Continue` at once, before any route has seen the request, so a client declaring a body of a
// gigabyte was told to go ahead and only then refused. Here the go-ahead waits until the request has
// been admitted and its body is about to be read (preParsing), and a declared length over the route's
// limit is refused there with 413, before a byte of the body is read and never after a 100
// (decisions §10).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ProblemError } from './problem.js';

const waitsForContinue = new WeakSet<IncomingMessage>();

export function installExpectContinue(app: FastifyInstance): void {
  // With a listener here Node no longer answers 100 itself; the request goes on as any other.
  app.server.on('checkContinue', (request, response) => {
    waitsForContinue.add(request);
    app.server.emit('request', request, response);
  });

  // After admission (on /v1 an onRequest hook, so the refusal carries the rate headers) and before the body.
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply) => {
    const waiting = waitsForContinue.delete(request.raw);
    // A GET or HEAD body is never read (the v1 interface answers as if it were not there): no go-ahead for it.
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const declared = Number(request.headers['content-length']);
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? Number.POSITIVE_INFINITY;
    if (declared > limit) {
      // The body is never read: the connection closes after the answer rather than draining it.
      reply.header('connection', 'close');
      throw new ProblemError('payload_too_large', `The request body may be at most ${limit} bytes; this one says it has ${declared}`);
    }
    if (waiting) reply.raw.writeContinue();
  });
}

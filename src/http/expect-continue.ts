// The `Expect` header. With `100-continue` a client asks whether to send its body before it sends it.
// Node answers `100 Continue` at once, before any route has seen the request, so a client declaring a
// body of a gigabyte was told to go ahead and only then refused. Here the go-ahead waits until the request
// has been admitted and its body is about to be read (preParsing), and a declared length over the route's
// limit is refused there with 413, before a byte of the body is read and never after a 100 (decisions
// §10). Any other expectation Node answered itself with a bare 417; here it is a 417 problem with the
// request id, like every refusal, at the same point.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ProblemError } from './problem.js';

const waitsForContinue = new WeakSet<IncomingMessage>();

/** How Node tells `100-continue` from other expectations (node:http's continueExpression). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

function unmetExpectation(request: FastifyRequest): ProblemError | null {
  const expectation = request.headers.expect;
  if (expectation === undefined || CONTINUE.test(expectation)) return null;
  return new ProblemError('expectation_failed', 'The service meets no expectation but 100-continue; send the request without this Expect header');
}

export function installExpectContinue(app: FastifyInstance): void {
  // With a listener here Node no longer answers 100 itself; the request goes on as any other.
  app.server.on('checkContinue', (request, response) => {
    waitsForContinue.add(request);
    app.server.emit('request', request, response);
  });
  // Nor its bare 417: the request goes on, to be refused below.
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));

  const bodyOverLimit = (request: FastifyRequest): ProblemError | null => {
    const declared = Number(request.headers['content-length']);
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? Number.POSITIVE_INFINITY;
    if (!(declared > limit)) return null;
    return new ProblemError('payload_too_large', `The request body may be at most ${limit} bytes; this one says it has ${declared}`);
  };

  // After admission (on /v1 an onRequest hook, so the refusal carries the rate headers) and before the body.
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply) => {
    const waiting = waitsForContinue.delete(request.raw);
    // A GET or HEAD body is never read (v1 answers as if it were not there): neither refused nor given a go-ahead.
    const readsBody = request.method !== 'GET' && request.method !== 'HEAD';
    const refusal = unmetExpectation(request) ?? (readsBody ? bodyOverLimit(request) : null);
    if (refusal !== null) {
      // The body is never read: the connection closes after the answer rather than draining it.
      reply.header('connection', 'close');
      throw refusal;
    }
    if (waiting && readsBody) reply.raw.writeContinue();
  });
}

// An empty body is no body, whatever its content-type (shared decisions §9): `curl -d ''` sends an empty
// form, a browser's fetch an empty text/plain, other clients odd or broken types, and an operation that
// takes no body must not answer them 415. One that needs a body then says what is missing; one whose
// body is optional takes none. A body with content is still parsed, or refused 415, as its type says.
import type { FastifyInstance } from 'fastify';

export function installEmptyBodies(app: FastifyInstance): void {
  // Declared empty (no Transfer-Encoding, a Content-Length of 0 or none): its type is set aside before
  // the body would be parsed, and Fastify then reads the request as one without a body.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const { headers } = request.raw;
    if (headers['content-type'] !== undefined && headers['transfer-encoding'] === undefined && Number(headers['content-length'] ?? 0) === 0) {
      request.headers = { 'content-type': undefined };
    }
    done(null, payload);
  });
  // A chunked body is found empty only once read; as JSON, it is no body either.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return json(request, body as string, done);
  });
}

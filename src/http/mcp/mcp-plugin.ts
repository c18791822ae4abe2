// The MCP endpoint at /mcp (shared decisions §9, docs/decisions.md "MCP"): the Model Context Protocol's
// Streamable HTTP transport, stateless, so that any API process answers any request. Every request is
// admitted exactly as a v1 request is (src/http/v1/key-auth.ts: key, rate limit, organization policy; each
// POST counts once), then one MCP server and transport are made for it, answer it as JSON, and are closed.
// The transport's answer goes out through Fastify, so it carries the request id and rate headers and is
// logged and measured like every other answer.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainContext } from '../../domain/context.js';
import { answerPreflight, isPreflight } from '../cross-origin.js';
import { lowercaseIds } from '../lowercase-ids.js';
import { ProblemError } from '../problem.js';
import type { RequestRateLimit } from '../rate-limit.js';
import type { TypeBoxApp } from '../typebox-app.js';
import { admit, admittedKey } from '../v1/key-auth.js';
import { mcpServer } from './mcp-tools.js';

export interface McpOptions {
  ctx: DomainContext;
  rateLimit: RequestRateLimit;
  publicUrl: string;
}

/** The version the MCP server reports: the interface's, as the v1 document's. */
const SERVER_VERSION = '1.0.0';
/** A tool call is a few hundred bytes; nothing an MCP client sends here comes near this. */
const BODY_LIMIT_BYTES = 64 * 1024;
const ALLOW = 'POST';
/** The request headers the transport reads; the credential is not handed on. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;

/** What answers a request no route of /mcp takes: another method on the endpoint (405), or another path. */
function noRoute(request: FastifyRequest): ProblemError {
  const path = request.url.split('?')[0]!;
  if (path !== '/mcp' && path !== '/mcp/') return new ProblemError('not_found', 'There is no such path; the MCP endpoint is /mcp');
  return new ProblemError('method_not_allowed', `The MCP endpoint is stateless and takes JSON-RPC messages by ${ALLOW} only; it opens no event stream and keeps no session`, {
    allow: ALLOW,
  });
}

/** The Web request the transport reads: the headers it checks (the body is already parsed; the URL is the endpoint's). */
function transportRequest(request: FastifyRequest, endpointUrl: URL): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(endpointUrl, { method: 'POST', headers });
}

async function answer(options: McpOptions, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  let storeFault: Error | null = null;
  const server = mcpServer(
    { ctx: options.ctx, key: admittedKey(request), publicUrl: options.publicUrl, requestId: request.id, log: request.log, onStoreFault: (error) => (storeFault ??= error) },
    SERVER_VERSION,
  );
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(transportRequest(request, new URL('/mcp', options.publicUrl)), { parsedBody: request.body });
    // Answered by the error handler: 503 with Retry-After, as every interface answers a store that cannot serve.
    if (storeFault) throw storeFault;
    reply.code(response.status);
    response.headers.forEach((value, name) => void reply.header(name, value));
    const body = await response.text();
    return body === '' ? reply.send() : reply.send(body);
  } finally {
    await server.close();
  }
}

export async function mcpPlugin(app: TypeBoxApp, options: McpOptions): Promise<void> {
  const { ctx, rateLimit } = options;

  // Every request, to a known path or not, is admitted first, as on /v1: a refusal (401, 429, 403) is a
  // problem with the rate headers, and a wrong method or path is answered only after it, before any
  // body is read (an empty or broken one must not turn a 405 into a 400).
  // A browser's preflight, which carries no key, is answered as on /v1 (src/http/cross-origin.ts).
  app.addHook('onRequest', async (request, reply) => {
    if (isPreflight(request)) {
      await admit(ctx, rateLimit, request, reply, { public: true });
      const path = request.url.split('?')[0]!;
      return answerPreflight(reply, options.publicUrl, path === '/mcp' || path === '/mcp/' ? ALLOW : null);
    }
    await admit(ctx, rateLimit, request, reply, {});
    if (request.is404) throw noRoute(request);
  });

  // JSON-RPC bodies only: text/plain would reach the transport as a string.
  app.removeContentTypeParser('text/plain');
  // A tool's ids (`team_id`, `guide_id`) lowercased once, here at the edge, as on /v1; only the tool's
  // arguments: the JSON-RPC `id` must come back as the client sent it.
  app.addHook('preHandler', async (request) => {
    const message = request.body as { params?: { arguments?: unknown } } | null | undefined;
    lowercaseIds(message?.params?.arguments);
  });

  app.post('/', { bodyLimit: BODY_LIMIT_BYTES, schema: { hide: true } }, async (request, reply) => {
    const body = request.body;
    if (body === undefined || body === null) throw new ProblemError('invalid_request', 'Send a JSON-RPC message as the application/json body');
    // One message per request, as the protocol has it since 2025-06-18: a batch would let one request,
    // counted once against the rate limit, carry a hundred tool calls.
    if (Array.isArray(body)) throw new ProblemError('invalid_request', 'Send one JSON-RPC message per request; batches are not accepted');
    return answer(options, request, reply);
  });

  // With a not-found handler of its own, a request no route takes still passes the hook above, which
  // answers it after admission; this is reached only if it did not.
  app.setNotFoundHandler(async (request) => {
    throw noRoute(request);
  });
}

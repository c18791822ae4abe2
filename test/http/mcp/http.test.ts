// The MCP endpoint over HTTP (shared decisions §9; docs/decisions.md "MCP"): admitted exactly as v1 is
// (401 and 403 problems, per-key rate limits counting each POST, 429 with Retry-After, request ids and rate
// headers on every answer), stateless (405 for GET and DELETE), and bad input refused with a clear 4xx.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { organizationWithTeams, PUBLIC_URL, startTestService, useTestService } from '../../support/service.js';
import { eventually } from '../../support/waiting.js';
import { connect, listening, post, textOf } from './mcp-client.js';

const t = useTestService();

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
});
const LIST_TOOLS = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

async function expectProblem(response: Response, status: number, code: string) {
  const body = await response.text();
  expect(response.status, body).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(body);
  expect(problem).toMatchObject({ status, code, type: `${PUBLIC_URL}/docs#error-${code}`, request_id: response.headers.get('x-request-id') });
  return problem as { detail: string };
}

function expectRateHeaders(headers: Headers) {
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(headers.get(name), name).toMatch(/^\d+$/);
  expect(headers.get('ratelimit-policy')).toMatch(/^"default";q=\d+;w=60$/);
}

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

describe('MCP over HTTP', () => {
  it('every answer carries the request id (an incoming one kept) and the rate headers, as v1 answers do', async () => {
    const { key } = await organizationWithTeams(t);
    const mcp = await connect(await listening(t), key, { 'x-request-id': 'assistant-call.42' });
    await mcp.client.listTools();
    await mcp.call('list_teams');
    // The SDK's client also asks once, by GET, for an event stream, and is told 405 (stateless).
    expect(mcp.seen.filter((seen) => seen.method === 'POST').map((seen) => seen.status)).toEqual([200, 202, 200, 200]);
    expect(mcp.seen.filter((seen) => seen.method === 'GET').map((seen) => seen.status)).toEqual([405]);
    for (const seen of mcp.seen) {
      expect(seen.headers.get('x-request-id')).toBe('assistant-call.42');
      expectRateHeaders(seen.headers);
    }
    // Each request counts once against the key, like a v1 request.
    const remaining = mcp.seen.map((seen) => Number(seen.headers.get('ratelimit-remaining'))).sort((a, b) => b - a);
    expect(remaining).toEqual(remaining.map((_, i) => remaining[0]! - i));
    await mcp.close();

    const fresh = await post(await listening(t), LIST_TOOLS, { authorization: `Bearer ${key}` });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
  });

  it('without a key, or with a wrong one, the request is refused with 401 invalid_key before MCP sees it', async () => {
    const base = await listening(t);
    const error = await rejection(connect(base, null));
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
    for (const authorization of [undefined, 'Bearer gsk_not-a-real-key', 'Basic abc']) {
      const response = await post(base, INITIALIZE, authorization ? { authorization } : {});
      await expectProblem(response, 401, 'invalid_key');
      expectRateHeaders(response.headers);
    }
  });

  it("an organization that turned its API off refuses its keys here too (403 api_disabled)", async () => {
    const { key, organization } = await organizationWithTeams(t);
    await t.admin('PATCH', `/organizations/${organization.id}`, { api_enabled: false });
    const response = await post(await listening(t), INITIALIZE, { authorization: `Bearer ${key}` });
    await expectProblem(response, 403, 'api_disabled');
  });

  it('GET, DELETE and other methods on /mcp are 405 with Allow: POST (stateless: no event stream, no session); other paths 404', async () => {
    const { key } = await organizationWithTeams(t);
    const base = await listening(t);
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const response = await fetch(`${base}/mcp`, { method, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
      await expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.get('allow')).toBe('POST');
      expectRateHeaders(response.headers);
    }
    // Admission comes first, as on /v1.
    await expectProblem(await fetch(`${base}/mcp`), 401, 'invalid_key');
    await expectProblem(await fetch(`${base}/mcp/tools`, { headers: { authorization: `Bearer ${key}` } }), 404, 'not_found');
  });

  it("a tool's ids are taken in any letter case, and the JSON-RPC id comes back exactly as sent", async () => {
    const { teams, key } = await organizationWithTeams(t);
    const base = await listening(t);
    const id = 'A1B2C3D4-0000-4000-8000-ABCDEF012345';
    const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_members', arguments: { team_id: teams[0].id.toUpperCase() } } };
    const response = await post(base, JSON.stringify(call), { authorization: `Bearer ${key}` });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { id: unknown; result: { isError?: boolean; content: { text: string }[] } };
    expect(answer.id).toBe(id);
    expect(answer.result.isError ?? false).toBe(false);
    expect(JSON.parse(answer.result.content[0]?.text ?? '')).toEqual({ data: [] });
  });

  it('bad input gets a clear 4xx, never a 500', async () => {
    const { key } = await organizationWithTeams(t);
    const base = await listening(t);
    const auth = { authorization: `Bearer ${key}` };
    await expectProblem(await post(base, '{"jsonrpc": "2.0", "id": 1, "method": ', auth), 400, 'invalid_request');
    await expectProblem(await post(base, '', auth), 400, 'invalid_request');
    await expectProblem(await post(base, '[]', auth), 400, 'invalid_request');
    // One message per request: a batch would let one request, counted once, carry many tool calls.
    const batch = JSON.stringify([1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_teams' } })));
    expect((await expectProblem(await post(base, batch, auth), 400, 'invalid_request')).detail).toMatch(/one JSON-RPC message per request/);
    await expectProblem(await post(base, JSON.stringify({ padding: 'x'.repeat(100_000) }), auth), 413, 'payload_too_large');
    await expectProblem(await post(base, INITIALIZE, { ...auth, 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    await expectProblem(await post(base, INITIALIZE, { ...auth, 'content-type': 'application/xml' }), 415, 'unsupported_media_type');
    const untyped = await fetch(new URL('/mcp', base), { method: 'POST', headers: { ...auth, accept: 'application/json, text/event-stream' }, body: new Blob([INITIALIZE]) });
    await expectProblem(untyped, 415, 'unsupported_media_type');
    const deep = `{"s":"\\u0000","b":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`;
    expect((await expectProblem(await post(base, deep, auth), 400, 'invalid_request')).detail).toMatch(/nested more than 32 levels/);
    expect((await expectProblem(await post(base, '{"a":'.repeat(40) + '1' + '}'.repeat(40), auth), 400, 'invalid_request')).detail).toMatch(/nested/);
    // What the MCP transport refuses is its own JSON-RPC error, with a 4xx status.
    for (const [body, headers, status] of [
      ['{}', auth, 400],
      ['"text"', auth, 400],
      [INITIALIZE, { ...auth, accept: 'application/json' }, 406],
    ] as const) {
      const response = await post(base, body, headers);
      const text = await response.text();
      expect(response.status, `${body}: ${text}`).toBe(status);
      expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
    // A well-formed message the protocol refuses is answered as JSON-RPC answers it: 200 with an error.
    const wrongArguments = await post(base, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_guide', arguments: 'x' } }), auth);
    expect(wrongArguments.status).toBe(200);
    expect(await wrongArguments.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: expect.any(Number) } });
    const unknownMethod = await post(base, JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'guides/delete' }), auth);
    expect(await unknownMethod.json()).toMatchObject({ id: 8, error: { code: -32601 } });
  });

  it('a key over its rate limit gets 429 rate_limited with Retry-After; another key is not affected', async () => {
    const s = await startTestService({ RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const { key } = await organizationWithTeams(s);
      const { key: other } = await organizationWithTeams(s);
      const base = await listening(s);
      const mcp = await connect(base, key); // initialize and the initialized notification: 2
      await eventually('the client to ask for an event stream', async () => mcp.seen.some((seen) => seen.method === 'GET') || null); // 3
      await mcp.client.listTools(); // 4
      expect(textOf(await mcp.call('list_teams'))).toContain('"data"'); // 5
      const error = await rejection(mcp.call('list_teams'));
      expect(error).toBeInstanceOf(StreamableHTTPError);
      expect((error as StreamableHTTPError).code).toBe(429);
      expect((error as Error).message).toContain('rate_limited');
      const last = mcp.seen.at(-1)!;
      expect(last.status).toBe(429);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last.headers.get('ratelimit-remaining')).toBe('0');
      expect(last.headers.get('x-request-id')).toBeTruthy();

      const refused = await post(base, LIST_TOOLS, { authorization: `Bearer ${key}` });
      await expectProblem(refused, 429, 'rate_limited');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      // The same window counts v1 requests and MCP requests of a key together.
      expect((await s.get('/v1/teams', key)).statusCode).toBe(429);

      const others = await connect(base, other);
      expect((await others.client.listTools()).tools).toHaveLength(4);
      await others.close();
      await mcp.close();
    } finally {
      await s.close();
    }
  });
});

// Drives /mcp the way an assistant's MCP client does: the SDK's own Client over Streamable HTTP against a
// listening service, keeping every HTTP response it got so that tests can read their headers.
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { TestService } from '../../support/service.js';

export interface Seen {
  method: string;
  status: number;
  headers: Headers;
}

export interface McpConnection {
  client: Client;
  /** Every HTTP response the client got, in order. */
  seen: Seen[];
  /** Calls a tool and answers its result (a tool error included). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The service listening on loopback; answers its base URL. */
export async function listening(t: TestService): Promise<string> {
  if (!t.service.app.server.listening) await t.service.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.service.app.server.address() as AddressInfo).port}`;
}

/** A connected MCP client for `key` (none: no Authorization header). */
export async function connect(base: string, key: string | null, headers: Record<string, string> = {}): Promise<McpConnection> {
  const seen: Seen[] = [];
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', base), {
    requestInit: { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      seen.push({ method: init?.method ?? 'GET', status: response.status, headers: response.headers });
      return response;
    },
  });
  const client = new Client({ name: 'guide-service-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    seen,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result's one content block. */
export function textOf(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const [block] = result.content;
  if (block?.type !== 'text') throw new Error(`expected a text block, got ${JSON.stringify(block)}`);
  return block.text;
}

/** A raw JSON-RPC POST to /mcp, as a client that is not the SDK would send it. */
export function post(base: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL('/mcp', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
}

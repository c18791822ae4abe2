// A real webhook receiver on loopback: it records every request with its raw body and answers as the
// test tells it (a status, a redirect, or no answer at all).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  at: number;
}

/**
 * An answer, optionally after `delayMs` or once `after` settles (what the test waits for has happened),
 * whose body may never end (`stall`); or none at all.
 */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number; after?: Promise<unknown>; stall?: boolean } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** How to answer the next requests; a function sees each request. */
  answer: Answer | ((request: Received) => Answer);
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiting: (() => void)[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received,
    answer: { status: 200 },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received.slice(0, count);
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), path: request.url ?? '/', at: Date.now() };
      received.push(entry);
      for (const wake of waiting.splice(0)) wake();
      const answer = typeof receiver.answer === 'function' ? receiver.answer(entry) : receiver.answer;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      const send = () => {
        response.writeHead(answer.status, answer.headers ?? {});
        if (!answer.stall) return response.end(answer.body ?? '');
        response.write(answer.body ?? '');
        hanging.add(response);
      };
      if (answer.after) void answer.after.then(send);
      else if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

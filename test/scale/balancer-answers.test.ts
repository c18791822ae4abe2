// Issue 41, items 2 and the last weak one: HAProxy configured as docs/deploy.md says (the block is read
// from the document) in front of stand-in processes that answer its checks. Its own answers are the
// service's: problem+json with Retry-After and a request id, never its HTML page. And it sends a request
// again only when that is safe: a request whose process stopped before answering is repeated for GET,
// HEAD, PUT and DELETE, and for a POST or PATCH only when it carries an Idempotency-Key.
import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/http/error-catalogue.js';
import { documentedHaproxyConfig, type Haproxy, haproxyBinary, startHaproxy, withLoopbackAddresses } from '../support/haproxy.js';
import { freePort } from '../support/processes.js';
import { PUBLIC_URL, useTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';

const BACKEND = 'guide_api';

/**
 * A stand-in API process: ready to HAProxy's checks, and for every other request, the first time any
 * stand-in sees it (by its X-Test-Id), it reads it whole and drops the connection without an answer, as
 * a process killed after doing the work would; the next time it answers 200.
 */
interface StandIn {
  server: Server;
  port: number;
}

async function standIns(count: number, seen: Map<string, number>, ready: { value: boolean }): Promise<StandIn[]> {
  const started: StandIn[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((request: IncomingMessage, response) => {
      request.resume();
      request.on('end', () => {
        if (request.url === '/readyz') {
          response.writeHead(ready.value ? 200 : 503).end();
          return;
        }
        const id = String(request.headers['x-test-id']);
        const times = (seen.get(id) ?? 0) + 1;
        seen.set(id, times);
        if (times === 1) request.socket.destroy();
        else response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"done"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    started.push({ server, port: (server.address() as AddressInfo).port });
  }
  return started;
}

/** The body of each `http-error` line of the documented configuration, by status, as HAProxy sends it (its request id filled in). */
function documentedAnswers(config: string): Map<number, unknown> {
  const answers = new Map<number, unknown>();
  for (const [, status, body] of config.matchAll(/^\s*http-error status (\d+) content-type application\/problem\+json lf-string "((?:[^"\\]|\\.)*)"/gm)) {
    answers.set(Number(status), JSON.parse(body!.replaceAll('\\"', '"').replaceAll('%[unique-id]', 'an-id')));
  }
  return answers;
}

describe.runIf(haproxyBinary !== null)('HAProxy configured as docs/deploy.md says', () => {
  const t = useTestService();
  const seen = new Map<string, number>();
  const ready = { value: true };
  let processes: StandIn[];
  let haproxy: Haproxy;

  beforeAll(async () => {
    processes = await standIns(2, seen, ready);
    const port = await freePort();
    haproxy = await startHaproxy(
      withLoopbackAddresses(
        documentedHaproxyConfig(),
        port,
        processes.map((process) => process.port),
      ),
      port,
    );
    await eventually('both stand-ins UP', async () => [...(await haproxy.serverStates(BACKEND)).values()].every((state) => state === 'UP'), 20_000);
  }, 30_000);

  afterAll(async () => {
    await haproxy?.stop();
    for (const process of processes ?? []) process.server.close();
  });

  /**
   * One request on a connection of its own. (On a kept-alive connection that already carried a request,
   * HAProxy answers a request it will not send again by closing the connection, as the process did,
   * rather than with a 502: the client sees the same as without a balancer.)
   */
  const send = (method: string, testId: string, headers: Record<string, string> = {}) => {
    const body = method === 'GET' || method === 'HEAD' ? undefined : '{"title":"once"}';
    const url = new URL('/admin/v1/guides', haproxy.url);
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
      const request = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method, agent: false, headers: { 'x-test-id': testId, ...(body ? { 'content-type': 'application/json' } : {}), ...headers } },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  };

  it.each([
    ['GET', {}, 200, 2],
    ['HEAD', {}, 200, 2],
    ['PUT', {}, 200, 2],
    ['DELETE', {}, 200, 2],
    ['POST', { 'idempotency-key': 'retry-me-1' }, 200, 2],
    ['PATCH', { 'idempotency-key': 'retry-me-2' }, 200, 2],
    ['POST', {}, 502, 1],
    ['PATCH', {}, 502, 1],
  ] as const)('a %s %j whose process stops before answering: %i, the request reached a process %i time(s)', async (method, headers, status, times) => {
    const testId = `${method}-${Object.keys(headers).length}`;
    const answer = await send(method, testId, headers);
    expect(answer.status).toBe(status);
    expect(seen.get(testId)).toBe(times);
    if (status === 502) {
      expect(answer.headers['content-type']).toBe('application/problem+json');
      const problem = JSON.parse(answer.text) as { code: string; request_id: string; type: string };
      expect(problem.code).toBe('bad_gateway');
      expect(problem.request_id).toBe(answer.headers['x-request-id']);
      expect(problem.type).toBe(`${haproxy.url}/docs#error-bad_gateway`);
    }
  });

  it('with no process in rotation, clients get the service\'s 503: problem+json service_unavailable, Retry-After and a request id, never HAProxy\'s page', async () => {
    ready.value = false;
    try {
      await eventually('both stand-ins DOWN', async () => [...(await haproxy.serverStates(BACKEND)).values()].every((state) => state.startsWith('DOWN')), 20_000);
      for (const method of ['GET', 'POST']) {
        const answer = await send(method, `outage-${method}`);
        expect(answer.status).toBe(503);
        expect(answer.headers['content-type']).toBe('application/problem+json');
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        const requestId = String(answer.headers['x-request-id']);
        expect(requestId).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
        const problem = JSON.parse(answer.text) as Record<string, unknown>;
        expect(problem).toMatchObject({ code: 'service_unavailable', status: 503, title: ERROR_CATALOGUE.service_unavailable.title, request_id: requestId });
        expect(problem.type).toBe(`${haproxy.url}/docs#error-service_unavailable`);
        expect(seen.has(`outage-${method}`), 'no process saw it').toBe(false);
      }
    } finally {
      ready.value = true;
    }
    await eventually('both stand-ins UP again', async () => [...(await haproxy.serverStates(BACKEND)).values()].every((state) => state === 'UP'), 20_000);
  });

  it("each of HAProxy's own answers is a problem of the service's catalogue, with its status and title, whose type the reference documents", async () => {
    const answers = documentedAnswers(haproxy.config);
    expect([...answers.keys()].sort()).toEqual([502, 503, 504]);
    const reference = (await t.service.app.inject({ method: 'GET', url: '/docs' })).body;
    for (const [status, body] of answers) {
      const problem = body as { type: string; code: ErrorCode; status: number; title: string; detail: string; request_id: string };
      expect(ERROR_CATALOGUE[problem.code], `${problem.code} is in the catalogue`).toBeDefined();
      expect(problem).toMatchObject({ status, title: ERROR_CATALOGUE[problem.code].title, request_id: 'an-id' });
      expect(ERROR_CATALOGUE[problem.code].status).toBe(status);
      expect(problem.type).toBe(`${haproxy.url}/docs#error-${problem.code}`);
      expect(reference).toContain(`id="error-${problem.code}"`);
      expect(problem.detail.length).toBeGreaterThan(20);
    }
    expect(PUBLIC_URL).not.toBe(haproxy.url);
  });
});

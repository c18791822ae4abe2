// Connections per client address (src/http/connection-limits.ts), through real sockets: 127.0.0.1 and
// 127.0.0.2 are two client addresses on loopback.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { limitConnections } from '../../src/http/connection-limits.js';
import { startTestService, type TestService } from '../support/service.js';
import { eventually, sleep } from '../support/waiting.js';

const FLOODER = '127.0.0.1';
const NEWCOMER = '127.0.0.2';
const NO_ANSWER = 'no answer';

interface Connection {
  socket: Socket;
  closedByServer: () => boolean;
  /** Sends GET `path` and answers the status code of the first answer within `withinMs`, or NO_ANSWER. */
  ask(path: string, withinMs?: number): Promise<string>;
}

const sockets: Socket[] = [];
let t: TestService | undefined;
let server: Server | undefined;
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.close();
  server = undefined;
  await t?.close();
  t = undefined;
});

async function open(port: number, localAddress: string): Promise<Connection> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  await once(socket, 'connect');
  let closed = false;
  socket.once('close', () => (closed = true));
  let answer: Promise<string> = Promise.resolve(NO_ANSWER);
  return {
    socket,
    closedByServer: () => closed,
    ask: (path, withinMs = 2000) => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`);
      answer = answer.then(() => once(socket, 'data').then(([chunk]: Buffer[]) => chunk!.toString('latin1').slice(9, 12)));
      return Promise.race([answer, sleep(withinMs).then(() => NO_ANSWER)]);
    },
  };
}

/** A node:http server whose /held answers only when `release` is called. */
async function heldServer(perAddress: number): Promise<{ port: number; release: () => void }> {
  const held: (() => void)[] = [];
  server = createServer((request, response) => {
    const answer = () => response.end('ok');
    if (request.url === '/held') held.push(answer);
    else answer();
  });
  limitConnections(server, { perAddress });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, release: () => held.splice(0).forEach((answer) => answer()) };
}

describe('connections per client address', () => {
  it("the service: a client's connections over the limit wait unread while another address is served at once", async () => {
    t = await startTestService();
    limitConnections(t.service.app.server, { perAddress: 2 });
    await t.service.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.service.app.server.address() as AddressInfo).port;
    const [first, second] = [await open(port, FLOODER), await open(port, FLOODER)];
    expect([await first.ask('/healthz'), await second.ask('/healthz')]).toEqual(['200', '200']);

    const third = await open(port, FLOODER);
    const waiting = third.ask('/healthz', 5000);
    const newcomer = await open(port, NEWCOMER);
    expect(await newcomer.ask('/healthz', 500)).toBe('200');
    expect(await Promise.race([waiting, sleep(300).then(() => NO_ANSWER)])).toBe(NO_ANSWER);
    // One of the client's own connections closes: the waiting one takes its place.
    first.socket.destroy();
    expect(await waiting).toBe('200');
  });

  it('connections answering a request are never closed to let others in; idle ones are, after a second', async () => {
    const { port, release } = await heldServer(2);
    const [first, second] = [await open(port, FLOODER), await open(port, FLOODER)];
    const held = [first.ask('/held', 5000), second.ask('/held', 5000)];
    const third = await open(port, FLOODER);
    const waiting = third.ask('/', 5000);
    await sleep(1600);
    expect([first.closedByServer(), second.closedByServer()]).toEqual([false, false]);
    expect(await Promise.race([waiting, sleep(0).then(() => NO_ANSWER)])).toBe(NO_ANSWER);

    // Answered, both are idle: within a second and a half one is closed and the waiting one is served.
    release();
    expect(await Promise.all(held)).toEqual(['200', '200']);
    expect(await waiting).toBe('200');
    const closed = () => [first.closedByServer(), second.closedByServer()].filter(Boolean).length;
    await eventually('the server to close an idle connection', () => closed() > 0, 1000);
    expect(closed()).toBe(1);
  });

  it('0 leaves the server as Node.js makes it', async () => {
    const { port } = await heldServer(0);
    const connections = [await open(port, FLOODER), await open(port, FLOODER), await open(port, FLOODER)];
    expect(await Promise.all(connections.map((connection) => connection.ask('/', 500)))).toEqual(['200', '200', '200']);
  });
});

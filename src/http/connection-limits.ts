// How many connections of one client address are served at once (docs/decisions.md, "New clients during a
// connection flood"). Node.js accepts one connection per turn of its event loop (libuv 1.45+), and a turn
// reads every served connection with a request waiting. One client keeping 1,000 connections busy makes
// each turn long, and its connections not yet accepted fill the kernel's accept queue: a new client then
// waits behind them until the flood ends. Connections over the limit are accepted but not read, so they
// cost a turn nothing and the queue drains; they are served in turn as that address's others close.
// Closing them instead would not help, because the client reconnects at once and the queue stays full.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Connections served at once per client address; 0 turns the limit off (behind a load balancer). */
  perAddress: number;
}

/**
 * Served at once per address unless configured: a client's connection pool or a few browsers behind one
 * address fit. In a busy flood (`npm run bench -- --only flood`) new clients waited under half a second
 * with 32, and up to 2 s with 64.
 */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 32;

/**
 * The listen backlog: how many connections the kernel holds until the process accepts them, each taking
 * one turn. With Node.js's 511 (or 128) a busy flood queued enough ahead of a new client to keep it
 * waiting over a second even at 32 per address; a smaller one drops new clients' connection attempts,
 * which they repeat only a second later.
 */
export const LISTEN_BACKLOG = 64;

/**
 * While connections of an address wait, its served ones idle this long are closed, so that a client with
 * more keep-alive connections than the limit (an office behind one address) is not held up by its own
 * idle ones until the keep-alive timeout. A flooding connection is never idle that long.
 */
const IDLE_MS = 1000;

interface Served {
  /** Requests read and not yet answered. */
  inFlight: number;
  idleSince: number;
}

interface AddressConnections {
  served: Map<Socket, Served>;
  /** Accepted and unread, oldest first. */
  waiting: Set<Socket>;
}

export function limitConnections(server: Server, limits: ConnectionLimits): void {
  if (limits.perAddress === 0) return;
  // net.Server reads this field for every socket it accepts (it is net.createServer's pauseOnConnect
  // option, which http.createServer does not pass on): each socket starts unread until resume().
  (server as Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  const byAddress = new Map<string, AddressConnections>();

  const serve = (socket: Socket, address: string, entry: AddressConnections) => {
    entry.served.set(socket, { inFlight: 0, idleSince: performance.now() });
    socket.once('close', () => {
      entry.served.delete(socket);
      const next = entry.waiting.values().next();
      if (!next.done) {
        entry.waiting.delete(next.value);
        serve(next.value, address, entry);
      } else if (entry.served.size === 0) byAddress.delete(address);
    });
    socket.resume();
  };

  // Added after the HTTP server's own listener, so the socket already has its parser when it resumes.
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    // No address: the peer is already gone.
    if (address === undefined) return void socket.destroy();
    const entry = byAddress.get(address) ?? { served: new Map(), waiting: new Set() };
    byAddress.set(address, entry);
    if (entry.served.size < limits.perAddress) return serve(socket, address, entry);
    entry.waiting.add(socket);
    socket.once('close', () => entry.waiting.delete(socket));
  });

  // Ahead of the application's listener, which may answer before a listener after it would run.
  server.prependListener('request', (request, response) => {
    const state = byAddress.get(request.socket.remoteAddress ?? '')?.served.get(request.socket);
    if (!state) return;
    state.inFlight += 1;
    response.once('close', () => {
      state.inFlight -= 1;
      state.idleSince = performance.now();
    });
  });

  const sweep = setInterval(() => {
    const idleBefore = performance.now() - IDLE_MS;
    for (const entry of byAddress.values()) {
      // No more than are waiting: each one closed lets the oldest waiting one in, at its 'close'.
      let toClose = entry.waiting.size;
      for (const [socket, state] of entry.served) {
        if (toClose === 0) break;
        if (state.inFlight > 0 || state.idleSince > idleBefore) continue;
        socket.destroy();
        toClose -= 1;
      }
    }
  }, IDLE_MS / 2);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}

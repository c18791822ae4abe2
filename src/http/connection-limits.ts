// How many connections of one client address are served at once (docs/decisions.md, "New clients during a
// connection flood"). Node.js accepts one connection per turn of its event loop (libuv 1.45+), and a turn
// serves every connection that has a request waiting; so one client keeping 1,000 connections busy makes
// each turn long, its own not-yet-accepted connections fill the kernel's accept queue, and a new client
// waits behind them until the flood ends. Connections over the limit are accepted but not read: they cost
// a turn nothing, the accept queue drains, and they are served in turn as that address's others close.
// Closing them instead would not help: the client reconnects at once and keeps the accept queue full.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Connections served at once per client address; 0 turns the limit off (behind a load balancer). */
  perAddress: number;
}

interface AddressConnections {
  served: number;
  /** Accepted and unread, oldest first. */
  waiting: Set<Socket>;
}

export function limitConnections(server: Server, limits: ConnectionLimits): void {
  if (limits.perAddress === 0) return;
  // net.Server reads this field for every socket it accepts (it is net.createServer's pauseOnConnect
  // option, which http.createServer does not pass on): each socket starts unread until resume().
  (server as Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  const byAddress = new Map<string, AddressConnections>();

  const forget = (address: string, entry: AddressConnections) => {
    if (entry.served === 0 && entry.waiting.size === 0) byAddress.delete(address);
  };
  const serve = (socket: Socket, address: string, entry: AddressConnections) => {
    entry.served += 1;
    socket.once('close', () => {
      entry.served -= 1;
      const next = entry.waiting.values().next();
      if (next.done) forget(address, entry);
      else {
        entry.waiting.delete(next.value);
        serve(next.value, address, entry);
      }
    });
    socket.resume();
  };

  // Added after the HTTP server's own listener, so the socket already has its parser when it resumes.
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    // No address: the peer is already gone.
    if (address === undefined) return void socket.destroy();
    let entry = byAddress.get(address);
    if (!entry) byAddress.set(address, (entry = { served: 0, waiting: new Set() }));
    if (entry.served < limits.perAddress) return serve(socket, address, entry);
    const waiting = entry;
    waiting.waiting.add(socket);
    socket.once('close', () => {
      if (waiting.waiting.delete(socket)) forget(address, waiting);
    });
  });
}

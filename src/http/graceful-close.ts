// Stopping without keeping anyone waiting and without dropping an answer (decisions §10, docs/deploy.md
// "Stopping"). Node's server.close() closes the keep-alive connections that are idle at that moment,
// but not one that connected and never sent a request, nor one that finishes its request afterwards:
// close() then waited for them until their keep-alive time-out, and the process was ended by its own
// deadline (15 s, exit 1). So every connection is followed here: when the application starts to close,
// those without a request in flight are closed at once, and each of the others right after its last
// answer, which says `Connection: close` when its headers are not written yet.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface GracefulClose {
  /** Closes the idle connections now and each busy one after its answer; new connections are closed at once. */
  closing(): void;
}

export function followConnections(server: Server): GracefulClose {
  /** The answers not finished yet, per open connection. */
  const answering = new Map<Socket, Set<ServerResponse>>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    if (closing) return void socket.destroy();
    answering.set(socket, new Set());
    socket.once('close', () => answering.delete(socket));
  });

  // Ahead of the application's listener, which may answer before a listener after it would run.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const open = answering.get(socket) ?? new Set<ServerResponse>();
    answering.set(socket, open);
    open.add(response);
    if (closing) response.shouldKeepAlive = false;
    response.once('close', () => {
      open.delete(response);
      if (closing && open.size === 0) socket.destroySoon();
    });
  });

  return {
    closing() {
      closing = true;
      for (const [socket, open] of answering) {
        if (open.size === 0) socket.destroy();
        for (const response of open) if (!response.headersSent) response.shouldKeepAlive = false;
      }
    },
  };
}

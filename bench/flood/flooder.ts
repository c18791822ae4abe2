// The idle and trickling floods, in a process of their own so that their work does not delay the prober:
// CONNECTIONS connections from 127.0.0.1 to PORT. MODE=idle sends nothing on them; MODE=trickle sends one
// byte of a request header that never ends on each, every TRICKLE_MS. On SIGTERM it prints, as one JSON
// line, how many connected, how many of those the server closed and how many never connected, and exits.
import { connect, type Socket } from 'node:net';
import { setImmediate as yieldTurn } from 'node:timers/promises';

const port = Number(process.env.PORT);
const mode = process.env.MODE;
const connections = Number(process.env.CONNECTIONS);
const trickleMs = Number(process.env.TRICKLE_MS ?? 300);
if (mode !== 'idle' && mode !== 'trickle') throw new Error(`MODE must be idle or trickle, got ${mode}`);

// After this, one header value that never ends: the server waits for as long as it lets a header take.
const start = 'GET /v1/auth/verify HTTP/1.1\r\nHost: flood-bench\r\nX-Trickle: ';

let connected = 0;
let closedByServer = 0;
let failed = 0;
const sockets: Socket[] = [];
for (let i = 0; i < connections; i++) {
  const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.1' });
  let wasConnected = false;
  socket.once('connect', () => {
    wasConnected = true;
    connected += 1;
  });
  // This process never closes a socket: a close is the server's doing, or a connection that never was.
  socket.once('close', () => (wasConnected ? (closedByServer += 1) : (failed += 1)));
  socket.on('error', () => {}); // counted at 'close', which follows
  socket.resume();
  sockets.push(socket);
  // Let the connections made so far go out before making more.
  if (i % 200 === 199) await yieldTurn();
}

if (mode === 'trickle') {
  let sent = 0;
  setInterval(() => {
    const byte = start[sent] ?? 'a';
    for (const socket of sockets) if (socket.writable) socket.write(byte);
    sent += 1;
  }, trickleMs);
}

process.once('SIGTERM', () => {
  process.stdout.write(`${JSON.stringify({ connected, closedByServer, failed })}\n`);
  process.exit(0);
});

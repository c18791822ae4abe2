// The new client of the flood benchmark: every half second a new connection asks GET /healthz, timed
// from connect() to the first byte of the answer. It connects from 127.0.0.2 (any 127.x address reaches
// loopback on Linux), so that the server sees it as a client other than the flood's 127.0.0.1.
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const PROBE_ADDRESS = '127.0.0.2';
export const PROBE_EVERY_MS = 500;
/** A probe not answered by then is given up, and counts as this long. */
export const GIVE_UP_MS = 30_000;

export interface Probe {
  /** Null when it never connected. */
  connectMs: number | null;
  /** Until the first byte of the answer; null when none came. */
  answeredMs: number | null;
  /** The answer's status code, or what went wrong. */
  outcome: string;
}

function probeOnce(port: number): Promise<Probe> {
  return new Promise((resolve) => {
    const started = performance.now();
    let connectMs: number | null = null;
    const socket = connect({ port, host: '127.0.0.1', localAddress: PROBE_ADDRESS });
    // The first outcome wins; destroying the socket below also ends in 'close', which is then ignored.
    const finish = (answered: boolean, outcome: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ connectMs, answeredMs: answered ? performance.now() - started : null, outcome });
    };
    const timer = setTimeout(() => finish(false, `no answer in ${GIVE_UP_MS / 1000} s`), GIVE_UP_MS);
    socket.once('connect', () => {
      connectMs = performance.now() - started;
      socket.write('GET /healthz HTTP/1.1\r\nHost: flood-bench\r\nConnection: close\r\n\r\n');
    });
    socket.once('data', (chunk: Buffer) => finish(true, /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'no status line'));
    socket.once('error', (error: NodeJS.ErrnoException) => finish(false, error.code ?? error.message));
    socket.once('close', () => finish(false, 'closed without an answer'));
  });
}

/** Probes every half second for `seconds`, then waits for the last probes' answers. */
export async function probeNewClients(port: number, seconds: number): Promise<Probe[]> {
  const pending: Promise<Probe>[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    pending.push(probeOnce(port));
    await sleep(PROBE_EVERY_MS);
  }
  return Promise.all(pending);
}

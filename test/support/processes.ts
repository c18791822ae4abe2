// The service as real processes, for tests that run the build (see build.ts): a free port, a child
// process whose output is kept, a node started in a role and ready once /readyz answers, and the
// management API over HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN } from './service.js';
import { eventually, type WaitOptions } from './waiting.js';

/** A loopback port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `count` loopback ports that were free a moment ago, all different. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** How tests wait on real processes: up to 30 s, every 100 ms, and a probe that throws only means "not yet". */
export const PROCESS_WAIT: WaitOptions = { timeoutMs: 30_000, intervalMs: 100, retryOnError: true };

export interface ServiceProcess {
  child: ChildProcess;
  /** All the process has written to stdout and stderr so far. */
  output(): string;
  /** The exit code (null after a signal). */
  exited: Promise<number | null>;
}

/** Runs the built service (`main`) in `cwd` with `env` over this process's environment. */
export function spawnService(main: string, env: Record<string, string>, cwd: string): ServiceProcess {
  const child = spawn(process.execPath, [main], { cwd, env: { ...process.env, ...env } });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export type Role = 'api' | 'worker' | 'all';

/** A service process in one role, listening on loopback at `url`. */
export interface ServiceNode extends ServiceProcess {
  role: Role;
  url: string;
}

/**
 * Starts the built service in `role` on a free loopback port (or on `port`, to take the place of a
 * stopped node behind a load balancer), in a fresh working directory, and waits until /readyz answers.
 * The node joins `running` as soon as it is spawned, so that an after-hook stops it even if it never gets
 * ready. With `publicUrl`, PUBLIC_URL is the node's own address.
 */
export async function startServiceNode(
  main: string,
  role: Role,
  env: Record<string, string>,
  running: ServiceNode[],
  options: { publicUrl?: boolean; port?: number } = {},
): Promise<ServiceNode> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const cwd = mkdtempSync(join(tmpdir(), 'guide-service-node-'));
  const spawned = spawnService(main, { ...env, ROLE: role, PORT: String(port), ...(options.publicUrl ? { PUBLIC_URL: url } : {}) }, cwd);
  const node: ServiceNode = { ...spawned, role, url };
  running.push(node);
  await eventually(`${role} on ${port} ready`, async () => (await fetch(`${url}/readyz`)).ok, PROCESS_WAIT);
  return node;
}

/** Kills every node with SIGKILL and waits until all have exited. */
export async function killAll(nodes: ServiceNode[]): Promise<void> {
  for (const node of nodes) node.child.kill('SIGKILL');
  await Promise.all(nodes.map((node) => node.exited));
}

/** A management API call over HTTP to the service at `baseUrl` that must succeed; answers `data` (null for 202 and 204). */
export async function adminFetch(baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await fetch(`${baseUrl}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 || response.status === 202 ? null : ((await response.json()) as { data: unknown }).data;
}

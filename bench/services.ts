// The service's own processes under the benchmark: started in a role on a store, all with one admin token,
// and the management API they are driven through. Shared by the webhook and the mixed benchmarks.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { serviceMain, serviceNodeFlags } from './paths.js';
import { type Child, freePort, spawnChild, waitReady } from './processes.js';

/**
 * The highest rate limit the configuration takes (1,000,000 a minute per key): the benchmark measures the
 * service, not its limit. A run that still reaches it shows 429s as failed requests in its results.
 */
export const UNREACHED_RATE_LIMIT = '1000000';

/** An answer other than 2xx, with what a client retries by. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Retry-After in seconds, when the answer had one. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
  }
}

/**
 * Connections a client of the benchmark keeps to the service, as an integrator's HTTP client keeps a
 * pool: the service serves 32 at once per client address by default (src/http/connection-limits.ts).
 * Without a bound, a stream of writes that slows down opens a connection per write waiting and fills the
 * service's accept queue, a flood no client of the service makes.
 */
const CLIENT_CONNECTIONS = 32;

export class Admin {
  private readonly dispatcher = new Agent({ connections: CLIENT_CONNECTIONS });

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** The whole answer, for the few that hold more than `data` (a new API key's secret). */
  async send<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    // undici's request rather than fetch: the same pooled connections for a fifth of the CPU, which the
    // writer of a stream (the bad day's) otherwise takes from the processes it measures on two cores.
    const response = await request(`${this.baseUrl}/admin/v1${path}`, {
      dispatcher: this.dispatcher,
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode > 299) {
      const retryAfter = Number(response.headers['retry-after']);
      throw new Refusal(`${method} /admin/v1${path}: ${response.statusCode} ${text.slice(0, 500)}`, response.statusCode, Number.isFinite(retryAfter) ? retryAfter : undefined);
    }
    return JSON.parse(text) as T;
  }

  post = async <T>(path: string, body: unknown) => (await this.send<{ data: T }>('POST', path, body)).data;
  patch = async <T>(path: string, body: unknown) => (await this.send<{ data: T }>('PATCH', path, body)).data;
  get = async <T>(path: string) => (await this.send<{ data: T }>('GET', path)).data;
}

export type Role = 'api' | 'worker' | 'all';

export interface RunningService {
  child: Child;
  url: string;
  admin: Admin;
}

/** Starts service processes on one store, all with the same admin token. */
export function serviceStarter(children: Child[], store: { databaseUrl: string; dataDir: string; redisUrl?: string }, env: Record<string, string> = {}) {
  const token = `adm_bench_${randomBytes(12).toString('hex')}`;
  // BENCH_SERVICE_NODE_ARGS (say `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the service under load.
  const nodeArgs = [...serviceNodeFlags(), ...(process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  return async (role: Role): Promise<RunningService> => {
    const port = await freePort();
    const child = spawnChild(`service (${role})`, process.execPath, [...nodeArgs, serviceMain], {
      ROLE: role,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: store.databaseUrl,
      ...(store.redisUrl ? { REDIS_URL: store.redisUrl } : {}),
      DATA_DIR: store.dataDir,
      ADMIN_TOKEN: token,
      DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // The load comes from one address but stands for many clients (the flood benchmark sets its own).
      CONNECTIONS_PER_ADDRESS: '0',
      ...env,
    });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    await waitReady(child, `${url}/readyz`);
    return { child, url, admin: new Admin(url, token) };
  };
}

// The four servers a read scenario runs against, all on the same store file: the service with its read
// caches, the service with READ_CACHE=off, and the two ceilings. They stay up for a whole pass over a
// store and take turns under load, so that every ratio compares figures taken minutes apart at most.
import { randomBytes } from 'node:crypto';
import { benchScript, serviceMain, serviceNodeFlags } from '../paths.js';
import { type Child, freePort, memoryOf, spawnChild, waitReady } from '../processes.js';
import type { Target } from '../results.js';
import { UNREACHED_RATE_LIMIT } from '../services.js';
import type { LoadedStore } from '../store.js';

export interface Server {
  target: Target;
  url: string;
  child: Child;
}

export type Servers = Record<Target, Server>;

/** The service's settings under the benchmark: no demo, quiet logs, and a rate limit the load never reaches. */
export function serviceEnv(store: LoadedStore): Record<string, string> {
  return {
    ROLE: 'api',
    HOST: '127.0.0.1',
    DATABASE_URL: store.databaseUrl,
    DATA_DIR: store.dir,
    ADMIN_TOKEN: `adm_bench_${randomBytes(12).toString('hex')}`,
    DEMO: 'false',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT,
    // wrk's connections all come from one address but stand for many clients.
    CONNECTIONS_PER_ADDRESS: '0',
  };
}

/** Starts `node …args` (Node's flags, then the script). */
async function start(target: Target, name: string, args: string[], env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawnChild(name, process.execPath, args, { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(child, `${url}/readyz`);
  return { target, url, child };
}

/** Starts them one after the other: the services migrate the store at start, and must not race. */
export async function startServers(store: LoadedStore): Promise<Servers> {
  const base = serviceEnv(store);
  const serviceArgs = [...serviceNodeFlags(), serviceMain];
  const service = await start('service', 'service', serviceArgs, { ...base, READ_CACHE: 'on' });
  const serviceNoCache = await start('serviceNoCache', 'service (READ_CACHE=off)', serviceArgs, { ...base, READ_CACHE: 'off' });
  const ceilingSql = await start('ceilingSql', 'SQL ceiling', [benchScript('ceiling/sql-server.js')], {
    DATABASE_URL: store.databaseUrl,
    DATA_DIR: store.dir,
    READ_CACHE: 'off',
  });
  const ceilingBytes = await start('ceilingBytes', 'bytes ceiling', [benchScript('ceiling/bytes-server.js')], {});
  return { service, serviceNoCache, ceilingSql, ceilingBytes };
}

export async function stopServers(servers: Partial<Servers>): Promise<void> {
  await Promise.all(Object.values(servers).map((server) => server.child.stop()));
}

/** Peak resident memory of each server over its life so far (VmHWM), MiB. */
export function peaks(servers: Servers): Record<Target, number> {
  const peak = (server: Server) => memoryOf(server.child.pid)?.peakMb ?? NaN;
  return {
    service: peak(servers.service),
    serviceNoCache: peak(servers.serviceNoCache),
    ceilingSql: peak(servers.ceilingSql),
    ceilingBytes: peak(servers.ceilingBytes),
  };
}

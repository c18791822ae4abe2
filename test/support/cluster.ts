// Several real service processes on one PostgreSQL and one Redis, for the tests of decisions §8: the
// built service, a database of its own, a loopback receiver, and the processes a test starts, all torn
// down after the file. Needs TEST_DATABASE_URL and TEST_REDIS_URL.
import { afterAll, beforeAll } from 'vitest';
import { type Build, buildService } from './build.js';
import { killAll, type Role, type ServiceNode, startServiceNode } from './processes.js';
import { type Receiver, startReceiver } from './receiver.js';
import { ADMIN_TOKEN } from './service.js';
import { type TestDatabase, testDatabase, usingPostgres } from './test-database.js';

export const clusterServers = usingPostgres && Boolean(process.env.TEST_REDIS_URL);

export interface Cluster {
  /** The environment every process of the cluster gets. */
  readonly env: Record<string, string>;
  readonly receiver: Receiver;
  readonly nodes: ServiceNode[];
  start(role: Role, options?: { publicUrl?: boolean }): Promise<ServiceNode>;
}

/** A cluster for this test file; `webhookEnv` sets the delivery schedule its processes share. */
export function useCluster(webhookEnv: Record<string, string>): Cluster {
  let build: Build;
  let database: TestDatabase;
  let receiver: Receiver;
  let env: Record<string, string> = {};
  const nodes: ServiceNode[] = [];

  beforeAll(async () => {
    build = await buildService();
    database = await testDatabase();
    receiver = await startReceiver();
    env = { ...database.env, ADMIN_TOKEN, DEMO: 'false', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...webhookEnv };
  }, 120_000);

  afterAll(async () => {
    await killAll(nodes);
    await receiver?.close();
    await database?.drop();
    await build?.remove();
  });

  return {
    get env() {
      return env;
    },
    get receiver() {
      return receiver;
    },
    nodes,
    start: (role, options = {}) => startServiceNode(build.main, role, env, nodes, options),
  };
}

// Probes for load balancers and orchestrators: /healthz answers while the process runs; /readyz answers
// 200 only while every migration this build knows has been applied and the store can take a write
// (decisions §10, src/db/store-health.ts), so that a process whose store is down, full, read-only or
// busy past its time-out is taken out of rotation, and put back once it heals. A load balancer asks
// every second or two: the log says when the answer changes, not each time.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Store } from '../db/database.js';
import { migrationNames } from '../db/migrate.js';
import type { Readiness } from '../db/store-health.js';

export async function healthPlugin(app: FastifyInstance, options: { store: Store }): Promise<void> {
  const { store } = options;
  const expected = migrationNames(store);
  let lastReason: string | null = null;

  /** The answer, and for a store that lacks migrations, which. */
  const readiness = async (): Promise<Readiness & { missing?: string[] }> => {
    try {
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(store.db);
      const names = new Set(applied.rows.map((row) => row.name));
      const missing = expected.filter((name) => !names.has(name));
      if (missing.length > 0) return { ready: false, reason: 'migrations of this build are not applied yet', missing };
    } catch (error) {
      return { ready: false, reason: 'the store cannot be read', cause: error };
    }
    return store.health.readiness();
  };

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const answer = await readiness();
    const reason = answer.ready ? null : answer.reason;
    if (reason !== lastReason) {
      if (answer.ready) app.log.info({ was: lastReason }, 'ready again: the store takes writes');
      else app.log.warn({ err: answer.cause, reason }, 'not ready');
      lastReason = reason;
    }
    if (answer.ready) return { status: 'ready' };
    if (answer.missing) return reply.code(503).send({ status: 'migrating', missing: answer.missing });
    return reply.code(503).send({ status: 'store unavailable', reason });
  });
}

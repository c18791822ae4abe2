// Probes for load balancers and orchestrators: /healthz answers while the process runs; /readyz answers
// 200 only while the store is reachable and every migration this build knows has been applied.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Store } from '../db/database.js';
import { migrationNames } from '../db/migrate.js';

export async function healthPlugin(app: FastifyInstance, options: { store: Store }): Promise<void> {
  const expected = migrationNames(options.store);
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(options.store.db);
      const names = new Set(applied.rows.map((row) => row.name));
      const missing = expected.filter((name) => !names.has(name));
      if (missing.length > 0) return reply.code(503).send({ status: 'migrating', missing });
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'store unreachable' });
    }
  });
}

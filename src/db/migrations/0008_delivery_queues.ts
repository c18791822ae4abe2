// Each endpoint gets a queue row: when a worker may next take its attempts (`ready_at`), who holds them
// now (a claim token and its lease), and its circuit breaker (consecutive failures, and when the next
// probe may go). Claims then read the endpoints that are ready, in order, from an index, instead of
// looking at every endpoint's attempts; the cost of a claim follows what is ready, not how many endpoints
// exist or how long their queues are. Healthy and failing endpoints are ready in separate indexes, so
// each lane of the worker finds its own. Attempts lose their own lease: the queue's lease covers them.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function deliveryQueues(dialect: DialectName): Migration {
  const text = textType(dialect);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhook_queues')
        .addColumn('endpoint_id', text, (c) => c.primaryKey().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('ready_at', text)
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('claim_token', text)
        .addColumn('claimed_until', text)
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('probe_at', text)
        .execute();
      await db.schema.createIndex('webhook_queues_healthy').on('webhook_queues').column('ready_at').where(sql.ref('failures'), '=', 0).execute();
      await db.schema.createIndex('webhook_queues_failing').on('webhook_queues').column('ready_at').where(sql.ref('failures'), '>', 0).execute();
      // Every endpoint's queue, ready at its earliest attempt still to be sent (an attempt left `sending`
      // by a process that stopped under the old scheme is sent again: its lease is gone with the column).
      await sql`INSERT INTO webhook_queues (endpoint_id, ready_at, failures)
        SELECT e.id,
          CASE WHEN e.status = 'active' THEN (SELECT min(a.due_at) FROM webhook_attempts a
            WHERE a.endpoint_id = e.id AND a.status IN ('scheduled', 'sending')) END,
          CASE WHEN e.failing_since IS NULL THEN 0 ELSE 1 END
        FROM webhook_endpoints e`.execute(db);
      await db.schema.alterTable('webhook_attempts').dropColumn('claimed_until').execute();
    },
  };
}

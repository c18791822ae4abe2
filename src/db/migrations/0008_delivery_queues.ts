// Each endpoint gets a queue row: when a worker may next take its attempts (`ready_at`), who holds them
// now (a claim token and its lease), and its circuit breaker (consecutive failures, and when the next
// probe may go). Claims then read the endpoints that are ready, in order, from an index, instead of
// looking at every endpoint's attempts; the cost of a claim follows what is ready, not how many endpoints
// exist or how long their queues are. Healthy and failing endpoints are ready in separate indexes, so
// each lane of the worker finds its own.
//
// The queue's lease covers its attempts, so an attempt no longer records that it is being sent (nor by
// whom): it stays `scheduled` until its outcome is written. That is one write per delivery fewer, and the
// attempts' own indexes now hold only the attempts still waiting (partial indexes), so a delivered
// attempt leaves them instead of moving within them.
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

      // Attempts that a stopped process left in flight are sent again (at least once, as before).
      await sql`UPDATE webhook_attempts SET status = 'scheduled' WHERE status = 'sending'`.execute(db);
      await db.schema.alterTable('webhook_attempts').dropColumn('claimed_until').execute();
      await db.schema.alterTable('webhook_attempts').dropColumn('claim_token').execute();
      await db.schema.dropIndex('webhook_attempts_queue').execute();
      await db.schema.dropIndex('webhook_attempts_schedule').execute();
      // An endpoint's waiting attempts in event order (what a claim takes), and by due time (when the
      // endpoint is next ready).
      await db.schema.createIndex('webhook_attempts_waiting').on('webhook_attempts').columns(['endpoint_id', 'seq']).where(sql.ref('status'), '=', 'scheduled').execute();
      await db.schema
        .createIndex('webhook_attempts_waiting_due')
        .on('webhook_attempts')
        .columns(['endpoint_id', 'due_at'])
        .where(sql.ref('status'), '=', 'scheduled')
        .execute();

      await sql`INSERT INTO webhook_queues (endpoint_id, ready_at, failures)
        SELECT e.id,
          CASE WHEN e.status = 'active' THEN (SELECT min(a.due_at) FROM webhook_attempts a
            WHERE a.endpoint_id = e.id AND a.status = 'scheduled') END,
          CASE WHEN e.failing_since IS NULL THEN 0 ELSE 1 END
        FROM webhook_endpoints e`.execute(db);
    },
  };
}

// Each endpoint's attempts as a queue of their own. Claims and the worker's next wake-up look endpoint by
// endpoint (its head in event order, its earliest due time, whether a batch is in flight), so their cost
// follows the number of endpoints, not the number of attempts waiting. The service-wide (status, due_at)
// index they used to rank every due attempt goes, and so does (endpoint_id, status, claimed_until): an
// endpoint has at most one batch of attempts in flight, which the queue index finds as well. Every
// delivery changes its attempt's status twice, so each index on status costs every delivery.
import type { Kysely, Migration } from 'kysely';

export function endpointQueues(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('webhook_attempts_due').execute();
      await db.schema.dropIndex('webhook_attempts_in_flight').execute();
      await db.schema.createIndex('webhook_attempts_queue').on('webhook_attempts').columns(['endpoint_id', 'status', 'seq']).execute();
      await db.schema.createIndex('webhook_attempts_schedule').on('webhook_attempts').columns(['endpoint_id', 'status', 'due_at']).execute();
    },
  };
}

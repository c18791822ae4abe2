// Webhook endpoints, the per-endpoint delivery attempts of each event (the outbox proper), the open
// coalescing windows of guide.updated, and the mail outbox.
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function webhooks(dialect: DialectName): Migration {
  const serial = dialect === 'sqlite' ? 'integer' : 'bigserial';
  const text = textType(dialect);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('home_type', text, (c) => c.notNull())
        .addColumn('home_id', text, (c) => c.notNull())
        .addColumn('url', text, (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('events', text, (c) => c.notNull())
        .addColumn('signing_key', text, (c) => c.notNull())
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('paused_reason', 'text')
        .addColumn('paused_at', 'text')
        .addColumn('failing_since', 'text')
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_home').on('webhook_endpoints').columns(['home_type', 'home_id']).execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('seq', serial, (c) => c.primaryKey())
        .addColumn('id', text, (c) => c.notNull().unique())
        .addColumn('event_id', text, (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('endpoint_id', text, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('attempt_number', 'integer', (c) => c.notNull())
        .addColumn('auto_retry', 'integer', (c) => c.notNull())
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('due_at', text, (c) => c.notNull())
        .addColumn('claimed_until', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('request_headers', 'text')
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('error', 'text')
        .addColumn('next_attempt_at', 'text')
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();
      // The worker claims due attempts in event order; the Deliveries list pages an endpoint's attempts.
      await db.schema.createIndex('webhook_attempts_due').on('webhook_attempts').columns(['status', 'due_at', 'seq']).execute();
      await db.schema.createIndex('webhook_attempts_endpoint').on('webhook_attempts').columns(['endpoint_id', 'created_at', 'id']).execute();
      // A claim skips endpoints that have an attempt in flight.
      await db.schema.createIndex('webhook_attempts_in_flight').on('webhook_attempts').columns(['endpoint_id', 'status', 'claimed_until']).execute();
      await db.schema.createIndex('webhook_attempts_event').on('webhook_attempts').columns(['event_id', 'endpoint_id']).execute();
      await db.schema.createIndex('webhook_attempts_created').on('webhook_attempts').column('created_at').execute();
      await db.schema.createIndex('events_created').on('events').column('created_at').execute();

      await db.schema
        .createTable('guide_update_windows')
        .addColumn('guide_id', text, (c) => c.primaryKey())
        .addColumn('team_id', text, (c) => c.notNull())
        .addColumn('changed', text, (c) => c.notNull())
        .addColumn('opened_at', text, (c) => c.notNull())
        .addColumn('closes_at', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('guide_update_windows_closes').on('guide_update_windows').column('closes_at').execute();

      await db.schema
        .createTable('mail_outbox')
        .addColumn('seq', serial, (c) => c.primaryKey())
        .addColumn('id', text, (c) => c.notNull().unique())
        .addColumn('recipients', text, (c) => c.notNull())
        .addColumn('subject', text, (c) => c.notNull())
        .addColumn('text', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .addColumn('send_error', 'text')
        .addColumn('send_attempts', 'integer', (c) => c.notNull())
        .execute();
    },
  };
}

// An endpoint's health at a glance (decisions §6, console): its last sent attempt, how many of the attempts
// sent in the last 24 hours were delivered and how many failed, hour by hour, how many of the events those
// attempts carried were delivered (the success rate: an event retried three times and then delivered is
// one success, not one in four; both counts from one read of those attempts), its failures since the last
// delivery, and when its next automatic retry is due. One statement per endpoint, over the attempts'
// indexes: the last sent attempt and the failures in a row walk (endpoint_id, created_at) backwards from
// the newest, the next retry is the first entry of the partial index of waiting attempts by due time, and
// the hours read the attempts written since a day before the window began.
import { sql } from 'kysely';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import { requireEndpoint } from './endpoints.js';

const HOUR_MS = 3_600_000;
export const HEALTH_HOURS = 24;
/**
 * Attempts are read for the hours by when they were written, from this long before the window begins:
 * a retry is sent within the schedule's longest delay of being written (12 h by default), a throttled one
 * at most that much later again. A missed attempt redelivered more than this after it was written is not
 * counted in the hours (its outcome still counts as the last attempt and in the failures in a row).
 */
const WRITTEN_BEFORE_MS = 2 * 24 * HOUR_MS;

export interface HealthHour {
  start: string;
  delivered: number;
  failed: number;
}

export interface EndpointHealth {
  endpoint_id: string;
  last_attempt: { status: 'delivered' | 'failed'; sent_at: string } | null;
  since: string;
  delivered: number;
  failed: number;
  events_sent: number;
  events_delivered: number;
  success_rate: number | null;
  consecutive_failures: number;
  next_retry_at: string | null;
  hours: HealthHour[];
}

interface HealthRow {
  last_status: 'delivered' | 'failed' | null;
  last_sent_at: string | null;
  consecutive_failures: number | string | null;
  next_retry_at: string | null;
  events_sent: number | string | null;
  events_delivered: number | string | null;
  hour: string | null;
  status: 'delivered' | 'failed' | null;
  n: number | string | null;
}

/** The window: the current clock hour (UTC) and the 23 before it. */
function windowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (HEALTH_HOURS - 1) * HOUR_MS);
}

export async function endpointHealth(ctx: DomainContext, endpointId: string): Promise<EndpointHealth> {
  await requireEndpoint(ctx.db, endpointId);
  const since = windowStart(ctx.clock.now());
  const sinceText = timestamp(since);
  const writtenFrom = timestamp(new Date(since.getTime() - WRITTEN_BEFORE_MS));
  const id = endpointId;
  // Timestamps are RFC 3339 text in both stores, so the hour is the first 13 characters.
  const { rows } = await sql<HealthRow>`
    SELECT
      last.status AS last_status,
      last.sent_at AS last_sent_at,
      (SELECT count(*) FROM webhook_attempts f WHERE f.endpoint_id = ${id} AND f.status = 'failed'
        AND f.created_at > COALESCE((SELECT d.created_at FROM webhook_attempts d WHERE d.endpoint_id = ${id} AND d.status = 'delivered'
          ORDER BY d.created_at DESC, d.id DESC LIMIT 1), '')) AS consecutive_failures,
      (SELECT min(r.due_at) FROM webhook_attempts r WHERE r.endpoint_id = ${id} AND r.status = 'scheduled'
        AND r.auto_retry = 1 AND r.attempt_number > 1) AS next_retry_at,
      ev.events_sent, ev.events_delivered,
      h.hour, h.status, h.n
    FROM (SELECT 1 AS one) s
    LEFT JOIN (SELECT count(DISTINCT e.event_id) AS events_sent, count(DISTINCT CASE WHEN e.status = 'delivered' THEN e.event_id END) AS events_delivered
      FROM webhook_attempts e WHERE e.endpoint_id = ${id} AND e.created_at >= ${writtenFrom} AND e.sent_at >= ${sinceText}
        AND e.status IN ('delivered', 'failed')) ev ON 1 = 1
    LEFT JOIN (SELECT l.status, l.sent_at FROM webhook_attempts l WHERE l.endpoint_id = ${id} AND l.status IN ('delivered', 'failed')
      ORDER BY l.created_at DESC, l.id DESC LIMIT 1) last ON 1 = 1
    LEFT JOIN (
      SELECT substr(a.sent_at, 1, 13) AS hour, a.status, count(*) AS n FROM webhook_attempts a
      WHERE a.endpoint_id = ${id} AND a.created_at >= ${writtenFrom} AND a.sent_at >= ${sinceText} AND a.status IN ('delivered', 'failed')
      GROUP BY substr(a.sent_at, 1, 13), a.status
    ) h ON 1 = 1`.execute(ctx.db);
  const first = rows[0]!;
  const hours: HealthHour[] = Array.from({ length: HEALTH_HOURS }, (_, i) => ({ start: timestamp(new Date(since.getTime() + i * HOUR_MS)), delivered: 0, failed: 0 }));
  const byHour = new Map(hours.map((hour) => [hour.start.slice(0, 13), hour]));
  for (const row of rows) {
    const hour = row.hour === null ? undefined : byHour.get(row.hour);
    if (hour && row.status) hour[row.status] += Number(row.n);
  }
  const delivered = hours.reduce((sum, hour) => sum + hour.delivered, 0);
  const failed = hours.reduce((sum, hour) => sum + hour.failed, 0);
  const eventsSent = Number(first.events_sent ?? 0);
  const eventsDelivered = Number(first.events_delivered ?? 0);
  return {
    endpoint_id: endpointId,
    last_attempt: first.last_status && first.last_sent_at ? { status: first.last_status, sent_at: first.last_sent_at } : null,
    since: sinceText,
    delivered,
    failed,
    events_sent: eventsSent,
    events_delivered: eventsDelivered,
    success_rate: eventsSent === 0 ? null : eventsDelivered / eventsSent,
    consecutive_failures: Number(first.consecutive_failures ?? 0),
    next_retry_at: first.next_retry_at,
    hours,
  };
}

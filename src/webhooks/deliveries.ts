// The Deliveries list of an endpoint (decisions §6): every attempt, newest first, with its request,
// answer, error, duration and when the next attempt is due, and whether its event is a test; and sending
// any attempt again as a new one. An attempt is shown as `sending` while it is due and a worker holds its
// endpoint's queue. The `failed` filter shows each event's final outcome (shared decisions §11): a failed
// attempt whose event a later attempt delivered is not listed.
import { recordAudit } from '../domain/audit.js';
import { homeOf } from '../domain/homes.js';
import type { AttemptStatus } from '../db/schema.js';
import { timestamp } from '../domain/clock.js';
import { type DomainContext, type Executor, transact } from '../domain/context.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { afterPosition, type KeysetPosition, pageOf, rowsToRead } from '../domain/keyset-cursor.js';
import { madeAfter, scheduleAttempts } from '../domain/delivery-attempts.js';
import { testEventFlag } from '../domain/events.js';
import { requireEndpoint } from './endpoints.js';

export type ShownStatus = AttemptStatus | 'sending';

export interface AttemptView {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt_number: number;
  status: ShownStatus;
  request_headers: Record<string, string> | null;
  request_body: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  created_at: string;
  sent_at: string | null;
  due_at: string;
  next_attempt_at: string | null;
  /** Its event is a test: a ping, or a test event of another type. */
  test: boolean;
}

const ATTEMPT_COLUMNS = [
  'a.id',
  'a.endpoint_id',
  'a.event_id',
  'e.type as event_type',
  'a.attempt_number',
  'a.status',
  'a.request_headers',
  'e.payload as request_body',
  'a.response_status',
  'a.response_body',
  'a.error',
  'a.duration_ms',
  'a.created_at',
  'a.sent_at',
  'a.due_at',
  'a.next_attempt_at',
] as const;

type AttemptRow = Omit<AttemptView, 'request_headers' | 'status' | 'test'> & { request_headers: string | null; status: AttemptStatus; test: number };

/** Attempts with what the list shows of their events. */
function attemptRows(db: Executor) {
  return db.selectFrom('webhook_attempts as a').innerJoin('events as e', 'e.id', 'a.event_id').select(ATTEMPT_COLUMNS).select(testEventFlag('e').as('test'));
}

/** Whether a worker holds the endpoint's queue now, sending its due attempts. */
async function isHeld(db: Executor, endpointId: string, now: string): Promise<boolean> {
  const queue = await db.selectFrom('webhook_queues').select('claimed_until').where('endpoint_id', '=', endpointId).executeTakeFirst();
  return queue?.claimed_until != null && queue.claimed_until >= now;
}

function view(row: AttemptRow, held: boolean, now: string): AttemptView {
  const sending = held && row.status === 'scheduled' && row.due_at <= now;
  return {
    ...row,
    status: sending ? 'sending' : row.status,
    request_headers: row.request_headers === null ? null : (JSON.parse(row.request_headers) as Record<string, string>),
    test: Number(row.test) === 1,
  };
}

const WHOLE_ID_LENGTH = 36;

export interface AttemptPageQuery {
  endpointId: string;
  status: ShownStatus | undefined;
  /** Only attempts of events of this type. */
  eventType?: string | undefined;
  /**
   * Only attempts of this event: a whole id, or the start of one (lower-case hex and hyphens only, as the
   * route checks), the short id a list shows. A start is looked for among the endpoint's attempts only.
   */
  eventId?: string | undefined;
  /** Only attempts written at or after this time (RFC 3339, UTC, as stored). */
  since?: string | undefined;
  /** Only attempts written before this time. */
  until?: string | undefined;
  limit: number;
  after: KeysetPosition | null;
}

export async function attemptPage(ctx: DomainContext, query: AttemptPageQuery): Promise<{ items: AttemptView[]; next: KeysetPosition | null }> {
  await requireEndpoint(ctx.db, query.endpointId);
  const now = timestamp(ctx.clock.now());
  const held = await isHeld(ctx.db, query.endpointId, now);
  let select = attemptRows(ctx.db).where('a.endpoint_id', '=', query.endpointId);
  if (query.status === 'sending') {
    if (!held) return { items: [], next: null };
    select = select.where('a.status', '=', 'scheduled').where('a.due_at', '<=', now);
  } else if (query.status === 'scheduled' && held) {
    select = select.where('a.status', '=', 'scheduled').where('a.due_at', '>', now);
  } else if (query.status === 'failed') {
    // Failures that are still the event's outcome: none that a later attempt of the event delivered.
    select = select.where('a.status', '=', 'failed').where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_attempts as d').select('d.seq').where('d.status', '=', 'delivered').where(madeAfter('d', 'a')))),
    );
  } else if (query.status) {
    select = select.where('a.status', '=', query.status);
  }
  if (query.eventType) select = select.where('e.type', '=', query.eventType);
  if (query.eventId?.length === WHOLE_ID_LENGTH) select = select.where('a.event_id', '=', query.eventId);
  else if (query.eventId) select = select.where('a.event_id', 'like', `${query.eventId}%`);
  if (query.since) select = select.where('a.created_at', '>=', query.since);
  if (query.until) select = select.where('a.created_at', '<', query.until);
  if (query.after) select = select.where(afterPosition('a', query.after));
  const page = pageOf(await select.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(rowsToRead(query.limit)).execute(), query.limit);
  return { items: page.rows.map((row) => view(row, held, now)), next: page.next };
}

export async function requireAttempt(ctx: DomainContext, id: string): Promise<AttemptView> {
  const row = await attemptRows(ctx.db).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError('Delivery');
  const now = timestamp(ctx.clock.now());
  return view(row, await isHeld(ctx.db, row.endpoint_id, now), now);
}

/** Sends an attempt's event to its endpoint again, as a new attempt with a new delivery id. */
export async function resendAttempt(ctx: DomainContext, id: string): Promise<AttemptView> {
  const resentId = await transact(ctx, async (trx) => {
    const attempt = await trx.selectFrom('webhook_attempts').select(['event_id', 'endpoint_id']).where('id', '=', id).executeTakeFirst();
    if (!attempt) throw new NotFoundError('Delivery');
    const endpoint = await requireEndpoint(trx, attempt.endpoint_id);
    if (endpoint.status === 'paused') throw new ConflictError('The endpoint is paused; resume it to send deliveries again');
    const latest = await trx
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.max('attempt_number').as('n'))
      .where('event_id', '=', attempt.event_id)
      .where('endpoint_id', '=', attempt.endpoint_id)
      .executeTakeFirstOrThrow();
    const now = ctx.clock.now();
    const [scheduled] = await scheduleAttempts(trx, [
      { eventId: attempt.event_id, endpointId: attempt.endpoint_id, attemptNumber: Number(latest.n ?? 0) + 1, autoRetry: false, status: 'scheduled', dueAt: now, now },
    ]);
    await recordAudit(ctx, trx, { action: 'delivery.resent', target: { type: 'delivery', id }, home: homeOf(endpoint) });
    return scheduled!;
  });
  return requireAttempt(ctx, resentId);
}

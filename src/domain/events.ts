// The one place where the management writes record the events they cause (spec §6, decisions §6). An
// event and its first delivery attempt to every endpoint that picked it are written in the transaction
// of the change that caused it, so they commit or roll back with it; the worker sends from there.
import { type RawBuilder, sql } from 'kysely';
import { timestamp } from './clock.js';
import { type Executor, markOutboxChanged } from './context.js';
import { newId } from './ids.js';
import { scheduleLast } from './delivery-attempts.js';

export const EVENT_TYPES = [
  'guide.created',
  'guide.updated',
  'guide.ready',
  'guide.failed',
  'guide.deleted',
  'member.joined',
  'member.left',
  'member.role_changed',
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The events an endpoint can pick; `ping` goes to every endpoint without being picked. */
export const SUBSCRIBABLE_EVENTS = EVENT_TYPES.filter((type): type is Exclude<EventType, 'ping'> => type !== 'ping');
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

/** When each event is emitted (spec §6.3–6.6), in one line: for the reference and the console's endpoint form. */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'guide.created': 'A guide is created in the team, or moved into it from another team; drafts count.',
  'guide.updated': 'A guide changes, draft or not; `changed` lists the columns that changed.',
  'guide.ready': 'Processing of a recording or import finished and the guide has its steps.',
  'guide.failed': 'Processing failed; the guide remains.',
  'guide.deleted': 'A guide is deleted or moved out of the team.',
  'member.joined': 'Someone joins the team.',
  'member.left': 'Someone leaves the team.',
  'member.role_changed': "A member's role on the team changes.",
  ping: 'An admin asked for a ping, or the endpoint was just registered.',
};

export interface EventInput {
  type: EventType;
  teamId: string;
  organizationId: string | null;
  data: Record<string, unknown>;
  /** When the event is emitted: its created_at. */
  at: Date;
  /** A ping goes to this endpoint only; other events to every endpoint of the team or organization. */
  endpointId?: string;
  /** A test sent to one endpoint (with `endpointId`): never in the events feed. */
  test?: boolean;
}

/**
 * Whether the event row under `alias` is a test (shared decisions §11), as 1 or 0: a ping, or a test
 * event of another type (its `test` column). Pings are told by their type, which every ping ever written
 * has; their deliveries carry `X-Service-Test: true` and the Deliveries list marks their attempts.
 */
export function testEventFlag(alias: string): RawBuilder<number> {
  return sql<number>`CASE WHEN ${sql.ref(`${alias}.test`)} = 1 OR ${sql.ref(`${alias}.type`)} = 'ping' THEN 1 ELSE 0 END`;
}

export interface RecordedEvent {
  id: string;
  type: EventType;
  created_at: string;
  team_id: string;
  organization_id: string | null;
  data: Record<string, unknown>;
}

export async function recordEvent(trx: Executor, input: EventInput): Promise<RecordedEvent> {
  const envelope: RecordedEvent = {
    id: newId(),
    created_at: timestamp(input.at),
    team_id: input.teamId,
    organization_id: input.organizationId,
    type: input.type,
    data: input.data,
  };
  await trx
    .insertInto('events')
    .values({
      id: envelope.id,
      type: envelope.type,
      team_id: envelope.team_id,
      organization_id: envelope.organization_id,
      payload: JSON.stringify(envelope),
      created_at: envelope.created_at,
      test: input.test ? 1 : 0,
    })
    .execute();
  // Its commit notifies, even when no endpoint receives it: requests waiting on the events feed listen too.
  markOutboxChanged(trx);

  let endpoints = trx.selectFrom('webhook_endpoints').select(['id', 'status', 'events']);
  endpoints = input.endpointId
    ? endpoints.where('id', '=', input.endpointId)
    : endpoints.where((eb) =>
        eb.or([
          eb.and([eb('home_type', '=', 'team'), eb('home_id', '=', input.teamId)]),
          ...(input.organizationId ? [eb.and([eb('home_type', '=', 'organization'), eb('home_id', '=', input.organizationId)])] : []),
        ]),
      );
  const now = input.at;
  const receiving = (await endpoints.orderBy('created_at').execute()).filter(
    (endpoint) => input.endpointId !== undefined || endpoint.events.split(' ').includes(input.type),
  );
  await scheduleLast(
    trx,
    receiving.map((endpoint) => ({
      eventId: envelope.id,
      endpointId: endpoint.id,
      attemptNumber: 1,
      autoRetry: true,
      status: endpoint.status === 'paused' ? 'missed' : 'scheduled',
      dueAt: now,
      now,
    })),
  );
  return envelope;
}

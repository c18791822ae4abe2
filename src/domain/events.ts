// The one place where the management writes record the events they cause (spec §6, decisions §6). An
// event is written in the transaction of the change that caused it, so it commits or rolls back with it;
// delivery reads it from there.
import type { Executor } from './context.js';
import { timestamp } from './clock.js';
import { newId } from './ids.js';

export type EventType =
  | 'guide.created'
  | 'guide.updated'
  | 'guide.ready'
  | 'guide.failed'
  | 'guide.deleted'
  | 'member.joined'
  | 'member.left'
  | 'member.role_changed'
  | 'ping';

export const EVENT_TYPES: readonly EventType[] = [
  'guide.created',
  'guide.updated',
  'guide.ready',
  'guide.failed',
  'guide.deleted',
  'member.joined',
  'member.left',
  'member.role_changed',
  'ping',
];

export interface EventInput {
  type: EventType;
  teamId: string;
  organizationId: string | null;
  data: Record<string, unknown>;
  at: Date;
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
    })
    .execute();
  return envelope;
}

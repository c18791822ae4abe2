// What a test event of each type carries (the console's "Send test event", issue 35): `data` of the type's
// shape (spec §6.3–6.5), built from a sample that says it is a test, for the team the endpoint's events
// come from. The ids are new: no such guide or person exists, so a receiver that looks one up finds nothing.
import type { SubscribableEvent } from '../domain/events.js';
import { guideSummaryData } from '../domain/guides/guide-events.js';
import { memberData } from '../domain/members.js';
import { newId } from '../domain/ids.js';
import { timestamp } from '../domain/clock.js';

const TEST_NOTE = 'A test event sent from the console; no such guide exists.';

export function testEventData(type: SubscribableEvent, teamId: string, appUrl: string, now: Date): Record<string, unknown> {
  const id = newId();
  if (type === 'guide.deleted') return { guide: { id, team_id: teamId } };
  if (type === 'member.joined' || type === 'member.left' || type === 'member.role_changed') {
    return memberData({ id, email: 'test-event@example.com', name: 'Test event: a sample member', role: 'EDITOR' }, teamId);
  }
  const sample = {
    id,
    title: 'Test event: a sample guide',
    description: TEST_NOTE,
    permalink: null,
    updated_at: timestamp(now),
    team_id: teamId,
    folder_id: null,
    language: 'en',
    publish_status: 'DRAFT',
    is_public: 0,
  } as const;
  return guideSummaryData(sample, appUrl, type === 'guide.updated' ? ['title'] : []);
}

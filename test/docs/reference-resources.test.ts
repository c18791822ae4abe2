// The Resources of /docs (issue 43, item 4): each named schema of the v1 document with a table of its
// fields. The Event envelope, a union of one shape per event type, lists its fields once: `type` with every
// type of the feed, `data` with a link to the payload schema of each type; each payload lists its fields,
// nested ones by their path (`guide.id`), as the specification's tables do.
import { beforeAll, describe, expect, it } from 'vitest';
import { FEED_EVENT_TYPES } from '../../src/domain/event-feed.js';
import { useTestService } from '../support/service.js';

const t = useTestService();
let page: string;
beforeAll(async () => {
  page = (await t.service.app.inject({ url: '/docs' })).body;
});

/** The rows of the fields table of the resource `name`: field, type and notes, as HTML. */
function rowsOf(name: string): Map<string, { type: string; notes: string }> {
  const start = page.indexOf(`<section id="schema-${name}">`);
  expect(start, name).toBeGreaterThan(0);
  const section = page.slice(start, page.indexOf('</section>', start));
  const rows = [...section.matchAll(/<tr><td><code>([^<]+)<\/code><\/td><td>([\s\S]*?)<\/td><td>([\s\S]*?)<\/td><\/tr>/g)];
  return new Map(rows.map(([, field, type, notes]) => [field!, { type: type!, notes: notes! }]));
}

describe('the resources of /docs', () => {
  it("Event lists the envelope's fields, every type of the feed, and links each type's payload", () => {
    const rows = rowsOf('Event');
    expect([...rows.keys()]).toEqual(['id', 'created_at', 'team_id', 'organization_id', 'type', 'data']);
    for (const type of FEED_EVENT_TYPES) expect(rows.get('type')!.type).toContain(type);
    const data = rows.get('data')!;
    for (const payload of ['GuideEventData', 'GuideDeletedData', 'MemberEventData']) expect(data.type).toContain(`<a href="#schema-${payload}">${payload}</a>`);
    expect(data.notes).toContain('<code>guide.deleted</code>: <a href="#schema-GuideDeletedData">');
    expect(rows.get('organization_id')!.type).toContain('null');
  });

  it('each payload lists its fields, nested ones by their path, with the enums they take', () => {
    expect([...rowsOf('GuideEventData').keys()]).toEqual([
      'guide',
      'guide.id',
      'guide.title',
      'guide.description',
      'guide.permalink',
      'guide.updated_at',
      'guide.team_id',
      'guide.folder_id',
      'guide.language',
      'guide.url',
      'placement',
      'placement.team_guides',
      'placement.public_link',
      'changed',
    ]);
    expect([...rowsOf('GuideDeletedData').keys()]).toEqual(['guide', 'guide.id', 'guide.team_id']);
    const member = rowsOf('MemberEventData');
    expect([...member.keys()]).toEqual(['member', 'member.user_id', 'member.email', 'member.name', 'member.role', 'member.team_id']);
    expect(member.get('member.role')!.type).toBe('<a href="#schema-TeamRole">TeamRole</a>');
    expect([...rowsOf('PingData').keys()]).toEqual(['message']);
  });

  it('an enum of its own (TeamRole) shows its values', () => {
    const start = page.indexOf('<section id="schema-TeamRole">');
    expect(page.slice(start, page.indexOf('</section>', start))).toContain('EDITOR, VIEWER, ADMIN');
  });
});

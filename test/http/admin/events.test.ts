// The event outbox behind the management API's writes (decisions §6, §7; spec §6). The events table has no
// HTTP read yet, so these tests read it, read-only, straight from the store. Coalescing of guide.updated is
// not built yet and is not tested here.
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createGuide,
  createKey,
  PUBLIC_URL,
  startTestService,
  useTestService,
} from '../../support/service.js';
import { guideSummary } from '../../support/webhooks.js';
import {
  createUser,
  eventsSince,
  expectConflict,
  expectInvalid,
  expectNotFound,
  LOWER_UUID,
  outboxMark,
  readEvents,
  RFC3339_MS,
  UNKNOWN_ID,
} from './helpers.js';

// Coalescing of guide.updated is tested on its own; here every edit is its own event.
const t = useTestService({ WEBHOOK_COALESCE_MS: '0' });

const ENVELOPE_KEYS = ['created_at', 'data', 'id', 'organization_id', 'team_id', 'type'];
const SUMMARY_KEYS = ['description', 'folder_id', 'id', 'language', 'permalink', 'team_id', 'title', 'updated_at', 'url'];
const MEMBER_KEYS = ['email', 'name', 'role', 'team_id', 'user_id'];
// A folder is its team's once a guide names it: each test gets one of its own.
let FOLDER = randomUUID();
beforeEach(() => {
  FOLDER = randomUUID();
});

const newTeam = (fields: Record<string, unknown> = {}) => t.admin('POST', '/teams', { name: `Team ${Math.random()}`, ...fields });

async function teamInOrganization() {
  const organization = await t.admin('POST', '/organizations', { name: `Org ${Math.random()}`, plan: 'growth' });
  const team = await t.admin('POST', '/teams', { name: 'In org', organization_id: organization.id });
  return { organization, team };
}

/** Runs a write and answers the events it recorded. */
async function recorded<T>(write: () => Promise<T>): Promise<{ result: T; events: Awaited<ReturnType<typeof eventsSince>> }> {
  const mark = await outboxMark(t);
  const result = await write();
  return { result, events: await eventsSince(t, mark) };
}

function expectEnvelope(event: any, type: string, teamId: string, organizationId: string | null) {
  expect(Object.keys(event).sort()).toEqual(ENVELOPE_KEYS);
  expect(event.type).toBe(type);
  expect(event.id).toMatch(LOWER_UUID);
  expect(event.created_at).toMatch(RFC3339_MS);
  expect(event.team_id).toBe(teamId);
  expect(event.organization_id).toBe(organizationId);
}

/** `data` of guide.created/updated/ready/failed (spec §6.3) for the guide as the admin API answers it. */
function expectGuideData(data: any, guide: any, changed: string[], appUrl = PUBLIC_URL) {
  expect(Object.keys(data).sort()).toEqual(['changed', 'guide', 'placement']);
  expect(Object.keys(data.guide).sort()).toEqual(SUMMARY_KEYS);
  expect(data.guide).toEqual(guideSummary(guide, appUrl));
  expect(data.placement).toEqual({ team_guides: guide.publish_status === 'PUBLISHED', public_link: guide.is_public });
  expect(data.changed).toEqual(changed);
}

describe('the outbox record', () => {
  it('each row carries the id, type, team, organization and time of its envelope', async () => {
    const { team } = await teamInOrganization();
    await createGuide(t, team.id);
    const user = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    const events = await readEvents(t);
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (const { row, envelope } of events) {
      expect(row).toEqual({
        id: envelope.id,
        type: envelope.type,
        team_id: envelope.team_id,
        organization_id: envelope.organization_id,
        created_at: envelope.created_at,
      });
    }
  });

  it('every event has its own id', async () => {
    const team = await newTeam();
    for (let i = 0; i < 5; i++) await createGuide(t, team.id);
    const ids = (await readEvents(t)).map((event) => event.envelope.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('writes that no event stands for record none: organizations, teams, users, admins, keys', async () => {
    const { events } = await recorded(async () => {
      const organization = await t.admin('POST', '/organizations', { name: 'Quiet' });
      await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'enterprise', api_enabled: false });
      const team = await t.admin('POST', '/teams', { name: 'Quiet' });
      await t.admin('PATCH', `/teams/${team.id}`, { organization_id: organization.id, name: 'Still quiet' });
      await t.admin('PATCH', `/teams/${team.id}`, { organization_id: null });
      const user = await createUser(t);
      await t.admin('PUT', `/organizations/${organization.id}/admins/${user.id}`);
      // An organization keeps its last admin: a second one comes first.
      await t.admin('PUT', `/organizations/${organization.id}/admins/${(await createUser(t)).id}`);
      await t.admin('DELETE', `/organizations/${organization.id}/admins/${user.id}`);
      const key = await createKey(t, { type: 'team', id: team.id });
      await t.admin('DELETE', `/api-keys/${key.id}`);
    });
    expect(events).toEqual([]);
  });

  it('a refused write records no event', async () => {
    const team = await newTeam();
    const holder = await createGuide(t, team.id);
    const guide = await createGuide(t, team.id, { processing: true });
    const user = await createUser(t);
    const { events } = await recorded(async () => {
      expectInvalid(await t.adminRaw('POST', '/guides', { team_id: team.id, language: 'english' }), 'language');
      expectNotFound(await t.adminRaw('POST', '/guides', { team_id: UNKNOWN_ID }));
      expectConflict(await t.adminRaw('POST', '/guides', { team_id: team.id, permalink: holder.permalink }));
      expectConflict(await t.adminRaw('PATCH', `/guides/${guide.id}`, { title: 'New', permalink: holder.permalink }));
      expectConflict(await t.adminRaw('POST', `/guides/${guide.id}/processing`, { outcome: 'finished' }));
      expectConflict(await t.adminRaw('POST', `/guides/${holder.id}/processing`, { outcome: 'failed' }));
      expectNotFound(await t.adminRaw('POST', `/guides/${holder.id}/move`, { team_id: UNKNOWN_ID }));
      expectNotFound(await t.adminRaw('DELETE', `/guides/${UNKNOWN_ID}`));
      expectInvalid(await t.adminRaw('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'OWNER' }), 'role');
      expectNotFound(await t.adminRaw('PUT', `/teams/${team.id}/members/${UNKNOWN_ID}`, { role: 'EDITOR' }));
      expectNotFound(await t.adminRaw('DELETE', `/teams/${team.id}/members/${user.id}`));
    });
    expect(events).toEqual([]);
  });
});

describe('guide.created (spec §6.3)', () => {
  it('creating a guide records guide.created with exactly the envelope and data of spec §6.2–6.3', async () => {
    const team = await newTeam();
    const { result: guide, events } = await recorded(() =>
      createGuide(t, team.id, { title: 'Hello', description: 'World', language: 'pt-BR', folder_id: FOLDER, tags: ['x'] }),
    );
    expect(events).toHaveLength(1);
    const [event] = events;
    expectEnvelope(event, 'guide.created', team.id, null);
    expectGuideData(event!.data, guide, []);
    expect(event!.data.guide.url).toBe(`http://api.test/guides/${guide.id}`);
    expect(event!.data.placement).toEqual({ team_guides: false, public_link: false });
    expect(event!.created_at).toBe(guide.created_at);
  });

  it("an event of a team in an organization carries the organization's id", async () => {
    const { organization, team } = await teamInOrganization();
    const { events } = await recorded(() => createGuide(t, team.id));
    expectEnvelope(events[0], 'guide.created', team.id, organization.id);
  });

  it('a draft has placement.team_guides false; a PUBLISHED guide true; public_link follows is_public', async () => {
    const team = await newTeam();
    const cases = [
      [{ publish_status: 'DRAFT', is_public: false }, { team_guides: false, public_link: false }],
      [{ publish_status: 'PUBLISHED', is_public: false }, { team_guides: true, public_link: false }],
      [{ publish_status: 'DRAFT', is_public: true }, { team_guides: false, public_link: true }],
      [{ publish_status: 'PUBLISHED', is_public: true }, { team_guides: true, public_link: true }],
    ] as const;
    for (const [fields, placement] of cases) {
      const { result: guide, events } = await recorded(() => createGuide(t, team.id, fields));
      expect(events[0]!.data.placement).toEqual(placement);
      expectGuideData(events[0]!.data, guide, []);
    }
  });

  it('never carries the body: no steps, no markdown in the event', async () => {
    const team = await newTeam();
    const { events } = await recorded(() => createGuide(t, team.id, { steps: [{ text: 'Secret step text' }] }));
    expect(JSON.stringify(events)).not.toContain('Secret step text');
  });

  it('guide.url is APP_URL/guides/{id} when APP_URL is set (decisions §1)', async () => {
    const other = await startTestService({ APP_URL: 'https://app.example.com' });
    try {
      const team = await other.admin('POST', '/teams', { name: 'App' });
      const guide = await other.admin('POST', '/guides', { team_id: team.id, title: 'Linked' });
      const rows = await other.service.ctx.db.selectFrom('events').selectAll().orderBy('seq').execute();
      const envelope = JSON.parse(rows[rows.length - 1]!.payload);
      expect(envelope.data.guide.url).toBe(`https://app.example.com/guides/${guide.id}`);
    } finally {
      await other.close();
    }
  });

  it('the event time is the service clock at the write', async () => {
    const team = await newTeam();
    t.clock.advance(3 * 3_600_000);
    const expected = t.clock.now().getTime();
    const { result: guide, events } = await recorded(() => createGuide(t, team.id));
    expect(Math.abs(Date.parse(events[0]!.created_at) - expected)).toBeLessThan(60_000);
    expect(events[0]!.created_at).toBe(guide.created_at);
  });
});

describe('guide.updated (spec §6.3, decisions §6)', () => {
  const LISTED: [string, (guide: any) => Record<string, unknown>][] = [
    ['title', () => ({ title: 'Changed title' })],
    ['description', () => ({ description: 'Changed description' })],
    ['body', () => ({ steps: [{ text: 'A new step' }] })],
    ['permalink', () => ({ permalink: `changed-${Date.now()}-${Math.floor(Math.random() * 1e6)}` })],
    ['language', () => ({ language: 'fr' })],
    ['folder_id', () => ({ folder_id: FOLDER })],
    ['publish_status', () => ({ publish_status: 'PUBLISHED' })],
    ['team_role', () => ({ team_role: 'VIEWER' })],
    ['is_public', () => ({ is_public: true })],
  ];

  for (const [column, edit] of LISTED) {
    it(`a change of ${column} records one guide.updated with changed ["${column}"]`, async () => {
      const team = await newTeam();
      const guide = await createGuide(t, team.id, { title: 'Original', steps: [{ text: 'Old step' }] });
      const { result: updated, events } = await recorded(() => t.admin('PATCH', `/guides/${guide.id}`, edit(guide)));
      expect(events).toHaveLength(1);
      expectEnvelope(events[0], 'guide.updated', team.id, null);
      expectGuideData(events[0]!.data, updated, [column]);
    });
  }

  it('changed lists the changed columns in the order of spec §6.3, whatever the order of the request', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { title: 'Original', steps: [{ text: 'Old' }] });
    const { result: updated, events } = await recorded(() =>
      t.admin('PATCH', `/guides/${guide.id}`, {
        is_public: true,
        team_role: 'ADMIN',
        publish_status: 'PUBLISHED',
        folder_id: FOLDER,
        language: 'de',
        permalink: `ordered-${Date.now()}`,
        steps: [{ text: 'New' }],
        description: 'Now described',
        title: 'Renamed',
      }),
    );
    expect(events).toHaveLength(1);
    expectGuideData(events[0]!.data, updated, [
      'title',
      'description',
      'body',
      'permalink',
      'language',
      'folder_id',
      'publish_status',
      'team_role',
      'is_public',
    ]);
  });

  it('changed holds only the listed columns that changed, not the others written with them', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { title: 'Same', description: 'Old' });
    const { events } = await recorded(() =>
      t.admin('PATCH', `/guides/${guide.id}`, { title: 'Same', description: 'New', icon_url: 'https://example.com/i.png', tags: ['t'] }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data.changed).toEqual(['description']);
  });

  it('no event when only columns outside the list change: icon_url, tags, thumbnail_url, app_version, owner_id, text_direction', async () => {
    const team = await newTeam();
    const owner = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    const guide = await createGuide(t, team.id);
    const { events } = await recorded(async () => {
      await t.admin('PATCH', `/guides/${guide.id}`, { icon_url: 'https://example.com/icon.png' });
      await t.admin('PATCH', `/guides/${guide.id}`, { tags: ['new', 'tags'] });
      await t.admin('PATCH', `/guides/${guide.id}`, { tags: null });
      await t.admin('PATCH', `/guides/${guide.id}`, { thumbnail_url: 'https://example.com/thumb.png' });
      await t.admin('PATCH', `/guides/${guide.id}`, { app_version: '2.0' });
      await t.admin('PATCH', `/guides/${guide.id}`, { owner_id: owner.id });
      await t.admin('PATCH', `/guides/${guide.id}`, { text_direction: 'rtl' });
      await t.admin('PATCH', `/guides/${guide.id}`, { icon_url: null, tags: ['both'] });
    });
    expect(events).toEqual([]);
  });

  it('no event when a value is written again unchanged', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, {
      title: 'Same',
      description: 'Same',
      steps: [{ text: 'Same step', image_url: 'https://example.com/1.png' }],
      language: 'de',
      folder_id: FOLDER,
      publish_status: 'PUBLISHED',
      team_role: 'EDITOR',
      is_public: true,
    });
    const { events } = await recorded(async () => {
      await t.admin('PATCH', `/guides/${guide.id}`, {
        title: 'Same',
        description: 'Same',
        steps: [{ text: 'Same step', image_url: 'https://example.com/1.png' }],
        permalink: guide.permalink,
        language: 'de',
        folder_id: FOLDER,
        publish_status: 'PUBLISHED',
        team_role: 'EDITOR',
        is_public: true,
      });
      await t.admin('PATCH', `/guides/${guide.id}`, {});
    });
    expect(events).toEqual([]);
  });

  it('a change to null and back is a change each time', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { title: 'Has title', folder_id: FOLDER });
    const { events } = await recorded(async () => {
      await t.admin('PATCH', `/guides/${guide.id}`, { title: null });
      await t.admin('PATCH', `/guides/${guide.id}`, { folder_id: null });
      await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Has title' });
    });
    expect(events.map((event) => event.data.changed)).toEqual([['title'], ['folder_id'], ['title']]);
  });

  it('placement.team_guides is true iff publish_status is PUBLISHED; public_link follows is_public', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id);
    const steps: [Record<string, unknown>, { team_guides: boolean; public_link: boolean }][] = [
      [{ publish_status: 'PUBLISHED' }, { team_guides: true, public_link: false }],
      [{ is_public: true }, { team_guides: true, public_link: true }],
      [{ publish_status: 'DRAFT' }, { team_guides: false, public_link: true }],
      [{ is_public: false }, { team_guides: false, public_link: false }],
    ];
    for (const [edit, placement] of steps) {
      const { result: updated, events } = await recorded(() => t.admin('PATCH', `/guides/${guide.id}`, edit));
      expect(events).toHaveLength(1);
      expect(events[0]!.data.placement).toEqual(placement);
      expectGuideData(events[0]!.data, updated, Object.keys(edit));
    }
  });

  it('the summary is the guide after the change, with its new updated_at', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { title: 'Before' });
    t.clock.advance(10_000);
    const { result: updated, events } = await recorded(() => t.admin('PATCH', `/guides/${guide.id}`, { title: 'After' }));
    expect(events[0]!.data.guide.title).toBe('After');
    expect(events[0]!.data.guide.updated_at).toBe(updated.updated_at);
    expect(events[0]!.data.guide.updated_at).not.toBe(guide.updated_at);
  });

  it("a team's events carry the organization it is in when the event happens (decisions §6)", async () => {
    const { organization } = await teamInOrganization();
    const team = await newTeam();
    const guide = await createGuide(t, team.id);
    const before = await recorded(() => t.admin('PATCH', `/guides/${guide.id}`, { title: 'Alone' }));
    expect(before.events[0]!.organization_id).toBeNull();
    await t.admin('PATCH', `/teams/${team.id}`, { organization_id: organization.id });
    const during = await recorded(() => t.admin('PATCH', `/guides/${guide.id}`, { title: 'Joined' }));
    expect(during.events[0]!.organization_id).toBe(organization.id);
    await t.admin('PATCH', `/teams/${team.id}`, { organization_id: null });
    const after = await recorded(() => t.admin('PATCH', `/guides/${guide.id}`, { title: 'Left' }));
    expect(after.events[0]!.organization_id).toBeNull();
  });
});

describe('guide.ready and guide.failed (spec §3.2, §6.3)', () => {
  it('finishing processing records guide.ready with the summary and changed []', async () => {
    const { organization, team } = await teamInOrganization();
    const guide = await createGuide(t, team.id, { processing: true, steps: [{ text: 'One' }] });
    const { result: settled, events } = await recorded(() => t.admin('POST', `/guides/${guide.id}/processing`, { outcome: 'finished' }));
    expect(events).toHaveLength(1);
    expectEnvelope(events[0], 'guide.ready', team.id, organization.id);
    expectGuideData(events[0]!.data, settled, []);
  });

  it('failed processing records guide.failed with the summary and changed []; the error is not in the event', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { processing: true });
    const { result: settled, events } = await recorded(() =>
      t.admin('POST', `/guides/${guide.id}/processing`, { outcome: 'failed', error: 'Codec not supported' }),
    );
    expect(events).toHaveLength(1);
    expectEnvelope(events[0], 'guide.failed', team.id, null);
    expectGuideData(events[0]!.data, settled, []);
  });
});

describe('moving and deleting (spec §6.4, decisions §6)', () => {
  it('moving a guide emits guide.deleted for the old team, then guide.created for the new one (decisions §6)', async () => {
    const from = await teamInOrganization();
    const to = await teamInOrganization();
    const guide = await createGuide(t, from.team.id, { title: 'Travels', folder_id: FOLDER, publish_status: 'PUBLISHED' });
    const { result: moved, events } = await recorded(() => t.admin('POST', `/guides/${guide.id}/move`, { team_id: to.team.id }));
    expect(events.map((event) => event.type)).toEqual(['guide.deleted', 'guide.created']);
    const [deleted, created] = events;

    expectEnvelope(deleted, 'guide.deleted', from.team.id, from.organization.id);
    expect(deleted!.data).toEqual({ guide: { id: guide.id, team_id: from.team.id } });

    expectEnvelope(created, 'guide.created', to.team.id, to.organization.id);
    expectGuideData(created!.data, moved, []);
    expect(created!.data.guide.team_id).toBe(to.team.id);
    expect(created!.data.guide.folder_id).toBeNull();
    expect(created!.data.placement).toEqual({ team_guides: true, public_link: false });
    expect(deleted!.id).not.toBe(created!.id);
  });

  it('moving between a team without organization and one in an organization sets organization_id per event', async () => {
    const solo = await newTeam();
    const { organization, team } = await teamInOrganization();
    const guide = await createGuide(t, solo.id);
    const { events } = await recorded(() => t.admin('POST', `/guides/${guide.id}/move`, { team_id: team.id }));
    expect(events.map((event) => [event.type, event.team_id, event.organization_id])).toEqual([
      ['guide.deleted', solo.id, null],
      ['guide.created', team.id, organization.id],
    ]);
  });

  it('moving a guide to the team it is in records nothing', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id);
    const { events } = await recorded(() => t.admin('POST', `/guides/${guide.id}/move`, { team_id: team.id }));
    expect(events).toEqual([]);
  });

  it('deleting a guide records guide.deleted whose data is exactly { guide: { id, team_id } }', async () => {
    const { organization, team } = await teamInOrganization();
    const guide = await createGuide(t, team.id, { title: 'Doomed', steps: [{ text: 'x' }] });
    const { events } = await recorded(() => t.admin('DELETE', `/guides/${guide.id}`));
    expect(events).toHaveLength(1);
    expectEnvelope(events[0], 'guide.deleted', team.id, organization.id);
    expect(events[0]!.data).toEqual({ guide: { id: guide.id, team_id: team.id } });
  });
});

describe('member events (spec §6.5, decisions §6)', () => {
  it('PUT of a new member records member.joined with data.member { user_id, email, name, role, team_id }', async () => {
    const { organization, team } = await teamInOrganization();
    const user = await createUser(t, { name: 'Joiner', avatar_url: 'https://example.com/j.png' });
    const { events } = await recorded(() => t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' }));
    expect(events).toHaveLength(1);
    expectEnvelope(events[0], 'member.joined', team.id, organization.id);
    expect(Object.keys(events[0]!.data)).toEqual(['member']);
    expect(Object.keys(events[0]!.data.member).sort()).toEqual(MEMBER_KEYS);
    expect(events[0]!.data.member).toEqual({ user_id: user.id, email: user.email, name: 'Joiner', role: 'EDITOR', team_id: team.id });
  });

  it('a member without a name has name null in the event', async () => {
    const team = await newTeam();
    const user = await createUser(t);
    const { events } = await recorded(() => t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' }));
    expectEnvelope(events[0], 'member.joined', team.id, null);
    expect(events[0]!.data.member).toEqual({ user_id: user.id, email: user.email, name: null, role: 'VIEWER', team_id: team.id });
  });

  it('PUT with the same role again records no event', async () => {
    const team = await newTeam();
    const user = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' });
    const { events } = await recorded(() => t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' }));
    expect(events).toEqual([]);
  });

  it('PUT with another role records member.role_changed carrying the new role', async () => {
    const team = await newTeam();
    const user = await createUser(t, { name: 'Climber' });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    const { events } = await recorded(async () => {
      await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
      await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' });
    });
    expect(events.map((event) => event.type)).toEqual(['member.role_changed', 'member.role_changed']);
    expectEnvelope(events[0], 'member.role_changed', team.id, null);
    expect(events[0]!.data).toEqual({ member: { user_id: user.id, email: user.email, name: 'Climber', role: 'EDITOR', team_id: team.id } });
    expect(events[1]!.data.member.role).toBe('ADMIN');
  });

  it('DELETE records member.left carrying the role the member had', async () => {
    const { organization, team } = await teamInOrganization();
    const user = await createUser(t, { name: 'Leaver' });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' });
    const { events } = await recorded(() => t.admin('DELETE', `/teams/${team.id}/members/${user.id}`));
    expect(events).toHaveLength(1);
    expectEnvelope(events[0], 'member.left', team.id, organization.id);
    expect(events[0]!.data).toEqual({ member: { user_id: user.id, email: user.email, name: 'Leaver', role: 'ADMIN', team_id: team.id } });
  });

  it('a member who leaves and comes back records member.left, then member.joined', async () => {
    const team = await newTeam();
    const user = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    const { events } = await recorded(async () => {
      await t.admin('DELETE', `/teams/${team.id}/members/${user.id}`);
      await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    });
    expect(events.map((event) => [event.type, event.data.member.role])).toEqual([
      ['member.left', 'EDITOR'],
      ['member.joined', 'VIEWER'],
    ]);
  });

  it('membership events of one user in two teams go to each team', async () => {
    const a = await newTeam();
    const b = await newTeam();
    const user = await createUser(t);
    const { events } = await recorded(async () => {
      await t.admin('PUT', `/teams/${a.id}/members/${user.id}`, { role: 'EDITOR' });
      await t.admin('PUT', `/teams/${b.id}/members/${user.id}`, { role: 'VIEWER' });
    });
    expect(events.map((event) => [event.team_id, event.data.member.team_id, event.data.member.role])).toEqual([
      [a.id, a.id, 'EDITOR'],
      [b.id, b.id, 'VIEWER'],
    ]);
  });
});

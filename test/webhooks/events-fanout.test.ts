// Which events exist, what they carry and where they go (spec §6, decisions §6, §7), checked with real
// deliveries to a loopback receiver: the envelope of every event type, team and organization fan-out
// (teams joining and leaving), the events an endpoint picked, one event id across endpoints, moves,
// ping origins, first attempts in event order, and writes that cause no event.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { createGuide, organizationWithTeams, soloTeam, startTestService, useTestService } from '../support/service.js';
import { sleep } from '../support/waiting.js';
import { deliveries, endpointWithKey, eventTypes, guideData, type Home, parseDeliveries, useTestReceivers } from '../support/webhooks.js';

const APP_URL = 'https://app.example.test/console';

const t = useTestService({
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_COALESCE_MS: '0',
  WEBHOOK_RETRY_DELAYS: '100ms,100ms',
  WEBHOOK_TIMEOUT_MS: '2000',
  APP_URL,
});

const ALL_EVENTS = [
  'guide.created',
  'guide.updated',
  'guide.ready',
  'guide.failed',
  'guide.deleted',
  'member.joined',
  'member.left',
  'member.role_changed',
];
const ENVELOPE_KEYS = ['id', 'created_at', 'team_id', 'organization_id', 'type', 'data'];
const RFC3339_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const newReceiver = useTestReceivers();

/** Registers an endpoint on its own receiver and waits for its ping. */
async function endpointWithReceiver(home: Home, events: string[] = ALL_EVENTS) {
  const receiver = await newReceiver();
  const { endpoint, signingKey } = await endpointWithKey(t, home, receiver.url, events);
  await receiver.waitFor(1);
  return { receiver, endpoint, signingKey };
}

async function newUser(name: string | null = 'Member Person') {
  return t.admin('POST', '/users', { email: `member-${Math.random().toString(36).slice(2)}@example.test`, name });
}

describe('the envelope of every event type (spec §6.2–§6.6, decisions §6)', () => {
  it('every event type arrives signed, with the envelope keys in order, X-Service-Event equal to type, RFC 3339 ms Z created_at, exact data and guide.url under APP_URL', async () => {
    const { team } = await soloTeam(t);
    const { receiver, signingKey } = await endpointWithReceiver({ type: 'team', id: team.id });
    const folderId = '6f1c2a9e-1b7d-4c2e-9a51-0d3f5e7a9b11';

    const created = await createGuide(t, team.id, {
      title: 'Envelope guide',
      description: 'About envelopes',
      language: 'pt-BR',
      folder_id: folderId,
      publish_status: 'PUBLISHED',
      is_public: true,
    });
    const updated = await t.admin('PATCH', `/guides/${created.id}`, { title: 'Envelope guide, renamed' });
    const toFinish = await createGuide(t, team.id, { title: 'Recording', processing: true, steps: [{ text: 'Click here' }] });
    const ready = await t.admin('POST', `/guides/${toFinish.id}/processing`, { outcome: 'finished' });
    const toFail = await createGuide(t, team.id, { title: 'Broken recording', processing: true, steps: [{ text: 'Click there' }] });
    const failed = await t.admin('POST', `/guides/${toFail.id}/processing`, { outcome: 'failed', error: 'the upload was cut' });
    await t.admin('DELETE', `/guides/${created.id}`);
    const user = await newUser('Ada Member');
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    await t.admin('DELETE', `/teams/${team.id}/members/${user.id}`);

    const all = await deliveries(receiver, 11);
    expect(eventTypes(all).sort()).toEqual(
      [
        'ping',
        'guide.created',
        'guide.updated',
        'guide.created',
        'guide.ready',
        'guide.created',
        'guide.failed',
        'guide.deleted',
        'member.joined',
        'member.role_changed',
        'member.left',
      ].sort(),
    );

    for (const delivery of all) {
      expect(Object.keys(delivery.body)).toEqual(ENVELOPE_KEYS);
      expect(delivery.body.id).toMatch(UUID);
      expect(delivery.body.created_at).toMatch(RFC3339_MS_Z);
      expect(delivery.body.team_id).toBe(team.id);
      expect(delivery.body.organization_id).toBeNull();
      expect(delivery.headers['x-service-event']).toBe(delivery.body.type);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['user-agent']).toBe('Service-Webhooks/1');
      expect(await verify(signingKey, delivery.raw, String(delivery.headers['x-service-signature']))).toBe(true);
    }
    expect(new Set(all.map((delivery) => delivery.body.id)).size).toBe(all.length);

    const one = (type: string, guideId?: string) => {
      const found = all.filter((d) => d.body.type === type && (guideId === undefined || d.body.data.guide.id === guideId));
      expect(found, `${type} ${guideId ?? ''}`).toHaveLength(1);
      return found[0]!.body;
    };

    const ping = one('ping');
    expect(Object.keys(ping.data)).toEqual(['message']);
    expect(typeof ping.data.message).toBe('string');

    const createdEvent = one('guide.created', created.id);
    expect(Object.keys(createdEvent.data)).toEqual(['guide', 'placement', 'changed']);
    expect(createdEvent.data).toStrictEqual(guideData(created, APP_URL));
    expect(createdEvent.data.guide.url).toBe(`${APP_URL}/guides/${created.id}`);
    expect(createdEvent.data.placement).toStrictEqual({ team_guides: true, public_link: true });
    expect(createdEvent.data.guide.folder_id).toBe(folderId);
    expect(createdEvent.data.guide.language).toBe('pt-BR');

    expect(one('guide.updated', created.id).data).toStrictEqual(guideData(updated, APP_URL, ['title']));
    expect(one('guide.ready', toFinish.id).data).toStrictEqual(guideData(ready, APP_URL));
    expect(one('guide.failed', toFail.id).data).toStrictEqual(guideData(failed, APP_URL));
    expect(one('guide.created', toFinish.id).data.placement).toStrictEqual({ team_guides: false, public_link: false });

    expect(one('guide.deleted').data).toStrictEqual({ guide: { id: created.id, team_id: team.id } });

    const member = { user_id: user.id, email: user.email, name: 'Ada Member', team_id: team.id };
    expect(one('member.joined').data).toStrictEqual({ member: { ...member, role: 'EDITOR' } });
    expect(one('member.role_changed').data).toStrictEqual({ member: { ...member, role: 'VIEWER' } });
    expect(one('member.left').data).toStrictEqual({ member: { ...member, role: 'VIEWER' } });
  });

  it('events of a team in an organization carry the organization id', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const { receiver } = await endpointWithReceiver({ type: 'team', id: teams[0].id });
    const guide = await createGuide(t, teams[0].id);
    const [, created] = await deliveries(receiver, 2);
    expect(created!.body).toMatchObject({ type: 'guide.created', team_id: teams[0].id, organization_id: organization.id });
    expect(created!.body.data.guide.id).toBe(guide.id);
  });

  it('member.left carries the role the member had when leaving', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointWithReceiver({ type: 'team', id: team.id }, ['member.left']);
    const user = await newUser(null);
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    await t.admin('DELETE', `/teams/${team.id}/members/${user.id}`);
    const [, left] = await deliveries(receiver, 2);
    expect(left!.body.type).toBe('member.left');
    expect(left!.body.data).toStrictEqual({ member: { user_id: user.id, email: user.email, name: null, role: 'VIEWER', team_id: team.id } });
  });
});

describe('fan-out to team and organization endpoints (decisions §6)', () => {
  it('a team endpoint gets only the events of its own team', async () => {
    const a = await soloTeam(t);
    const b = await soloTeam(t);
    const endpointA = await endpointWithReceiver({ type: 'team', id: a.team.id });
    const endpointB = await endpointWithReceiver({ type: 'team', id: b.team.id });

    await createGuide(t, b.team.id, { title: 'b-1' });
    await createGuide(t, a.team.id, { title: 'a-1' });
    await createGuide(t, b.team.id, { title: 'b-2' });
    await createGuide(t, a.team.id, { title: 'a-2' });

    const toA = (await deliveries(endpointA.receiver, 3)).slice(1);
    const toB = (await deliveries(endpointB.receiver, 3)).slice(1);
    expect(toA.map((d) => d.body.data.guide.title).sort()).toEqual(['a-1', 'a-2']);
    expect(toB.map((d) => d.body.data.guide.title).sort()).toEqual(['b-1', 'b-2']);
    expect(toA.every((d) => d.body.team_id === a.team.id)).toBe(true);
    expect(toB.every((d) => d.body.team_id === b.team.id)).toBe(true);
  });

  it('an organization endpoint gets the events of every team in the organization, and none of a team outside it', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 2);
    const outsider = await soloTeam(t);
    const { receiver } = await endpointWithReceiver({ type: 'organization', id: organization.id });

    await createGuide(t, outsider.team.id, { title: 'outside' });
    await createGuide(t, teams[0].id, { title: 'team-0' });
    const user = await newUser();
    await t.admin('PUT', `/teams/${teams[1].id}/members/${user.id}`, { role: 'EDITOR' });
    await createGuide(t, teams[1].id, { title: 'team-1' });

    const received = (await deliveries(receiver, 4)).slice(1);
    expect(received.map((d) => [d.body.type, d.body.team_id, d.body.organization_id]).sort()).toEqual(
      [
        ['guide.created', teams[0].id, organization.id],
        ['member.joined', teams[1].id, organization.id],
        ['guide.created', teams[1].id, organization.id],
      ].sort(),
    );
  });

  it('an organization endpoint gets the events of a team that joins the organization later', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const joiner = await soloTeam(t);
    const { receiver } = await endpointWithReceiver({ type: 'organization', id: organization.id });

    await createGuide(t, joiner.team.id, { title: 'before joining' });
    await t.admin('PATCH', `/teams/${joiner.team.id}`, { organization_id: organization.id });
    await createGuide(t, joiner.team.id, { title: 'after joining' });
    await createGuide(t, teams[0].id, { title: 'sentinel' });

    const received = (await deliveries(receiver, 3)).slice(1);
    expect(received.map((d) => d.body.data.guide.title).sort()).toEqual(['after joining', 'sentinel']);
    const joined = received.find((d) => d.body.data.guide.title === 'after joining')!;
    expect(joined.body).toMatchObject({ type: 'guide.created', team_id: joiner.team.id, organization_id: organization.id });
  });

  it('an organization endpoint no longer gets the events of a team that left the organization', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 2);
    const { receiver } = await endpointWithReceiver({ type: 'organization', id: organization.id });
    const leaver = teams[1];

    await createGuide(t, leaver.id, { title: 'while a member' });
    await deliveries(receiver, 2);
    await t.admin('PATCH', `/teams/${leaver.id}`, { organization_id: null });
    await createGuide(t, leaver.id, { title: 'after leaving' });
    const user = await newUser();
    await t.admin('PUT', `/teams/${leaver.id}/members/${user.id}`, { role: 'EDITOR' });
    await createGuide(t, teams[0].id, { title: 'sentinel' });

    const received = (await deliveries(receiver, 3)).slice(1);
    expect(received.map((d) => [d.body.type, d.body.team_id, d.body.data.guide?.title])).toEqual([
      ['guide.created', leaver.id, 'while a member'],
      ['guide.created', teams[0].id, 'sentinel'],
    ]);
  });

  it('an endpoint receives only the event types it picked, plus pings', async () => {
    const { team } = await soloTeam(t);
    const { receiver, endpoint } = await endpointWithReceiver({ type: 'team', id: team.id }, ['guide.deleted', 'member.joined']);

    const guide = await createGuide(t, team.id);
    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Renamed' });
    const processing = await createGuide(t, team.id, { processing: true, steps: [{ text: 'one' }] });
    await t.admin('POST', `/guides/${processing.id}/processing`, { outcome: 'failed' });
    await t.admin('DELETE', `/guides/${guide.id}`);
    const user = await newUser();
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    await t.admin('DELETE', `/teams/${team.id}/members/${user.id}`);
    const ping = await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/ping`);
    expect(ping.statusCode).toBe(202);

    const received = await deliveries(receiver, 4);
    expect(eventTypes(received).sort()).toEqual(['guide.deleted', 'member.joined', 'ping', 'ping']);
  });

  it('one event delivered to a team endpoint and to its organization endpoint has the same event id', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const teamEndpoint = await endpointWithReceiver({ type: 'team', id: teams[0].id });
    const organizationEndpoint = await endpointWithReceiver({ type: 'organization', id: organization.id });

    await createGuide(t, teams[0].id, { title: 'shared' });
    const [, toTeam] = await deliveries(teamEndpoint.receiver, 2);
    const [, toOrganization] = await deliveries(organizationEndpoint.receiver, 2);
    expect(toTeam!.body.type).toBe('guide.created');
    expect(toOrganization!.body.id).toBe(toTeam!.body.id);
    expect(toOrganization!.body).toStrictEqual(toTeam!.body);
    expect(toOrganization!.headers['x-service-delivery']).not.toBe(toTeam!.headers['x-service-delivery']);
  });
});

describe('moving a guide (decisions §6)', () => {
  it('moving a guide delivers guide.deleted to the old team and guide.created to the new team', async () => {
    const from = await soloTeam(t);
    const to = await soloTeam(t);
    const oldEndpoint = await endpointWithReceiver({ type: 'team', id: from.team.id });
    const newEndpoint = await endpointWithReceiver({ type: 'team', id: to.team.id });

    const guide = await createGuide(t, from.team.id, { title: 'Traveller', folder_id: '0b7c5f1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b' });
    await deliveries(oldEndpoint.receiver, 2);
    const moved = await t.admin('POST', `/guides/${guide.id}/move`, { team_id: to.team.id });
    // A sentinel on each side, so that anything the move sent has arrived before it.
    await createGuide(t, from.team.id, { title: 'sentinel-old' });
    await createGuide(t, to.team.id, { title: 'sentinel-new' });

    const atOld = (await deliveries(oldEndpoint.receiver, 4)).slice(2);
    const atNew = (await deliveries(newEndpoint.receiver, 3)).slice(1);

    const deleted = atOld.find((d) => d.body.type === 'guide.deleted');
    expect(eventTypes(atOld).sort()).toEqual(['guide.created', 'guide.deleted']);
    expect(deleted!.body.team_id).toBe(from.team.id);
    expect(deleted!.body.data).toStrictEqual({ guide: { id: guide.id, team_id: from.team.id } });

    const created = atNew.find((d) => d.body.type === 'guide.created' && d.body.data.guide.id === guide.id);
    expect(eventTypes(atNew)).toEqual(['guide.created', 'guide.created']);
    expect(created!.body.team_id).toBe(to.team.id);
    expect(created!.body.data).toStrictEqual(guideData(moved, APP_URL));
    expect(created!.body.data.guide.team_id).toBe(to.team.id);
  });

  it('a move between two teams of one organization reaches its endpoint as guide.deleted, then guide.created: the two events of one write leave in the order they happened', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 2);
    const { receiver } = await endpointWithReceiver({ type: 'organization', id: organization.id }, ['guide.created', 'guide.deleted']);
    const guide = await createGuide(t, teams[0].id, { title: 'Across' });
    await deliveries(receiver, 2);
    await t.admin('POST', `/guides/${guide.id}/move`, { team_id: teams[1].id });
    const [deleted, created] = (await deliveries(receiver, 4)).slice(2);
    expect([deleted!.body.type, created!.body.type]).toEqual(['guide.deleted', 'guide.created']);
    expect(deleted!.body.data.guide.team_id).toBe(teams[0].id);
    expect(created!.body.data.guide.team_id).toBe(teams[1].id);
  });
});

describe('ping origins (decisions §6, §7)', () => {
  it("a team endpoint's ping has the team's id (and its organization's id)", async () => {
    const { team } = await soloTeam(t);
    const solo = await endpointWithReceiver({ type: 'team', id: team.id });
    const [soloPing] = parseDeliveries(solo.receiver.received);
    expect(soloPing!.body).toMatchObject({ type: 'ping', team_id: team.id, organization_id: null });

    const { organization, teams } = await organizationWithTeams(t, 'growth', 2);
    const member = await endpointWithReceiver({ type: 'team', id: teams[1].id });
    const [memberPing] = parseDeliveries(member.receiver.received);
    expect(memberPing!.body).toMatchObject({ type: 'ping', team_id: teams[1].id, organization_id: organization.id });
  });

  it("an organization endpoint's ping has the organization's own id while it has no team, then its oldest team's id", async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Empty org', plan: 'growth' });
    const { receiver, endpoint } = await endpointWithReceiver({ type: 'organization', id: organization.id });
    const [first] = parseDeliveries(receiver.received);
    expect(first!.body).toMatchObject({ type: 'ping', team_id: organization.id, organization_id: organization.id });

    const oldest = await t.admin('POST', '/teams', { name: 'Zulu (oldest)', organization_id: organization.id });
    await sleep(20);
    await t.admin('POST', '/teams', { name: 'Alpha (newer)', organization_id: organization.id });

    const answer = await t.adminRaw('POST', `/webhook-endpoints/${endpoint.id}/ping`);
    expect(answer.statusCode).toBe(202);
    const [, second] = await deliveries(receiver, 2);
    expect(second!.headers['x-service-event']).toBe('ping');
    expect(second!.body).toMatchObject({ type: 'ping', team_id: oldest.id, organization_id: organization.id });
    expect(second!.body.id).not.toBe(first!.body.id);
  });

  it('POST /webhook-endpoints/{id}/ping answers 202 and delivers another ping to that endpoint only', async () => {
    const { team } = await soloTeam(t);
    const pinged = await endpointWithReceiver({ type: 'team', id: team.id });
    const other = await endpointWithReceiver({ type: 'team', id: team.id });

    const answer = await t.adminRaw('POST', `/webhook-endpoints/${pinged.endpoint.id}/ping`);
    expect(answer.statusCode).toBe(202);
    const [, again] = await deliveries(pinged.receiver, 2);
    expect(again!.body).toMatchObject({ type: 'ping', team_id: team.id });

    await createGuide(t, team.id, { title: 'sentinel' });
    const atOther = await deliveries(other.receiver, 2);
    expect(eventTypes(atOther)).toEqual(['ping', 'guide.created']);
    // The sentinel also goes to the pinged endpoint; let it arrive before the receiver closes.
    expect(eventTypes(await deliveries(pinged.receiver, 3))).toEqual(['ping', 'ping', 'guide.created']);
  });
});

describe('ordering (decisions §6)', () => {
  it('first attempts to one endpoint leave in event order: 20 guides created quickly arrive in creation order', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointWithReceiver({ type: 'team', id: team.id }, ['guide.created']);
    const titles = Array.from({ length: 20 }, (_, i) => `order-${String(i).padStart(2, '0')}`);
    for (const title of titles) await createGuide(t, team.id, { title });
    const received = (await deliveries(receiver, 21)).slice(1);
    expect(received.map((d) => d.body.data.guide.title)).toEqual(titles);
  });

  it('first attempts to one endpoint leave in event order when a backlog of 50 events is sent at once', async () => {
    // A process without the worker (ROLE=api) records the events; a full process on the same store
    // then finds all of them due together.
    const databaseUrl = `file:${join(mkdtempSync(join(tmpdir(), 'fanout-order-')), 'backlog.db')}`;
    const receiver = await newReceiver();
    const titles = Array.from({ length: 50 }, (_, i) => `backlog-${String(i).padStart(2, '0')}`);
    const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', WEBHOOK_RETRY_DELAYS: '100ms,100ms', DATABASE_URL: databaseUrl };
    const api = await startTestService({ ...env, ROLE: 'api' });
    try {
      const { team } = await soloTeam(api);
      await api.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
      for (const title of titles) await createGuide(api, team.id, { title });
    } finally {
      await api.close();
    }
    expect(receiver.received).toHaveLength(0);
    const full = await startTestService(env);
    try {
      const received = await deliveries(receiver, 51);
      expect(received[0]!.body.type).toBe('ping');
      expect(received.slice(1).map((d) => d.body.data.guide.title)).toEqual(titles);
    } finally {
      await full.close();
    }
  });
});

describe('writes tied to no event (spec §6.3, §6.5; decisions §7)', () => {
  it('nothing is sent for a write the specification ties to no event', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointWithReceiver({ type: 'team', id: team.id });
    const owner = await newUser('Owner');
    const guide = await createGuide(t, team.id, { title: 'Quiet', description: 'Unchanged' });
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    await deliveries(receiver, 3);

    // Columns outside the list of spec §6.3, and the listed ones written with their current values.
    await t.admin('PATCH', `/guides/${guide.id}`, { icon_url: 'https://cdn.example.test/icon.png' });
    await t.admin('PATCH', `/guides/${guide.id}`, { thumbnail_url: 'https://cdn.example.test/thumb.png' });
    await t.admin('PATCH', `/guides/${guide.id}`, { tags: ['one', 'two'] });
    await t.admin('PATCH', `/guides/${guide.id}`, { app_version: '2.3.4' });
    await t.admin('PATCH', `/guides/${guide.id}`, { owner_id: owner.id });
    await t.admin('PATCH', `/guides/${guide.id}`, { text_direction: 'rtl' });
    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Quiet', description: 'Unchanged', publish_status: 'DRAFT', is_public: false });
    // The same role again, and writes to teams and organizations.
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    await t.admin('PATCH', `/teams/${team.id}`, { name: 'Renamed team', brand_color: '#112233' });

    const sentinel = await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Sentinel' });
    const after = (await deliveries(receiver, 4)).slice(3);
    expect(eventTypes(after)).toEqual(['guide.updated']);
    expect(after[0]!.body.data.changed).toEqual(['title']);
    expect(after[0]!.body.data.guide.updated_at).toBe(sentinel.updated_at);
  });
});

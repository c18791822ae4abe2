// Coalescing of guide.updated (spec §6.1, §6.3; decisions §1, §6): edits to one guide within
// WEBHOOK_COALESCE_MS of the first edit form one event whose `changed` is their union in the order of the
// spec's list and whose summary is the guide as it is when the window closes; a delete or a move emits
// the open window at once, before guide.deleted; windows survive a restart. Checked with real deliveries.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGuide, organizationWithTeams, soloTeam, startTestService, type TestService, useTestService } from '../support/service.js';
import type { Receiver } from '../support/receiver.js';
import { sleep } from '../support/waiting.js';
import { createEndpoint, deliveries, eventTypes, guideData, type Home, parseDeliveries, useTestReceivers } from '../support/webhooks.js';

const WINDOW_MS = 400;
const APP_URL = 'https://app.example.test';
const BASE_ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_DELAYS: '100ms,100ms',
  WEBHOOK_TIMEOUT_MS: '2000',
  APP_URL,
};

const newReceiver = useTestReceivers();

/** An endpoint on `receiver` (a new one unless given); with `waitForPing` false the ping is not awaited. */
async function endpointOn(t: TestService, home: Home, events: string[], receiver?: Receiver, waitForPing = true) {
  const target = receiver ?? (await newReceiver());
  const endpoint = await createEndpoint(t, home, target.url, events);
  if (waitForPing) await target.waitFor(1);
  return { receiver: target, endpoint };
}

const patch = (t: TestService, id: string, body: Record<string, unknown>) => t.admin('PATCH', `/guides/${id}`, body);

describe(`with WEBHOOK_COALESCE_MS ${WINDOW_MS}`, () => {
  const t = useTestService({ ...BASE_ENV, WEBHOOK_COALESCE_MS: String(WINDOW_MS) });

  it('edits to one guide within the window form one guide.updated: changed is their union in spec order, the summary is the guide when the window closes, and it is emitted when the window closes', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointOn(t, { type: 'team', id: team.id }, ['guide.updated']);
    const guide = await createGuide(t, team.id, { title: 'Before', description: 'Before, described' });

    const first = await patch(t, guide.id, { title: 'After' });
    await patch(t, guide.id, { is_public: true });
    const last = await patch(t, guide.id, { description: 'After, described' });
    // Nothing before the window closes: only the ping so far.
    expect(eventTypes(parseDeliveries(receiver.received))).toEqual(['ping']);

    const [, update] = await deliveries(receiver, 2);
    expect(update!.body.type).toBe('guide.updated');
    expect(update!.headers['x-service-event']).toBe('guide.updated');
    expect(update!.body.data.changed).toEqual(['title', 'description', 'is_public']);
    expect(update!.body.data).toStrictEqual(guideData(last, APP_URL, ['title', 'description', 'is_public']));
    expect(update!.body.data.guide.title).toBe('After');
    expect(update!.body.data.guide.description).toBe('After, described');
    expect(update!.body.data.placement.public_link).toBe(true);
    // created_at is when the window closed: not before the first edit plus the window.
    expect(Date.parse(update!.body.created_at)).toBeGreaterThanOrEqual(Date.parse(first.updated_at) + WINDOW_MS);

    await sleep(WINDOW_MS + 300);
    expect(eventTypes(parseDeliveries(receiver.received))).toEqual(['ping', 'guide.updated']);
  });

  it('an edit after the window closed starts a new window and a second guide.updated', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointOn(t, { type: 'team', id: team.id }, ['guide.updated']);
    const guide = await createGuide(t, team.id, { title: 'Before', description: 'Before, described' });

    const firstEdit = await patch(t, guide.id, { title: 'First window' });
    const [, first] = await deliveries(receiver, 2);
    const secondEdit = await patch(t, guide.id, { description: 'Second window' });
    const [, , second] = await deliveries(receiver, 3);

    expect(first!.body.data).toStrictEqual(guideData(firstEdit, APP_URL, ['title']));
    expect(second!.body.data).toStrictEqual(guideData(secondEdit, APP_URL, ['description']));
    expect(second!.body.id).not.toBe(first!.body.id);
    expect(Date.parse(second!.body.created_at)).toBeGreaterThanOrEqual(Date.parse(secondEdit.updated_at) + WINDOW_MS);
  });

  it('edits to two different guides within the same time give two guide.updated events, one per guide', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointOn(t, { type: 'team', id: team.id }, ['guide.updated']);
    const a = await createGuide(t, team.id, { title: 'A' });
    const b = await createGuide(t, team.id, { title: 'B' });

    const editedA = await patch(t, a.id, { title: 'A, edited' });
    const editedB = await patch(t, b.id, { publish_status: 'PUBLISHED' });
    await patch(t, a.id, { language: 'fr' });
    const lastA = await t.admin('GET', `/guides/${a.id}`);

    const updates = (await deliveries(receiver, 3)).slice(1);
    expect(eventTypes(updates)).toEqual(['guide.updated', 'guide.updated']);
    const forA = updates.find((d) => d.body.data.guide.id === a.id);
    const forB = updates.find((d) => d.body.data.guide.id === b.id);
    expect(forA!.body.data).toStrictEqual(guideData(lastA, APP_URL, ['title', 'language']));
    expect(forB!.body.data).toStrictEqual(guideData(editedB, APP_URL, ['publish_status']));
    expect(forB!.body.data.placement.team_guides).toBe(true);
    expect(editedA.title).toBe('A, edited');

    await sleep(WINDOW_MS + 300);
    expect(receiver.received).toHaveLength(3);
  });

  it('deleting a guide with an open window emits the pending guide.updated at once, then guide.deleted', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointOn(t, { type: 'team', id: team.id }, ['guide.updated', 'guide.deleted']);
    const guide = await createGuide(t, team.id, { title: 'Doomed' });

    const edited = await patch(t, guide.id, { title: 'Doomed, renamed' });
    await t.admin('DELETE', `/guides/${guide.id}`);

    const [, updated, deleted] = await deliveries(receiver, 3);
    expect(eventTypes([updated!, deleted!])).toEqual(['guide.updated', 'guide.deleted']);
    expect(updated!.body.data).toStrictEqual(guideData(edited, APP_URL, ['title']));
    expect(deleted!.body.data).toStrictEqual({ guide: { id: guide.id, team_id: team.id } });
    // Emitted with the delete, not when the window would have closed.
    expect(Date.parse(updated!.body.created_at)).toBeLessThanOrEqual(Date.parse(deleted!.body.created_at));
    expect(Date.parse(updated!.body.created_at)).toBeLessThan(Date.parse(edited.updated_at) + WINDOW_MS);

    // The window is gone with it: nothing more when it would have closed.
    await sleep(WINDOW_MS + 300);
    expect(eventTypes(parseDeliveries(receiver.received))).toEqual(['ping', 'guide.updated', 'guide.deleted']);
  });

  it('moving a guide with an open window emits the pending guide.updated (old team) before guide.deleted and guide.created', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 2);
    const [from, to] = [teams[0], teams[1]];
    const { receiver } = await endpointOn(t, { type: 'organization', id: organization.id }, ['guide.created', 'guide.updated', 'guide.deleted']);
    const guide = await createGuide(t, from.id, { title: 'Mover' });
    await deliveries(receiver, 2);

    const edited = await patch(t, guide.id, { title: 'Mover, renamed' });
    const moved = await t.admin('POST', `/guides/${guide.id}/move`, { team_id: to.id });

    const [updated, deleted, created] = (await deliveries(receiver, 5)).slice(2);
    expect(eventTypes([updated!, deleted!, created!])).toEqual(['guide.updated', 'guide.deleted', 'guide.created']);
    expect(updated!.body.team_id).toBe(from.id);
    expect(updated!.body.data).toStrictEqual(guideData(edited, APP_URL, ['title']));
    expect(deleted!.body.team_id).toBe(from.id);
    expect(deleted!.body.data).toStrictEqual({ guide: { id: guide.id, team_id: from.id } });
    expect(created!.body.team_id).toBe(to.id);
    expect(created!.body.data).toStrictEqual(guideData(moved, APP_URL, []));
    expect(Date.parse(updated!.body.created_at)).toBeLessThanOrEqual(Date.parse(deleted!.body.created_at));
    expect(Date.parse(updated!.body.created_at)).toBeLessThan(Date.parse(edited.updated_at) + WINDOW_MS);

    await sleep(WINDOW_MS + 300);
    expect(receiver.received).toHaveLength(5);
  });

  it('an edit that changes none of the listed columns opens no window', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointOn(t, { type: 'team', id: team.id }, ['guide.updated']);
    const guide = await createGuide(t, team.id, { title: 'Steady', description: 'Steady, described' });

    // Outside the list of spec §6.3, or the same values again.
    await patch(t, guide.id, { icon_url: 'https://cdn.example.test/icon.png', tags: ['x'], app_version: '1.2' });
    await patch(t, guide.id, { title: 'Steady', description: 'Steady, described' });
    await sleep(WINDOW_MS / 2);
    // Had the writes above opened a window, this edit would join it and be emitted when it closes.
    const real = await patch(t, guide.id, { description: 'Now changed' });

    const [, update] = await deliveries(receiver, 2);
    expect(update!.body.data).toStrictEqual(guideData(real, APP_URL, ['description']));
    expect(Date.parse(update!.body.created_at)).toBeGreaterThanOrEqual(Date.parse(real.updated_at) + WINDOW_MS);

    await sleep(WINDOW_MS + 300);
    expect(receiver.received).toHaveLength(2);
  });
});

describe('with WEBHOOK_COALESCE_MS 0', () => {
  const t = useTestService({ ...BASE_ENV, WEBHOOK_COALESCE_MS: '0' });

  it('each edit is its own guide.updated, with the guide as that edit left it', async () => {
    const { team } = await soloTeam(t);
    const { receiver } = await endpointOn(t, { type: 'team', id: team.id }, ['guide.updated']);
    const guide = await createGuide(t, team.id, { title: 'Before', description: 'Before, described' });

    const one = await patch(t, guide.id, { title: 'After' });
    const two = await patch(t, guide.id, { is_public: true });
    const three = await patch(t, guide.id, { description: 'After, described' });

    const updates = (await deliveries(receiver, 4)).slice(1);
    expect(updates.map((d) => d.body.data)).toStrictEqual([
      guideData(one, APP_URL, ['title']),
      guideData(two, APP_URL, ['is_public']),
      guideData(three, APP_URL, ['description']),
    ]);
    expect(new Set(updates.map((d) => d.body.id)).size).toBe(3);
  });
});

describe('windows are rows (decisions §6)', () => {
  function fileDatabase(name: string): string {
    return `file:${join(mkdtempSync(join(tmpdir(), 'coalescing-')), name)}`;
  }

  it('a window survives a restart: an edit left open when the service stops is delivered once by the next start', async () => {
    const window = 2000;
    const env = { ...BASE_ENV, WEBHOOK_COALESCE_MS: String(window), DATABASE_URL: fileDatabase('restart.db') };
    const receiver = await newReceiver();

    const before = await startTestService(env);
    let guide: any;
    let edited: any;
    try {
      const { team } = await soloTeam(before);
      await endpointOn(before, { type: 'team', id: team.id }, ['guide.updated'], receiver);
      guide = await createGuide(before, team.id, { title: 'Survivor' });
      edited = await patch(before, guide.id, { title: 'Survivor, renamed' });
    } finally {
      await before.close();
    }
    // Stopped with the window still open: only the ping went out.
    expect(eventTypes(parseDeliveries(receiver.received))).toEqual(['ping']);

    const after = await startTestService(env);
    try {
      const [, update] = await deliveries(receiver, 2);
      expect(update!.body.type).toBe('guide.updated');
      expect(update!.body.data).toStrictEqual(guideData(edited, APP_URL, ['title']));
      expect(Date.parse(update!.body.created_at)).toBeGreaterThanOrEqual(Date.parse(edited.updated_at) + window);
      await sleep(1000);
      expect(eventTypes(parseDeliveries(receiver.received))).toEqual(['ping', 'guide.updated']);
    } finally {
      await after.close();
    }
  });

  it('an edit after the window closed starts a new window even when the closed window has not been emitted yet (no worker running)', async () => {
    // A process without the worker (ROLE=api) takes the edits; a full process on the same store sends.
    const env = { ...BASE_ENV, WEBHOOK_COALESCE_MS: String(WINDOW_MS), DATABASE_URL: fileDatabase('api-only.db') };
    const receiver = await newReceiver();

    const api = await startTestService({ ...env, ROLE: 'api' });
    let firstEdit: any;
    let secondEdit: any;
    try {
      const { team } = await soloTeam(api);
      await endpointOn(api, { type: 'team', id: team.id }, ['guide.updated'], receiver, false);
      const guide = await createGuide(api, team.id, { title: 'Before', description: 'Before, described' });
      firstEdit = await patch(api, guide.id, { title: 'First window' });
      await sleep(WINDOW_MS + 300);
      secondEdit = await patch(api, guide.id, { description: 'Second window' });
    } finally {
      await api.close();
    }
    expect(Date.parse(secondEdit.updated_at)).toBeGreaterThan(Date.parse(firstEdit.updated_at) + WINDOW_MS);

    const full = await startTestService(env);
    try {
      const [ping, first] = await deliveries(receiver, 2);
      expect(ping!.body.type).toBe('ping');
      expect(first!.body.type).toBe('guide.updated');
      // The first window holds the first edit only, and the guide as it was when that window closed.
      expect(first!.body.data).toStrictEqual(guideData(firstEdit, APP_URL, ['title']));
      const [, , second] = await deliveries(receiver, 3);
      expect(second!.body.data).toStrictEqual(guideData(secondEdit, APP_URL, ['description']));
    } finally {
      await full.close();
    }
  });
});

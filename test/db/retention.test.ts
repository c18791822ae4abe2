// Retention you can set (issue 33): the upkeep loop keeps sent delivery attempts
// WEBHOOK_ATTEMPTS_RETENTION_DAYS, whatever EVENTS_RETENTION_DAYS says of the feed (an event an attempt
// refers to stays in the store, out of the feed, until the attempt goes); mail keeps its own 30 days whatever
// either says. The clock is the service's injected one, moved by days; the upkeep loop prunes when woken.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestamp } from '../../src/domain/clock.js';
import { PRUNE_BATCH } from '../../src/db/batches.js';
import { pruneOldDeliveries } from '../../src/webhooks/pruning.js';
import { requestLink } from '../console/sessions.js';
import { ScriptedTransport } from '../support/scripted-transport.js';
import { createGuide, soloTeam, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { allAttempts } from '../support/webhooks.js';

const DAY_MS = 86_400_000;
const transport = new ScriptedTransport();
let t: TestService;

beforeAll(async () => {
  t = await startTestService(
    { WEBHOOK_COALESCE_MS: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', EVENTS_RETENTION_DAYS: '7', WEBHOOK_ATTEMPTS_RETENTION_DAYS: '60' },
    { transport },
  );
});
afterAll(() => t?.close());

/** Moves the clock and lets the upkeep loop run its minutely jobs, until `done` holds. */
async function afterDays<T>(days: number, what: string, done: () => Promise<T | null | false>): Promise<T> {
  t.clock.advance(days * DAY_MS);
  t.service.ctx.outbox.wake();
  return eventually(what, async () => {
    t.service.ctx.outbox.wake();
    return done();
  });
}

describe('WEBHOOK_ATTEMPTS_RETENTION_DAYS', () => {
  it('keeps a sent attempt and its event that many days, longer than the feed and the mail, then prunes both', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/kept', events: ['guide.created'] });
    await createGuide(t, team.id);
    const sent = await eventually('the guide.created delivery', async () => (await allAttempts(t, endpoint.id)).find((a) => a.event_type === 'guide.created' && a.status === 'delivered'));
    const user = await t.admin('POST', '/users', { email: `retention-${Math.random().toString(36).slice(2)}@example.com` });
    await requestLink(t, user.email);
    const mailFor = async () => ((await t.admin('GET', '/mail')) as { to: string[] }[]).filter((mail) => mail.to.includes(user.email));
    // The link is recorded after the answer (its timing must not tell whether the address is known).
    await eventually('the sign-in mail', async () => (await mailFor()).length === 1);

    // 31 days on: the mail is gone (30 days), the event is out of the feed (7 days), the attempt stays (60 days).
    await afterDays(31, 'the mail pruned', async () => (await mailFor()).length === 0);
    expect((await allAttempts(t, endpoint.id)).map((attempt) => attempt.id)).toContain(sent.id);
    expect((await t.get('/v1/events', key)).json().data).toEqual([]);
    expect(await t.service.ctx.db.selectFrom('events').select('id').where('id', '=', sent.event_id).executeTakeFirst()).toBeDefined();

    // 61 days on: the attempt is gone, and its event with it (in the pruning's next step).
    const eventKept = async () => (await t.service.ctx.db.selectFrom('events').select('id').where('id', '=', sent.event_id).executeTakeFirst()) !== undefined;
    await afterDays(30, 'the attempt and its event pruned', async () => !(await allAttempts(t, endpoint.id)).some((attempt) => attempt.id === sent.id) && !(await eventKept()));
  });
});

describe('pruning a backlog', () => {
  it('a retention shortened over a large backlog is pruned whole in one run, a batch at a time, and the feed horizon moves past it', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/backlog', events: ['guide.created'] });
    // Two and a half batches of sent attempts, each with its event, from 200 days ago, a second apart.
    const count = Math.round(2.5 * PRUNE_BATCH);
    const start = t.clock.now().getTime() - 200 * DAY_MS;
    const rows = Array.from({ length: count }, (_, n) => ({ id: randomUUID(), at: timestamp(new Date(start + n * 1000)) }));
    for (let from = 0; from < count; from += 200) {
      const chunk = rows.slice(from, from + 200);
      await t.service.ctx.db
        .insertInto('events')
        .values(chunk.map((row) => ({ id: row.id, type: 'guide.created', team_id: team.id, organization_id: null, payload: '{}', created_at: row.at })))
        .execute();
      await t.service.ctx.db
        .insertInto('webhook_attempts')
        .values(chunk.map((row) => ({ id: randomUUID(), event_id: row.id, endpoint_id: endpoint.id, attempt_number: 1, auto_retry: 1, status: 'delivered', due_at: row.at, sent_at: row.at, created_at: row.at })))
        .execute();
    }

    await pruneOldDeliveries(t.service.ctx, 7 * DAY_MS, 30 * DAY_MS);

    const left = await t.service.ctx.db.selectFrom('events').select('id').where('team_id', '=', team.id).where('created_at', '<', rows.at(-1)!.at).execute();
    expect(left).toEqual([]);
    expect(await t.service.ctx.db.selectFrom('webhook_attempts').select('id').where('endpoint_id', '=', endpoint.id).where('created_at', '<=', rows.at(-1)!.at).execute()).toEqual([]);
    const horizon = await t.service.ctx.db.selectFrom('event_feed_horizons').select('dropped_through').where('home_type', '=', 'team').where('home_id', '=', team.id).executeTakeFirst();
    expect(horizon?.dropped_through).toBe(rows.at(-1)!.at);
    expect((await t.get('/v1/events', key)).json().data.filter((event: { type: string }) => event.type === 'guide.created')).toEqual([]);
  });
});

describe('AUDIT_RETENTION_DAYS', () => {
  it('keeps an audit event that many days, then the upkeep prunes it, a backlog of several batches included', async () => {
    const s = await startTestService({ AUDIT_RETENTION_DAYS: '10' });
    try {
      const team = await s.admin('POST', '/teams', { name: 'Audited for ten days', plan: 'free' });
      await s.admin('PATCH', `/teams/${team.id}`, { name: 'Renamed' });
      // A backlog older than any retention, written as the log holds it: more than two batches.
      const old = timestamp(new Date(s.clock.now().getTime() - 400 * DAY_MS));
      const rows = Array.from({ length: Math.round(2.5 * PRUNE_BATCH) }, () => ({ created_at: old, id: randomUUID(), actor_type: 'operator' as const, action: 'team.updated', target_type: 'team' }));
      for (let i = 0; i < rows.length; i += 500) await s.service.store.db.insertInto('audit_events').values(rows.slice(i, i + 500)).execute();
      const count = async () => Number((await s.service.store.db.selectFrom('audit_events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const wakeUpkeep = () => s.service.ctx.outbox.wake();
      s.clock.advance(9 * DAY_MS);
      wakeUpkeep();
      // The backlog goes; the team's two events, nine days old, stay.
      await eventually('the backlog pruned', async () => (wakeUpkeep(), (await count()) === 2));
      s.clock.advance(2 * DAY_MS);
      await eventually("the team's events pruned after ten days", async () => (wakeUpkeep(), (await count()) === 0));
    } finally {
      await s.close();
    }
  });
});

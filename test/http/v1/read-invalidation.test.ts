// A write drops only the cached answers it could have changed, and every answer served from the cache is
// the same bytes the service computes without one. Two services share one store: one caches, the other
// runs with READ_CACHE=off; after every kind of write both answer every URL of every key, byte for byte.
// On PostgreSQL the caching service hears of writes through LISTEN/NOTIFY, also from the other process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT, LISTENER_NAME } from '../../../src/db/notification-listener.js';
import { READS_CHANNEL } from '../../../src/domain/context.js';
import type { ReadCache } from '../../../src/domain/read-cache.js';
import { ADMIN_TOKEN, createGuide, createKey, organizationWithTeams, soloTeam, startTestService, type TestService } from '../../support/service.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../../support/test-database.js';
import { eventually } from '../../support/waiting.js';

let database: TestDatabase;
let dir: string;
let cached: TestService;
let uncached: TestService;
const logLines: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'read-invalidation-'));
  database = usingPostgres ? await testDatabase() : { env: { DATABASE_URL: `file:${join(dir, 'store.db')}` }, drop: async () => undefined };
  cached = await startTestService({ ...database.env, READ_CACHE: 'on', RATE_LIMIT_PER_MINUTE: '1000000' }, { logLines });
  // Only the API: a worker would write to the store all the time, and on SQLite every commit of another
  // process drops the whole cache (it cannot tell what changed).
  uncached = await startTestService({ ...database.env, READ_CACHE: 'off', ROLE: 'api', RATE_LIMIT_PER_MINUTE: '1000000' });
  await eventually('the cache serving', () => cache().serving);
});

afterAll(async () => {
  await cached?.close();
  await uncached?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

function cache(): ReadCache {
  const readCache = cached.service.ctx.readCache;
  if (!readCache) throw new Error('the caching service has no read cache');
  return readCache;
}

interface World {
  orgKey: string;
  teamKey: string;
  soloKey: string;
  organization: { id: string };
  teams: { id: string }[];
  solo: { id: string };
  guides: { id: string; permalink: string }[];
  users: { id: string }[];
}

async function world(): Promise<World> {
  const { organization, teams, key: orgKey } = await organizationWithTeams(cached, 'free', 2);
  const teamKey = (await createKey(cached, { type: 'team', id: teams[0]!.id })).secret;
  const { team: solo, key: soloKey } = await soloTeam(cached, 'free');
  const users = [];
  for (let i = 0; i < 3; i++) users.push(await cached.admin('POST', '/users', { email: `u${i}-${Math.random()}@example.com`, name: `User ${i}` }));
  for (const team of [...teams, solo]) for (const user of users.slice(0, 2)) await cached.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
  // The third user owns a guide later: an owner is a person of the organization, here one of its admins.
  await cached.admin('PUT', `/organizations/${organization.id}/admins/${users[2]!.id}`);
  const guides = [];
  const steps = [{ text: 'One' }, { text: 'Two' }, { text: 'Three' }, { text: 'Four' }, { text: 'Five' }];
  for (const team of [...teams, solo]) {
    for (let i = 0; i < 4; i++) {
      cached.clock.advance(10);
      guides.push(await createGuide(cached, team.id, { title: `Fjord report ${i}`, owner_id: users[i % 2]!.id, steps }));
    }
  }
  return { orgKey, teamKey, soloKey, organization, teams, solo, guides, users };
}

/** Every URL of every key: lists at several limits and a second page, searches, details, teams, members. */
async function urlsOf(w: World): Promise<[string, string][]> {
  const urls: [string, string][] = [];
  for (const key of [w.orgKey, w.teamKey, w.soloKey]) {
    const paths = ['/v1/auth/verify', '/v1/guides', '/v1/guides?limit=1', '/v1/guides?limit=3', '/v1/guides?q=fjord', '/v1/guides?q=report%203', '/v1/teams'];
    for (const list of ['/v1/guides?limit=2', '/v1/guides?q=fjord&limit=2']) {
      const first = (await uncached.get(list, key)).json();
      paths.push(list);
      if (first.next_cursor) paths.push(`${list}&cursor=${encodeURIComponent(first.next_cursor)}`);
    }
    for (const team of [...w.teams, w.solo]) paths.push(`/v1/guides?team_id=${team.id}`, `/v1/members?team_id=${team.id}`);
    for (const guide of w.guides) paths.push(`/v1/guides/${guide.id}`, `/v1/guides/${guide.permalink}`);
    paths.push('/v1/guides/no-such-guide');
    for (const path of paths) urls.push([key, path]);
  }
  return urls;
}

/** Status, entity tag and body; a problem's request_id is each request's own. */
function shown(response: { statusCode: number; headers: Record<string, unknown>; body: string }): string {
  return `${response.statusCode} ${String(response.headers.etag)} ${response.body.replace(/"request_id":"[^"]*"/, '')}`;
}

/** Every answer, read twice from the caching service (the second from the cache), equals the uncached one. */
async function expectSameAnswers(urls: [string, string][], after: string): Promise<void> {
  for (const [key, path] of urls) {
    const expected = await uncached.get(path, key);
    for (let i = 0; i < 2; i++) {
      const got = await cached.get(path, key);
      expect(shown(got), `${after}: ${path}`).toBe(shown(expected));
    }
  }
}

describe('the read cache against the uncached service on the same store', () => {
  it('every answer is byte-identical after every kind of write', async () => {
    const w = await world();
    const urls = await urlsOf(w);
    const [g0, g1, g2] = [w.guides[0]!, w.guides[1]!, w.guides[2]!];
    const writes: [string, () => Promise<unknown>][] = [
      ['guide created', () => createGuide(cached, w.teams[1]!.id, { title: 'Fjord new' })],
      ['title edited', () => cached.admin('PATCH', `/guides/${g0.id}`, { title: 'Renamed fjord' })],
      // g2 was on no page of the search for "report 3" (ids 0, 1, 2 and 3 end each title); now it is.
      ['title now matches a search', () => cached.admin('PATCH', `/guides/${g2.id}`, { title: 'Report 3, again' })],
      ['published', () => cached.admin('PATCH', `/guides/${g1.id}`, { publish_status: 'PUBLISHED' })],
      ['owner changed', () => cached.admin('PATCH', `/guides/${g1.id}`, { owner_id: w.users[2]!.id })],
      ['steps changed', () => cached.admin('PATCH', `/guides/${g2.id}`, { steps: [{ text: 'Only' }] })],
      ['permalink changed', () => cached.admin('PATCH', `/guides/${g2.id}`, { permalink: 'a-new-permalink' })],
      ['guide moved', () => cached.admin('POST', `/guides/${g0.id}/move`, { team_id: w.teams[1]!.id })],
      ['guide deleted', () => cached.adminRaw('DELETE', `/guides/${w.guides[5]!.id}`)],
      ['processing guide finished', async () => {
        const guide = await createGuide(cached, w.solo.id, { title: 'Recorded fjord', processing: true, steps: [{ text: 'x' }] });
        await cached.admin('POST', `/guides/${guide.id}/processing`, { outcome: 'finished' });
      }],
      ['member joined', () => cached.admin('PUT', `/teams/${w.teams[0]!.id}/members/${w.users[2]!.id}`, { role: 'EDITOR' })],
      ['role changed', () => cached.admin('PUT', `/teams/${w.teams[0]!.id}/members/${w.users[0]!.id}`, { role: 'ADMIN' })],
      ['member left', () => cached.adminRaw('DELETE', `/teams/${w.teams[0]!.id}/members/${w.users[1]!.id}`)],
      ['team renamed', () => cached.admin('PATCH', `/teams/${w.teams[1]!.id}`, { name: 'Renamed team' })],
      ['organization plan', () => cached.admin('PATCH', `/organizations/${w.organization.id}`, { plan: 'growth' })],
      ['solo team plan', () => cached.admin('PATCH', `/teams/${w.solo.id}`, { plan: 'growth' })],
      ['solo team joins the organization', () => cached.admin('PATCH', `/teams/${w.solo.id}`, { organization_id: w.organization.id })],
      ['organization keys only', () => cached.admin('PATCH', `/organizations/${w.organization.id}`, { org_keys_only: true })],
      ['team keys again', () => cached.admin('PATCH', `/organizations/${w.organization.id}`, { org_keys_only: false })],
      ['solo team leaves', () => cached.admin('PATCH', `/teams/${w.solo.id}`, { organization_id: null })],
      ['api disabled', () => cached.admin('PATCH', `/organizations/${w.organization.id}`, { api_enabled: false })],
      ['api enabled', () => cached.admin('PATCH', `/organizations/${w.organization.id}`, { api_enabled: true })],
      ['new team in the organization', () => cached.admin('POST', '/teams', { name: 'Late team', organization_id: w.organization.id })],
      ['user created', () => cached.admin('POST', '/users', { email: `late-${Math.random()}@example.com` })],
      ['user renamed in the store', () => cached.service.ctx.db.updateTable('users').set({ name: 'Renamed user' }).where('id', '=', w.users[0]!.id).execute()],
      ['team key revoked', async () => {
        const keys = await cached.admin('GET', `/api-keys?home_type=team&home_id=${w.teams[0]!.id}`);
        for (const key of keys) await cached.adminRaw('DELETE', `/api-keys/${key.id}`);
      }],
    ];
    await expectSameAnswers(urls, 'before any write');
    for (const [name, write] of writes) {
      await write();
      await expectSameAnswers(urls, name);
    }
    expect(cache().stats.hits).toBeGreaterThan(urls.length * writes.length * 0.5);
    // The write straight to the store said nothing of what it changed: everything was dropped, and said.
    expect(logLines.filter((line) => line.includes('without saying what it changed'))).toHaveLength(1);
  }, 180_000);

  it('a title edit drops the pages that show the guide, the searches it enters or leaves, and its detail; it keeps the rest', async () => {
    const w = await world();
    const other = await world();
    // w.guides: four per team, team 0's first, each newer than the one before; the edit is to the oldest.
    const keep = [
      [other.orgKey, '/v1/guides'],
      [other.orgKey, `/v1/guides/${other.guides[0]!.id}`],
      [other.soloKey, '/v1/guides?q=fjord'],
      [w.orgKey, '/v1/teams'],
      [w.orgKey, `/v1/members?team_id=${w.teams[0]!.id}`],
      [w.soloKey, '/v1/guides'],
      [w.orgKey, '/v1/guides?limit=1'], // the newest guide only
      [w.orgKey, `/v1/guides?team_id=${w.teams[1]!.id}`],
      [w.orgKey, `/v1/guides/${w.guides[4]!.id}`], // a guide of the other team of the organization
      [w.teamKey, `/v1/guides/${w.guides[1]!.permalink}`], // another guide of the same team
      [w.orgKey, '/v1/guides?q=zzz'], // a search neither the old title nor the new one matches
      [w.orgKey, '/v1/guides?q=fjord&limit=2'], // both match, and the guide is not on this page
    ];
    const drop = [
      [w.orgKey, '/v1/guides'],
      [w.orgKey, '/v1/guides?q=report'], // the old title matched, the new one does not
      [w.orgKey, '/v1/guides?q=dite'], // the new one matches
      [w.orgKey, '/v1/guides?q=fjord'], // both match, and the page shows the guide
      [w.teamKey, '/v1/guides'],
      [w.orgKey, `/v1/guides/${w.guides[0]!.id}`],
      [w.teamKey, `/v1/guides/${w.guides[0]!.permalink}`],
    ];
    for (const [key, path] of [...keep, ...drop]) await cached.get(path!, key);
    await cached.admin('PATCH', `/guides/${w.guides[0]!.id}`, { title: 'Edited fjord' });
    for (const [key, path] of keep) {
      const misses = cache().stats.misses;
      await cached.get(path!, key);
      expect(cache().stats.misses, `${path} is still kept`).toBe(misses);
    }
    for (const [key, path] of drop) {
      const misses = cache().stats.misses;
      await cached.get(path!, key);
      expect(cache().stats.misses, `${path} was dropped`).toBe(misses + 1);
    }
  });

  it('a new guide drops every page and search over its team, and none of another team', async () => {
    const w = await world();
    const paths = ['/v1/guides?limit=1', '/v1/guides?q=report'];
    for (const path of paths) await cached.get(path, w.soloKey);
    for (const path of paths) await cached.get(path, w.teamKey);
    await createGuide(cached, w.teams[0]!.id, { title: 'Newest' });
    const misses = cache().stats.misses;
    expect((await cached.get('/v1/guides?limit=1', w.teamKey)).json().data[0].title).toBe('Newest');
    await cached.get('/v1/guides?q=report', w.teamKey);
    expect(cache().stats.misses).toBe(misses + 2);
    for (const path of paths) await cached.get(path, w.soloKey);
    expect(cache().stats.misses).toBe(misses + 2);
  });

  it('a membership change drops that team’s members and nothing of its guides', async () => {
    const w = await world();
    const members = `/v1/members?team_id=${w.teams[0]!.id}`;
    const otherMembers = `/v1/members?team_id=${w.teams[1]!.id}`;
    for (const path of [members, otherMembers, '/v1/guides', '/v1/teams']) await cached.get(path, w.orgKey);
    await cached.admin('PUT', `/teams/${w.teams[0]!.id}/members/${w.users[2]!.id}`, { role: 'EDITOR' });
    const misses = cache().stats.misses;
    for (const path of [otherMembers, '/v1/guides', '/v1/teams']) await cached.get(path, w.orgKey);
    expect(cache().stats.misses).toBe(misses);
    expect((await cached.get(members, w.orgKey)).json().data.map((m: { id: string }) => m.id)).toContain(w.users[2]!.id);
    expect(cache().stats.misses).toBe(misses + 1);
  });

  it('revoking a key drops that key’s answers and no other key’s', async () => {
    const w = await world();
    const revoked = await createKey(cached, { type: 'team', id: w.teams[0]!.id });
    const paths = ['/v1/guides', `/v1/guides/${w.guides[0]!.id}`, '/v1/teams'];
    for (const key of [revoked.secret, w.teamKey, w.orgKey]) for (const path of paths) await cached.get(path, key);
    expect((await cached.adminRaw('DELETE', `/api-keys/${revoked.id}`)).statusCode).toBe(204);
    const misses = cache().stats.misses;
    for (const key of [w.teamKey, w.orgKey]) for (const path of paths) await cached.get(path, key);
    expect(cache().stats.misses, 'the same team’s other keys are still served from the cache').toBe(misses);
    expect((await cached.get('/v1/guides', revoked.secret)).statusCode).toBe(401);
  });

  it('an organization’s policy change drops its keys’ answers and none of another organization’s or team’s', async () => {
    const w = await world();
    const other = await world();
    const paths = ['/v1/guides', '/v1/guides?q=fjord', '/v1/teams'];
    const keep = [other.orgKey, other.teamKey, w.soloKey];
    for (const key of [w.orgKey, w.teamKey, ...keep]) for (const path of paths) await cached.get(path, key);
    await cached.admin('PATCH', `/organizations/${w.organization.id}`, { org_keys_only: true });
    const misses = cache().stats.misses;
    for (const key of keep) for (const path of paths) await cached.get(path, key);
    expect(cache().stats.misses, 'other homes’ answers are still served from the cache').toBe(misses);
    // The team key of that organization is refused now, and its organization key's answers are computed anew.
    expect((await cached.get('/v1/guides', w.teamKey)).statusCode).toBe(403);
    expect((await cached.get('/v1/guides', w.orgKey)).statusCode).toBe(200);
    expect(cache().stats.misses).toBeGreaterThan(misses);
  });

  it('every v1 read says what it depends on, so every answer is kept (no read of an undeclared table)', async () => {
    const w = await world();
    const urls = await urlsOf(w);
    for (const [key, path] of urls) await cached.get(path, key);
    const misses = cache().stats.misses;
    let problems = 0;
    for (const [key, path] of urls) if ((await cached.get(path, key)).statusCode !== 200) problems += 1;
    expect(logLines.filter((line) => line.includes('never kept'))).toEqual([]);
    // A problem (a 404 for another team's id, an unknown guide) is computed every time; answers are kept.
    expect(problems).toBeGreaterThan(0);
    expect(cache().stats.misses).toBe(misses + problems);
  });

  it('writes by the other process are seen by the cache', async () => {
    const w = await world();
    const guide = w.guides[0]!;
    expect((await cached.get(`/v1/guides/${guide.id}`, w.orgKey)).json().data.title).toBe('Fjord report 0');
    await uncached.admin('PATCH', `/guides/${guide.id}`, { title: 'Edited elsewhere' });
    // On SQLite the next look-up sees the commit; through LISTEN/NOTIFY it takes a notification's trip.
    await eventually('the edit seen', async () => ((await cached.get(`/v1/guides/${guide.id}`, w.orgKey)).json().data.title === 'Edited elsewhere' ? true : undefined), {
      timeoutMs: 5000,
    });
    expect((await cached.get(`/v1/guides?q=elsewhere`, w.orgKey)).json().data.map((g: { id: string }) => g.id)).toEqual([guide.id]);
  });
});

/** The server processes of this database's listening connections (both services'). */
async function listenerBackends(): Promise<number[]> {
  const admin = new pg.Client({ connectionString: database.env.DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1 and datname = current_database()', [LISTENER_NAME]);
    return rows.map((row) => row.pid);
  } finally {
    await admin.end();
  }
}

describe.runIf(usingPostgres)('PostgreSQL: the listening connection', () => {
  it('while it is down nothing is served from the cache, and once it is back the cache serves again', async () => {
    const w = await world();
    const path = `/v1/guides/${w.guides[0]!.id}`;
    await cached.get(path, w.orgKey);
    // Cut the listeners off (SIGTERM is what pg_terminate_backend sends); notifications can no longer reach them.
    const cut = await listenerBackends();
    expect(cut.length).toBeGreaterThan(0);
    for (const pid of cut) process.kill(pid, 'SIGTERM');
    await eventually('the cache suspended', () => !cache().serving);
    await uncached.admin('PATCH', `/guides/${w.guides[0]!.id}`, { title: 'Written while nobody listened' });
    expect((await cached.get(path, w.orgKey)).json().data.title).toBe('Written while nobody listened');
    await eventually('listening again', () => cache().serving, { timeoutMs: 10_000 });
    await cached.get(path, w.orgKey);
    const misses = cache().stats.misses;
    expect((await cached.get(path, w.orgKey)).json().data.title).toBe('Written while nobody listened');
    expect(cache().stats.misses, 'the key and the answer both served from the cache').toBe(misses);
  });

  it('a listening connection that goes quiet without closing is found by its heartbeat: the cache suspends until listening again', async () => {
    const w = await world();
    const path = `/v1/guides/${w.guides[0]!.id}`;
    await cached.get(path, w.orgKey);
    // The listeners' server processes stopped, not ended: their connections stay open and say nothing, as
    // ones to a host that is gone would.
    const quiet = await listenerBackends();
    expect(quiet.length).toBeGreaterThan(0);
    for (const pid of quiet) process.kill(pid, 'SIGSTOP');
    try {
      await eventually('the cache suspended', () => !cache().serving, { timeoutMs: HEARTBEAT.everyMs + HEARTBEAT.timeoutMs + 2000 });
      await uncached.admin('PATCH', `/guides/${w.guides[0]!.id}`, { title: 'Written while the listener was quiet' });
      expect((await cached.get(path, w.orgKey)).json().data.title).toBe('Written while the listener was quiet');
      await eventually('listening again on a new connection', () => cache().serving, { timeoutMs: 10_000 });
      expect(logLines.some((line) => line.includes('no heartbeat back'))).toBe(true);
    } finally {
      for (const pid of quiet) process.kill(pid, 'SIGCONT');
    }
  });

  it('a keyed write tells the other processes what it changed when its one transaction commits', async () => {
    const w = await world();
    const guide = w.guides[0]!;
    const listener = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (notice) => heard.push(notice.payload ?? ''));
    try {
      await listener.query(`LISTEN ${READS_CHANNEL}`);
      const edit = await uncached.service.app.inject({
        method: 'PATCH',
        url: `/admin/v1/guides/${guide.id}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': `read-invalidation-${guide.id}` },
        payload: JSON.stringify({ title: 'Edited elsewhere with a key' }),
      });
      expect(edit.statusCode).toBe(200);
      // Without the notification the other process's cache would serve the old title until it next dropped everything.
      await eventually('the change announced', () => (heard.some((payload) => payload.includes(guide.id)) ? true : undefined));
      await eventually('the keyed edit seen', async () => ((await cached.get(`/v1/guides/${guide.id}`, w.orgKey)).json().data.title === 'Edited elsewhere with a key' ? true : undefined));
    } finally {
      await listener.end();
    }
  });
});

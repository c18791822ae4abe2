// `--only feed` (issue 17): what a page of GET /v1/events costs next to a page of GET /v1/guides on the same
// store and service, with the outbox holding `--feed-events` events (1,000,000 by default, 100,000 with
// --quick), and how much memory 200 clients holding `wait=30` add to the service. The events are written
// straight into the store (what the bulk loader does for guides): realistic guide.created envelopes,
// spread over every team in turn, so an organization key's feed is one range among many.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import type { BenchOptions } from '../options.js';
import { type Child, memoryOf, sampleRss } from '../processes.js';
import { drain } from '../reads/read-bench.js';
import { serviceStarter, UNREACHED_RATE_LIMIT } from '../services.js';
import { type LoadedStore, prepareStore, shapeFor } from '../store.js';
import { failedRequests, runWrk, type WrkMeasurement } from '../wrk.js';

export interface FeedPageResult {
  id: string;
  label: string;
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface FeedBenchResult {
  guides: number;
  events: number;
  /** Events in the organization key's feed. */
  organizationEvents: number;
  pages: FeedPageResult[];
  /** Feed page req/s over the guide page's of the same key (1.0: as cheap). */
  ratios: { organization: number; team: number; organizationDeep: number };
  /** rssHeldMb: the highest sample while the clients arrive and wait. */
  waiting: { clients: number; keys: number; rssBeforeMb: number; rssHeldMb: number; growthMb: number; answeredEmpty: number; heldMs: number };
}

const DAY_MS = 86_400_000;

/** Writes `count` guide.created events over the store's teams, oldest first, unless the store has them. */
function fillOutbox(store: LoadedStore, count: number, appUrl: string, log: (line: string) => void): void {
  const db = new Database(store.databaseUrl.slice('file:'.length));
  try {
    const have = (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    if (have >= count) {
      log(`  the outbox already holds ${have.toLocaleString('en')} events`);
      return;
    }
    const teams = db.prepare('SELECT id, organization_id FROM teams ORDER BY id').all() as { id: string; organization_id: string | null }[];
    const insert = db.prepare('INSERT INTO events (id, type, team_id, organization_id, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    // Inside the feed's retention: from a day ago, a millisecond apart.
    const start = Date.now() - DAY_MS;
    const started = performance.now();
    db.transaction(() => {
      for (let i = have; i < count; i++) {
        const team = teams[i % teams.length]!;
        const id = randomUUID();
        const guideId = randomUUID();
        const createdAt = new Date(start + i).toISOString();
        const envelope = {
          id,
          created_at: createdAt,
          team_id: team.id,
          organization_id: team.organization_id,
          type: 'guide.created',
          data: {
            guide: {
              id: guideId,
              title: `Quarterly report ${i}`,
              description: 'How to file the quarterly report for the team, step by step.',
              permalink: `quarterly-report-${i.toString(36)}`,
              updated_at: createdAt,
              team_id: team.id,
              folder_id: null,
              language: 'en',
              url: `${appUrl}/guides/${guideId}`,
            },
            placement: { team_guides: true, public_link: false },
            changed: [],
          },
        };
        insert.run(id, 'guide.created', team.id, team.organization_id, JSON.stringify(envelope), createdAt);
      }
    })();
    db.pragma('optimize');
    log(`  wrote ${(count - have).toLocaleString('en')} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    db.close();
  }
}

async function getJson(url: string, key: string): Promise<any> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** The cursor halfway down a key's feed, found by paging. */
async function halfwayCursor(url: string, key: string, total: number): Promise<string> {
  let after: string | null = null;
  for (let read = 0; read < total / 2; ) {
    const page: { data: unknown[]; next_cursor: string | null } = await getJson(`${url}/v1/events?limit=100${after ? `&after=${after}` : ''}`, key);
    if (page.data.length === 0) break;
    read += page.data.length;
    after = page.next_cursor;
  }
  if (!after) throw new Error('the organization key has no events');
  return after;
}

export async function runFeedBench(options: BenchOptions, log: (line: string) => void): Promise<{ result: FeedBenchResult | null; problems: string[] }> {
  const problems: string[] = [];
  const guides = options.guides[options.guides.length - 1]!;
  const children: Child[] = [];
  let store: LoadedStore | null = null;
  try {
    store = await prepareStore(shapeFor(guides), options.reuse, log);
    fillOutbox(store, options.feedEvents, 'http://localhost:3000', log);
    // Both lists computed on every request: the feed is never cached, so the guide page is not either.
    const start = serviceStarter(children, { databaseUrl: store.databaseUrl, dataDir: store.dir }, { READ_CACHE: 'off', RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT });
    const service = await start('api');
    const { organizationKey, teamKey } = store.ids;
    const organizationId: string = (await getJson(`${service.url}/v1/auth/verify`, organizationKey)).data.home.id;
    const organizationEvents = options.feedEvents / shapeFor(guides).teams * (await getJson(`${service.url}/v1/teams`, organizationKey)).data.length;
    const deep = await halfwayCursor(service.url, organizationKey, organizationEvents);

    const scenarios = [
      { id: 'guides-org', label: 'GET /v1/guides?limit=50, organization key', key: organizationKey, path: '/v1/guides?limit=50' },
      { id: 'feed-org', label: 'GET /v1/events?limit=50, organization key, from the oldest', key: organizationKey, path: '/v1/events?limit=50' },
      { id: 'feed-org-deep', label: 'the same, halfway down its feed', key: organizationKey, path: `/v1/events?limit=50&after=${deep}` },
      { id: 'guides-team', label: 'GET /v1/guides?limit=50, team key', key: teamKey, path: '/v1/guides?limit=50' },
      { id: 'feed-team', label: 'GET /v1/events?limit=50, team key', key: teamKey, path: '/v1/events?limit=50' },
    ];
    const load = (scenario: (typeof scenarios)[number], seconds: number) => ({
      url: service.url + scenario.path,
      headers: { authorization: `Bearer ${scenario.key}` },
      connections: options.connections,
      threads: options.threads,
      seconds,
    });
    for (const scenario of scenarios) {
      await getJson(service.url + scenario.path, scenario.key);
      await runWrk(load(scenario, options.warmupSeconds));
      await drain(service.url);
    }
    // Scenarios take turns, round after round, so that a slow spell of the machine falls on all of them.
    const rounds = new Map<string, WrkMeasurement[]>();
    const roundSeconds = options.rounds === 1 ? options.seconds : Math.max(2, Math.round(options.seconds / options.rounds));
    for (let round = 0; round < options.rounds; round++) {
      for (const scenario of scenarios) {
        const measured = await runWrk(load(scenario, roundSeconds));
        const failed = failedRequests(measured);
        if (failed > 0) problems.push(`feed: ${scenario.id}: ${failed} of ${measured.requests} requests failed`);
        rounds.set(scenario.id, [...(rounds.get(scenario.id) ?? []), measured]);
        await drain(service.url);
      }
    }
    const pages: FeedPageResult[] = scenarios.map((scenario) => {
      const taken = [...rounds.get(scenario.id)!].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
      const median = taken[Math.floor(taken.length / 2)]!;
      log(`  ${scenario.id.padEnd(14)} ${median.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${median.p50Ms.toFixed(2)} ms  p99 ${median.p99Ms.toFixed(2)} ms  (rounds ${taken.map((m) => m.requestsPerSecond.toFixed(0)).join('/')})`);
      return { id: scenario.id, label: scenario.label, path: scenario.path.replace(deep, '<halfway>'), requestsPerSecond: median.requestsPerSecond, p50Ms: median.p50Ms, p99Ms: median.p99Ms };
    });
    const rate = (id: string) => pages.find((page) => page.id === id)!.requestsPerSecond;
    const ratios = { organization: rate('feed-org') / rate('guides-org'), team: rate('feed-team') / rate('guides-team'), organizationDeep: rate('feed-org-deep') / rate('guides-org') };
    log(`  feed / guides: organization ${ratios.organization.toFixed(2)}, halfway ${ratios.organizationDeep.toFixed(2)}, team ${ratios.team.toFixed(2)}`);

    // 200 clients tailing the feed: 20 keys of the organization (a key holds at most 10), each request
    // asking for a type that never comes, so it is held the whole 30 seconds.
    const clients = 200;
    const keys: string[] = [];
    for (let i = 0; i < clients / 10; i++) {
      const created = await service.admin.send<{ secret: string }>('POST', '/api-keys', {
        home: { type: 'organization', id: organizationId },
        name: `tail ${i}`,
        scopes: ['guides:read', 'members:read'],
        expires_in_days: null,
      });
      keys.push(created.secret);
    }
    // Warm: each key admitted once, and the feed's path taken, so only the holding is measured.
    for (const key of keys) await getJson(`${service.url}/v1/events?types=member.left`, key);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssBeforeMb = memoryOf(service.child.pid)!.rssMb;
    // The highest resident memory while the requests arrive and are held, against the quiet service before.
    const sampling = sampleRss(service.child.pid, 50);
    const dispatcher = new Agent({ connections: clients * 2, headersTimeout: 120_000, bodyTimeout: 120_000 });
    const heldStarted = performance.now();
    const answers = Array.from({ length: clients }, (_, i) =>
      request(`${service.url}/v1/events?types=member.left&wait=30`, { headers: { authorization: `Bearer ${keys[i % keys.length]}` }, dispatcher }).then(
        async (response) => ({ status: response.statusCode, body: (await response.body.json()) as { data: unknown[] } }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const rssHeldMb = sampling.stop();
    const settled = await Promise.all(answers);
    const heldMs = performance.now() - heldStarted;
    await dispatcher.close();
    const answeredEmpty = settled.filter((answer) => answer.status === 200 && answer.body.data.length === 0).length;
    if (answeredEmpty !== clients) problems.push(`feed: ${clients - answeredEmpty} of ${clients} waiting clients were not answered an empty page`);
    if (heldMs < 29_000) problems.push(`feed: the waiting clients were answered after ${heldMs.toFixed(0)} ms, before their 30 s`);
    const waiting = { clients, keys: keys.length, rssBeforeMb, rssHeldMb, growthMb: rssHeldMb - rssBeforeMb, answeredEmpty, heldMs };
    log(`  ${clients} clients holding wait=30: RSS ${rssBeforeMb.toFixed(1)} MiB before, at most ${rssHeldMb.toFixed(1)} MiB while held (+${waiting.growthMb.toFixed(1)}), all answered after ${(heldMs / 1000).toFixed(1)} s`);
    return { result: { guides, events: options.feedEvents, organizationEvents, pages, ratios, waiting }, problems };
  } catch (error) {
    const message = `feed failed: ${error instanceof Error ? error.message : String(error)}`;
    log(message);
    return { result: null, problems: [...problems, message] };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    store?.release();
  }
}

// What a backup must keep, checked the way a client would see it: a write load through the management API
// that records when each write was answered, and a check that a service started on a restored copy serves
// every write answered before the backup began, through v1 (each answer asked twice, so the second comes
// from the read cache) and through the events feed. Shared by the embedded store's backup test
// (test/cli/backup.test.ts) and PostgreSQL's (test/db/postgres-backup.test.ts).
import { performance } from 'node:perf_hooks';
import { ADMIN_TOKEN } from '../support/service.js';

/**
 * A call that must succeed; answers the body's `data` (or the whole body when `whole`). A 503 (the store
 * busy: another process held its write lock) changed nothing and is asked again, as clients do; `unavailable`
 * hears when it came.
 */
async function call(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  whole = false,
  unavailable?: (at: number) => void,
  sending?: (at: number) => void,
): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    sending?.(performance.now());
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 503 && unavailable && attempt < 50) {
      unavailable(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    const parsed = text ? JSON.parse(text) : null;
    return whole ? parsed : parsed?.data;
  }
}

/** A team on the Growth plan (full guides through v1) and a key of it that reads everything. */
export async function readerTeam(base: string): Promise<{ teamId: string; key: string }> {
  const team = await call(base, 'POST', '/admin/v1/teams', ADMIN_TOKEN, { name: 'Backed up', plan: 'growth' });
  const created = await call(
    base,
    'POST',
    '/admin/v1/api-keys',
    ADMIN_TOKEN,
    { home: { type: 'team', id: team.id }, name: 'restore check', scopes: ['guides:read', 'teams:read', 'members:read'], expires_in_days: null },
    true,
  );
  return { teamId: team.id, key: created.secret };
}

/** A guide as the load wrote it: its title carries its version, which only goes up. */
interface WrittenGuide {
  id: string;
  writer: number;
  /**
   * Titles in the order they were answered (creation first); each with when its request was sent (the
   * last time, if a 503 had it sent again) and when its answer arrived.
   */
  titles: { title: string; version: number; sentAt: number; answeredAt: number }[];
}

interface WrittenMember {
  userId: string;
  answeredAt: number;
}

/** What was answered before a moment: the guides with their newest title then, and the members. */
export interface Acknowledged {
  guides: { id: string; title: string; version: number; allTitles: string[] }[];
  /** Every title answered before the moment: each needs its guide.created or guide.updated event. */
  titles: { guideId: string; title: string; kind: 'created' | 'updated' }[];
  members: string[];
}

const title = (writer: number, serial: number, version: number) => `Writer ${writer} guide ${serial} version ${version}`;
const versionOf = (text: string) => Number(/ version (\d+)$/.exec(text)?.[1] ?? -1);

/**
 * Writers creating guides, retitling the guides they made (each writer only its own, one call at a time,
 * so a guide's titles commit in the order they are answered) and adding members, as fast as the service
 * answers, until stopped.
 */
export class WriteLoad {
  readonly guides: WrittenGuide[] = [];
  readonly members: WrittenMember[] = [];
  /** Answers of 2xx, and failures (anything but 2xx and 503 stops the writer: the service must take every write). */
  answered = 0;
  readonly failures: string[] = [];
  /** When the service answered 503 (asked again), as performance.now() readings. */
  readonly unavailable: number[] = [];
  private stopped = false;
  private readonly loops: Promise<void>[];

  constructor(
    private readonly base: string,
    private readonly teamId: string,
    writers = 4,
  ) {
    this.loops = Array.from({ length: writers }, (_, writer) => this.run(writer));
  }

  private async run(writer: number): Promise<void> {
    const mine: WrittenGuide[] = [];
    let sentAt = 0;
    const admin = (method: string, path: string, body: unknown) =>
      call(this.base, method, path, ADMIN_TOKEN, body, false, (at) => this.unavailable.push(at), (at) => (sentAt = at));
    for (let n = 1; !this.stopped; n++) {
      try {
        if (n % 5 === 0) {
          const user = await admin('POST', '/admin/v1/users', { email: `writer${writer}-${n}-${Math.random().toString(36).slice(2, 8)}@backup.example`, name: `Writer ${writer} member ${n}` });
          await admin('PUT', `/admin/v1/teams/${this.teamId}/members/${user.id}`, { role: 'VIEWER' });
          this.members.push({ userId: user.id, answeredAt: performance.now() });
        } else if (n % 3 === 0 && mine.length > 0) {
          const guide = mine[Math.floor(Math.random() * mine.length)]!;
          const serial = Number(/ guide (\d+) /.exec(guide.titles[0]!.title)![1]);
          const version = guide.titles.at(-1)!.version + 1;
          await admin('PATCH', `/admin/v1/guides/${guide.id}`, { title: title(writer, serial, version) });
          guide.titles.push({ title: title(writer, serial, version), version, sentAt, answeredAt: performance.now() });
        } else {
          const text = title(writer, n, 1);
          const guide = await admin('POST', '/admin/v1/guides', { team_id: this.teamId, title: text });
          const written = { id: guide.id as string, writer, titles: [{ title: text, version: 1, sentAt, answeredAt: performance.now() }] };
          mine.push(written);
          this.guides.push(written);
        }
        this.answered++;
      } catch (error) {
        this.failures.push(error instanceof Error ? error.message : String(error));
        return;
      }
    }
  }

  /** Waits until `count` more writes have been answered (or a write failed). */
  async further(count: number): Promise<void> {
    const target = this.answered + count;
    while (this.answered < target && this.failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  /** What had been answered before `moment` (a performance.now() reading). */
  answeredBefore(moment: number): Acknowledged {
    const acknowledged: Acknowledged = { guides: [], titles: [], members: [] };
    for (const guide of this.guides) {
      const before = guide.titles.filter((entry) => entry.answeredAt < moment);
      if (before.length === 0) continue;
      const newest = before.at(-1)!;
      acknowledged.guides.push({ id: guide.id, title: newest.title, version: newest.version, allTitles: guide.titles.map((entry) => entry.title) });
      for (const entry of before) acknowledged.titles.push({ guideId: guide.id, title: entry.title, kind: entry.version === 1 ? 'created' : 'updated' });
    }
    acknowledged.members = this.members.filter((member) => member.answeredAt < moment).map((member) => member.userId);
    return acknowledged;
  }
}

/** Reads some answers so that the service caches them: a page of guides, some guides, the members. */
export async function readSome(base: string, key: string, teamId: string, guideIds: string[]): Promise<void> {
  const paths = ['/v1/guides?limit=100', `/v1/members?team_id=${teamId}`, ...guideIds.map((id) => `/v1/guides/${id}`)];
  // Twice each: the second is answered from the cache the first filled.
  for (let round = 0; round < 2; round++) for (const path of paths) await call(base, 'GET', path, key, undefined, true);
}

/** Asks for `path` twice (the second answer comes from the read cache) and answers the body; differing answers are a problem. */
async function twice(base: string, key: string, path: string, problems: string[]): Promise<any> {
  const ask = async () => {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
  };
  const first = await ask();
  const second = await ask();
  if (first.status !== 200) {
    problems.push(`GET ${path}: ${first.status} ${first.body.slice(0, 200)}`);
    return null;
  }
  if (second.status !== first.status || second.body !== first.body || second.etag !== first.etag) {
    problems.push(`GET ${path}: the cached answer differs from the first (${second.status}, ${second.etag} against ${first.etag})`);
  }
  return JSON.parse(first.body);
}

/**
 * What the service at `base` fails to serve of `acknowledged`, in words; empty when it serves all of it. A
 * guide may show a newer title than the one answered before the moment (a write after it may be in the
 * copy too), never an older one.
 */
export async function missingFrom(base: string, key: string, teamId: string, acknowledged: Acknowledged): Promise<string[]> {
  const problems: string[] = [];

  for (const guide of acknowledged.guides) {
    const detail = await twice(base, key, `/v1/guides/${guide.id}`, problems);
    if (!detail) continue;
    const served: string = detail.data.title;
    if (!guide.allTitles.includes(served) || versionOf(served) < guide.version) {
      problems.push(`guide ${guide.id}: served "${served}", but "${guide.title}" was answered before the backup`);
    }
  }

  const listed = new Set<string>();
  for (let cursor: string | null = null, pages = 0; pages < 1000; pages++) {
    const page = await twice(base, key, `/v1/guides?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, problems);
    if (!page) break;
    for (const item of page.data) listed.add(item.id);
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  for (const guide of acknowledged.guides) if (!listed.has(guide.id)) problems.push(`guide ${guide.id} is not in GET /v1/guides`);

  const members = await twice(base, key, `/v1/members?team_id=${teamId}`, problems);
  const memberIds = new Set<string>((members?.data ?? []).map((member: { id: string }) => member.id));
  for (const userId of acknowledged.members) if (!memberIds.has(userId)) problems.push(`member ${userId} is not in GET /v1/members`);

  // The events feed, oldest first, to its end.
  const events: any[] = [];
  for (let after: string | null = null, pages = 0; pages < 1000; pages++) {
    const response = await fetch(`${base}/v1/events?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
    if (response.status !== 200) {
      problems.push(`GET /v1/events: ${response.status} ${(await response.text()).slice(0, 200)}`);
      break;
    }
    const page = (await response.json()) as { data: any[]; next_cursor: string | null };
    events.push(...page.data);
    if (page.data.length === 0 || page.next_cursor === null) break;
    after = page.next_cursor;
  }
  const seen = new Set(
    events.flatMap((event) => (event.type === 'guide.created' || event.type === 'guide.updated' ? [`${event.type} ${event.data.guide.id} ${event.data.guide.title}`] : [])),
  );
  for (const entry of acknowledged.titles) {
    if (!seen.has(`guide.${entry.kind} ${entry.guideId} ${entry.title}`)) problems.push(`no guide.${entry.kind} event of guide ${entry.guideId} titled "${entry.title}" in GET /v1/events`);
  }
  const joined = new Set(events.filter((event) => event.type === 'member.joined').map((event) => event.data.member.user_id as string));
  for (const userId of acknowledged.members) if (!joined.has(userId)) problems.push(`no member.joined event of ${userId} in GET /v1/events`);

  return problems;
}

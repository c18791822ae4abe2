// The events feed (issue 17, docs/decisions.md "Events feed"): the events a key reaches, oldest first, read
// from the outbox the webhooks are sent from, each exactly the bytes a delivery carries. A key reaches what
// an endpoint of its home would have been sent: a team key its team's events, an organization key the
// events recorded while their team was in the organization (decisions §6), so a team that joins later
// appears from then on and one that leaves keeps what it wrote meanwhile.
import { sql } from 'kysely';
import type { Scope } from './api-keys.js';
import type { DomainContext, Executor } from './context.js';
import { SUBSCRIBABLE_EVENTS } from './events.js';
import type { KeysetPosition } from './keyset-cursor.js';
import type { Home } from './homes.js';

/** Every type of the feed: `ping` only tests an endpoint and is never in it. */
export const FEED_EVENT_TYPES = SUBSCRIBABLE_EVENTS;
export type FeedEventType = (typeof FEED_EVENT_TYPES)[number];

/** The scope a key needs to see an event type: the scope of the resource the event is about. */
export function scopeOfEventType(type: FeedEventType): Scope {
  return type.startsWith('member.') ? 'members:read' : 'guides:read';
}

/** The types a key's scopes let it see, in the specification's order. */
export function eventTypesFor(scopes: readonly Scope[]): FeedEventType[] {
  return FEED_EVENT_TYPES.filter((type) => scopes.includes(scopeOfEventType(type)));
}

export interface FeedView {
  home: Home;
  types: readonly FeedEventType[];
}

export type FeedPage =
  | {
      outcome: 'page';
      /** Each event's envelope as stored: the very bytes its deliveries carry. */
      payloads: string[];
      /** The last event of the page; with an empty page, where the client already was. */
      next: KeysetPosition | null;
    }
  /** The cursor lies before what retention still keeps of this view: some event after it may be gone. */
  | { outcome: 'expired' };

/** The created_at of the newest event retention took out of this home's feed, or null while none was. */
async function horizonOf(db: Executor, home: Home): Promise<string | null> {
  const row = await db
    .selectFrom('event_feed_horizons')
    .select('dropped_through')
    .where('home_type', '=', home.type)
    .where('home_id', '=', home.id)
    .executeTakeFirst();
  return row?.dropped_through ?? null;
}

/**
 * One page of the feed after `after` (the last event a client read; null: from the oldest kept). The
 * position a cursor names is an event; where that event stands in commit order is read from its row. If
 * retention removed it, the cursor still holds when nothing newer of this home was removed with it.
 */
export async function eventFeedPage(ctx: DomainContext, view: FeedView, after: KeysetPosition | null, limit: number): Promise<FeedPage> {
  const horizon = await horizonOf(ctx.db, view.home);
  let anchor: { feed_txid: string | number; seq: number } | null = null;
  if (after) {
    const row = await ctx.db.selectFrom('events').select(['feed_txid', 'seq', 'created_at']).where('id', '=', after.id).executeTakeFirst();
    // Anything this home lost to retention that is newer than the cursor's event may be an event the
    // client never read: refuse rather than skip. (The cursor's own event being the newest lost is fine.)
    if (horizon !== null && (row?.created_at ?? after.createdAt) < horizon) return { outcome: 'expired' };
    if (!row && horizon === null) return { outcome: 'expired' };
    if (row) anchor = { feed_txid: row.feed_txid, seq: row.seq };
  }

  const column = view.home.type === 'team' ? 'team_id' : 'organization_id';
  let query = ctx.db
    .selectFrom('events')
    .select(['id', 'created_at', 'payload'])
    .where(column, '=', view.home.id)
    .where('type', 'in', [...view.types])
    // A test an admin sent to one endpoint never happened: it is not in the feed.
    .where('test', '=', 0)
    .orderBy('feed_txid')
    .orderBy('seq')
    .limit(limit);
  if (horizon !== null) query = query.where('created_at', '>', horizon);
  if (anchor) {
    // PostgreSQL seeks the row comparison on the index; SQLite would seek on its first column only, and
    // every SQLite row has feed_txid 0, so there it is an equality and a range on seq.
    query =
      ctx.dialect === 'postgres'
        ? query.where(sql<boolean>`(feed_txid, seq) > (cast(${String(anchor.feed_txid)} as xid8), ${anchor.seq})`)
        : query.where('feed_txid', '=', 0).where('seq', '>', anchor.seq);
  }
  // Only transactions that have all ended: one still running may yet commit an event before these.
  if (ctx.dialect === 'postgres') query = query.where(sql<boolean>`feed_txid < pg_snapshot_xmin(pg_current_snapshot())`);
  const rows = await query.execute();
  const last = rows[rows.length - 1];
  return { outcome: 'page', payloads: rows.map((row) => row.payload), next: last ? { createdAt: last.created_at, id: last.id } : after };
}

/**
 * Takes every event older than `cutoff` out of the feed, whether or not it is deleted now (an event a
 * paused endpoint still has to redeliver stays in the outbox, not in the feed): each team's and each
 * organization's horizon moves up to the newest of them.
 */
export async function dropFromFeed(db: Executor, cutoff: string): Promise<void> {
  for (const [homeType, column] of [
    ['team', 'team_id'],
    ['organization', 'organization_id'],
  ] as const) {
    await sql`
      INSERT INTO event_feed_horizons (home_type, home_id, dropped_through)
      SELECT cast(${homeType} as text), ${sql.ref(column)}, max(created_at) FROM events
      WHERE created_at < ${cutoff} AND ${sql.ref(column)} IS NOT NULL
      GROUP BY ${sql.ref(column)}
      ON CONFLICT (home_type, home_id) DO UPDATE SET dropped_through = excluded.dropped_through
      WHERE excluded.dropped_through > event_feed_horizons.dropped_through`.execute(db);
  }
}

/** The newest event's seq: whether anything was recorded since the last look (one index step). */
export async function newestEventSeq(db: Executor): Promise<number | null> {
  const row = await db.selectFrom('events').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
  return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
}

/**
 * On PostgreSQL: whether the feed holds events of transactions the server has not reached yet, which a
 * dump restored onto another server leaves behind (its counter is behind the dump's). The feed shows only
 * transactions older than every running one, so it hides those events until the counter catches up, and
 * puts new events before them (docs/deploy.md, "Restoring a dump onto another server").
 */
export async function feedAheadOfServer(db: Executor): Promise<boolean> {
  const { rows } = await sql<{ ahead: boolean | null }>`SELECT max(feed_txid) >= pg_snapshot_xmax(pg_current_snapshot()) AS ahead FROM events`.execute(db);
  return rows[0]?.ahead === true;
}

// The pollable events feed (GET /v1/events, docs/decisions.md "Events feed") reads the outbox in the
// order events were committed, so that a client that has read past an event can never be overtaken by
// one committed later with an earlier position.
// - SQLite writes one transaction at a time, so `seq` (the rowid) already is commit order: `feed_txid`
//   is 0 on every row.
// - PostgreSQL hands out `seq` when a row is inserted, not when it commits. Each row also records the
//   transaction that wrote it (`feed_txid`, a 64-bit xid that never wraps); the feed is ordered by
//   (feed_txid, seq) and shows only rows whose transaction is older than every transaction still running
//   (`pg_snapshot_xmin`), so nothing can later appear before what a client has already read.
// Each key reads one range of one of two indexes (its team's, or its organization's as the event recorded
// it), with the type and created_at inside the index so that filters are checked without the table.
// `event_feed_horizons` remembers, per team and per organization, the newest event that retention has
// taken out of the feed, so that a cursor from before it is refused rather than silently skipping.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { textType } from './column-types.js';

export function eventsFeed(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const text = textType(dialect);
      if (dialect === 'postgres') {
        await sql`ALTER TABLE events ADD COLUMN feed_txid xid8 NOT NULL DEFAULT pg_current_xact_id()`.execute(db);
        await sql`CREATE INDEX events_feed_team ON events (team_id, feed_txid, seq) INCLUDE (type, created_at)`.execute(db);
        await sql`CREATE INDEX events_feed_organization ON events (organization_id, feed_txid, seq) INCLUDE (type, created_at) WHERE organization_id IS NOT NULL`.execute(db);
      } else {
        await sql`ALTER TABLE events ADD COLUMN feed_txid integer NOT NULL DEFAULT 0`.execute(db);
        await sql`CREATE INDEX events_feed_team ON events (team_id, feed_txid, seq, type, created_at)`.execute(db);
        await sql`CREATE INDEX events_feed_organization ON events (organization_id, feed_txid, seq, type, created_at) WHERE organization_id IS NOT NULL`.execute(db);
      }
      await db.schema
        .createTable('event_feed_horizons')
        .addColumn('home_type', text, (c) => c.notNull())
        .addColumn('home_id', text, (c) => c.notNull())
        .addColumn('dropped_through', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('event_feed_horizons_pk', ['home_type', 'home_id'])
        .execute();
    },
  };
}

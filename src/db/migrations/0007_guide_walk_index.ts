// Listing and searching walk each team's guides newest first. The team index now carries what the walk
// tests (the processing state and the folded title), so the walk never reads a guide's row, which is
// large because it holds the steps; only the guides on the page are read. It replaces the narrower
// (team_id, created_at, id) index, which it starts with.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

export function guideWalkIndex(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`CREATE INDEX guides_team_walk ON guides (team_id, created_at, id) INCLUDE (processing_state, title_folded)`.execute(db);
      } else {
        await db.schema.createIndex('guides_team_walk').on('guides').columns(['team_id', 'created_at', 'id', 'processing_state', 'title_folded']).execute();
      }
      await db.schema.dropIndex('guides_team_order').execute();
    },
  };
}

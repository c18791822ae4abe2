// An organization key lists the newest guides of every team of its organization. Merging each team's
// range of the team index reads up to (teams × page) entries and sorts them; with the organization kept
// on each guide, one range of an index of its own holds the page, so an organization's list costs about
// what a team's does. The column follows the team: a team that joins or leaves an organization takes
// its guides along (src/domain/teams.ts), a moved guide takes its new team's.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

export function guideOrganizationWalk(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('guides').addColumn('organization_id', 'text').execute();
      await sql`UPDATE guides SET organization_id = (SELECT t.organization_id FROM teams t WHERE t.id = guides.team_id)`.execute(db);
      if (dialect === 'postgres') {
        await sql`CREATE INDEX guides_organization_walk ON guides (organization_id, created_at, id) INCLUDE (processing_state, title_folded, team_id) WHERE organization_id IS NOT NULL`.execute(db);
      } else {
        await sql`CREATE INDEX guides_organization_walk ON guides (organization_id, created_at, id, processing_state, title_folded, team_id) WHERE organization_id IS NOT NULL`.execute(db);
      }
    },
  };
}

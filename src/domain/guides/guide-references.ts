// The ids a guide write refers to besides its team (decisions §7, "What a guide may refer to"): they must
// lie inside the guide's own tenant, and a refusal reads the same whether the id exists elsewhere or
// nowhere, so that a write cannot be used to learn what other organizations hold.
// - owner_id: a member of a team of the guide's organization, or one of its admins; for a team without
//   an organization, a member of that team.
// - folder_id: folders belong to a team and have no table of their own; a folder id is the team's once a
//   guide of the team names it. An id that another team's guide names is refused.
import type { Executor } from '../context.js';
import { InvalidInputError } from '../errors.js';

export interface GuideHome {
  teamId: string;
  organizationId: string | null;
}

/** Whether the user belongs to the guide's tenant (its organization, or its team when it has none). */
export async function isOwnerWithin(db: Executor, home: GuideHome, userId: string): Promise<boolean> {
  const { organizationId } = home;
  const member =
    organizationId === null
      ? db.selectFrom('memberships').select('user_id').where('team_id', '=', home.teamId).where('user_id', '=', userId)
      : db
          .selectFrom('memberships')
          .innerJoin('teams', 'teams.id', 'memberships.team_id')
          .select('memberships.user_id')
          .where('teams.organization_id', '=', organizationId)
          .where('memberships.user_id', '=', userId)
          .union(db.selectFrom('organization_admins').select('user_id').where('organization_id', '=', organizationId).where('user_id', '=', userId));
  return (await member.limit(1).executeTakeFirst()) !== undefined;
}

export async function checkReferences(db: Executor, home: GuideHome, refs: { owner_id?: string | null; folder_id?: string | null }): Promise<void> {
  if (refs.owner_id && !(await isOwnerWithin(db, home, refs.owner_id))) {
    const tenant = home.organizationId === null ? "the guide's team" : "a team of the guide's organization";
    throw new InvalidInputError('owner_id', `Field 'owner_id' must name a member of ${tenant}`);
  }
  if (refs.folder_id) {
    const elsewhere = await db.selectFrom('guides').select('id').where('folder_id', '=', refs.folder_id).where('team_id', '!=', home.teamId).limit(1).executeTakeFirst();
    if (elsewhere) throw new InvalidInputError('folder_id', "Field 'folder_id' must name a folder of the guide's team, or a new one");
  }
}

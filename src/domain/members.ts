// Team membership: joining, changing role and leaving each record their event (spec §6.5). A team that
// belongs to no organization keeps an ADMIN: its last one can be neither removed nor given another role
// (shared decisions §11); a team of an organization has the organization's admins.
import { recordAudit } from './audit.js';
import type { TeamRole } from '../db/schema.js';
import { holdRow } from '../db/sql-functions.js';
import { timestamp } from './clock.js';
import { type DomainContext, type Executor, transact } from './context.js';
import { ConflictError, NotFoundError } from './errors.js';
import { type EventType, recordEvent } from './events.js';
import { dependsOn, tag, touched } from './read-dependencies.js';
import { requireTeam } from './teams.js';
import { requireUser } from './users.js';

export interface Member {
  id: string;
  name: string | null;
  email: string;
  avatar_url: string | null;
  role: TeamRole;
  joined_at: string;
}

const MEMBER_COLUMNS = ['users.id', 'users.name', 'users.email', 'users.avatar_url', 'memberships.role', 'memberships.joined_at'] as const;

const findMember = (db: Executor, teamId: string, userId: string): Promise<Member | undefined> =>
  db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(MEMBER_COLUMNS)
    .where('memberships.team_id', '=', teamId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();

async function requireMember(db: Executor, teamId: string, userId: string): Promise<Member> {
  const member = await findMember(db, teamId, userId);
  if (!member) throw new NotFoundError('Member');
  return member;
}

/** What a member event says of its member (spec §6.5). */
export function memberData(member: Pick<Member, 'id' | 'email' | 'name' | 'role'>, teamId: string) {
  return { member: { user_id: member.id, email: member.email, name: member.name, role: member.role, team_id: teamId } };
}

export async function recordMemberEvent(trx: Executor, type: EventType, teamId: string, organizationId: string | null, member: Member, at: Date) {
  await recordEvent(trx, {
    type,
    teamId,
    organizationId,
    at,
    data: memberData(member, teamId),
  });
}

/**
 * Refuses to take the last ADMIN of a team of no organization away: `member` is about to be removed or
 * given another role. The team's row is held until commit, so that two such changes at once take turns
 * rather than each leaving the other the last.
 */
async function keepLastAdmin(trx: Executor, team: { id: string; organization_id: string | null }, member: Pick<Member, 'role' | 'name' | 'email'>, change: string): Promise<void> {
  if (team.organization_id !== null || member.role !== 'ADMIN') return;
  await holdRow(trx, 'teams', team.id);
  const admins = await trx.selectFrom('memberships').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', team.id).where('role', '=', 'ADMIN').executeTakeFirstOrThrow();
  if (Number(admins.n) <= 1) {
    throw new ConflictError(
      `${member.name ?? member.email} is the last ADMIN of this team, which belongs to no organization, and cannot be ${change}: make another member ADMIN first, or nobody could manage the team`,
    );
  }
}

/** Adds the user to the team with the role, or changes the role; the same role again changes nothing. */
export async function putMember(ctx: DomainContext, teamId: string, userId: string, role: TeamRole): Promise<Member> {
  return transact(ctx, async (trx) => {
    const team = await requireTeam(trx, teamId);
    await requireUser(trx, userId);
    const now = ctx.clock.now();
    const existing = await findMember(trx, teamId, userId);
    if (existing && existing.role !== role) await keepLastAdmin(trx, team, existing, `made ${role}`);
    if (!existing) {
      await trx.insertInto('memberships').values({ team_id: teamId, user_id: userId, role, joined_at: timestamp(now) }).execute();
    } else if (existing.role !== role) {
      await trx.updateTable('memberships').set({ role }).where('team_id', '=', teamId).where('user_id', '=', userId).execute();
    }
    touched(trx, 'memberships', [tag.members(teamId)]);
    const member = await requireMember(trx, teamId, userId);
    const home = { type: 'team', id: teamId } as const;
    if (!existing) {
      await recordMemberEvent(trx, 'member.joined', teamId, team.organization_id, member, now);
      await recordAudit(ctx, trx, { action: 'member.added', target: { type: 'user', id: userId }, home, organizationId: team.organization_id });
    } else if (existing.role !== role) {
      await recordMemberEvent(trx, 'member.role_changed', teamId, team.organization_id, member, now);
      await recordAudit(ctx, trx, { action: 'member.role_changed', target: { type: 'user', id: userId }, home, organizationId: team.organization_id, changed: ['role'] });
    }
    return member;
  });
}

export async function removeMember(ctx: DomainContext, teamId: string, userId: string): Promise<void> {
  await transact(ctx, async (trx) => {
    const team = await requireTeam(trx, teamId);
    const member = await requireMember(trx, teamId, userId);
    await keepLastAdmin(trx, team, member, 'removed');
    await trx.deleteFrom('memberships').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
    touched(trx, 'memberships', [tag.members(teamId)]);
    await recordMemberEvent(trx, 'member.left', teamId, team.organization_id, member, ctx.clock.now());
    await recordAudit(ctx, trx, { action: 'member.removed', target: { type: 'user', id: userId }, home: { type: 'team', id: teamId }, organizationId: team.organization_id });
  });
}

/** Members ordered by when they joined, then by user id (decisions §4). */
export async function listMembers(db: Executor, teamId: string): Promise<Member[]> {
  dependsOn(db, tag.members(teamId), tag.users());
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(MEMBER_COLUMNS)
    .where('memberships.team_id', '=', teamId)
    .orderBy('memberships.joined_at')
    .orderBy('memberships.user_id')
    .execute();
}

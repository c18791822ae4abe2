// Adding a person by e-mail (shared decisions §11 "People in the console"): a team's ADMIN members and
// an organization's admins add people to a team with a role, and organization admins add organization
// admins, by address. A person the service does not know yet is made, and gets an e-mail naming who added
// them and where, with a sign-in link; a person it knows is just added (they have a way in already). The
// user, the membership or admin right, its event and audit entries, the link and the mail are one write.
import type { TeamRole } from '../db/schema.js';
import { type DomainContext, transact } from '../domain/context.js';
import { type Member, putMember } from '../domain/members.js';
import { addOrganizationAdmin, requireOrganization } from '../domain/organizations.js';
import { asOneWrite } from '../domain/request-transaction.js';
import { requireTeam } from '../domain/teams.js';
import { createUser, findUserByEmail, type User } from '../domain/users.js';
import { queueMail } from '../mail/mail-outbox.js';
import { signInUrl, storeSignInLink } from './sign-in-links.js';

/**
 * How long the link in an invitation works: longer than an asked-for link's 15 minutes, since nobody is
 * waiting for this e-mail; after it, the person asks for a link with their address as anyone does.
 */
export const INVITATION_TTL_MS = 72 * 3_600_000;

export interface PersonByEmail {
  email: string;
  /** For a person not known yet. */
  name?: string | null;
}

export interface Added<T> {
  added: T;
  /** The person was not known: they were made, and invited by e-mail. */
  invited: boolean;
}

/** Adds the person with this address to the team with the role (or gives them the role); `by` names who does it. */
export async function addTeamMemberByEmail(ctx: DomainContext, teamId: string, person: PersonByEmail, role: TeamRole, by: string): Promise<Added<Member>> {
  const team = await requireTeam(ctx.db, teamId);
  const where = team.organization_id ? `the team ${team.name ?? 'without a name'} of ${(await requireOrganization(ctx.db, team.organization_id)).name}` : `the team ${team.name ?? 'without a name'}`;
  return asOneWrite(ctx.db, async () => {
    const { user, invited } = await foundOrMade(ctx, person, `${by} added you to ${where} as ${role}.`);
    return { added: await putMember(ctx, teamId, user.id, role), invited };
  });
}

/** Makes the person with this address an admin of the organization; `by` names who does it. */
export async function addOrganizationAdminByEmail(ctx: DomainContext, organizationId: string, person: PersonByEmail, by: string): Promise<Added<User>> {
  const organization = await requireOrganization(ctx.db, organizationId);
  return asOneWrite(ctx.db, async () => {
    const { user, invited } = await foundOrMade(ctx, person, `${by} made you an admin of the organization ${organization.name}.`);
    await addOrganizationAdmin(ctx, organizationId, user.id);
    return { added: user, invited };
  });
}

/** The user with the address; made, with an invitation saying `why`, when there is none. */
async function foundOrMade(ctx: DomainContext, person: PersonByEmail, why: string): Promise<{ user: User; invited: boolean }> {
  const known = await findUserByEmail(ctx.db, person.email);
  if (known) return { user: known, invited: false };
  const user = await createUser(ctx, { email: person.email, name: person.name ?? null });
  await invite(ctx, user, why);
  return { user, invited: true };
}

async function invite(ctx: DomainContext, user: User, why: string): Promise<void> {
  const now = ctx.clock.now();
  const console = `${ctx.settings.appUrl}/console/`;
  // Joins the one write (asOneWrite): the link and its mail go with the user, or not at all.
  await transact(ctx, async (trx) => {
    const token = await storeSignInLink(trx, user.id, now, INVITATION_TTL_MS, null);
    await queueMail(
      trx,
      {
        to: [user.email],
        subject: 'You have been added to the guide service',
        text:
          `${why}\n\nSign in to the console with this link:\n\n${signInUrl(ctx.settings.appUrl, token)}\n\n` +
          `It works once, within ${INVITATION_TTL_MS / 3_600_000} hours. After that, ask for a new link at ${console} with this address.\n`,
        secrets: [token],
      },
      now,
    );
  });
}

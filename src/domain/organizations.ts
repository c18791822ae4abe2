// Organizations: plan, API policy and admins.
import type { OrganizationsTable, Plan } from '../db/schema.js';
import { holdRow } from '../db/sql-functions.js';
import { timestamp } from './clock.js';
import { fieldsSet, recordAudit } from './audit.js';
import { type DomainContext, type Executor, transact } from './context.js';
import { ConflictError, NotFoundError } from './errors.js';
import { newId } from './ids.js';
import { dependsOn, tag, touched } from './read-dependencies.js';
import { requireUser } from './users.js';
import { ORGANIZATION_COLUMNS } from '../db/columns.js';

export type Organization = OrganizationsTable;

export interface OrganizationInput {
  name?: string;
  plan?: Plan;
  api_enabled?: boolean;
  org_keys_only?: boolean;
}

export async function createOrganization(ctx: DomainContext, input: OrganizationInput & { name: string }): Promise<Organization> {
  const now = timestamp(ctx.clock.now());
  const row: Organization = {
    id: newId(),
    name: input.name,
    plan: input.plan ?? 'free',
    api_enabled: input.api_enabled === false ? 0 : 1,
    org_keys_only: input.org_keys_only ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  await transact(ctx, async (trx) => {
    await trx.insertInto('organizations').values(row).execute();
    touched(trx, 'organizations', [tag.organization(row.id)]);
    await recordAudit(ctx, trx, { action: 'organization.created', target: { type: 'organization', id: row.id }, home: { type: 'organization', id: row.id } });
  });
  return row;
}

export async function findOrganization(db: Executor, id: string): Promise<Organization | undefined> {
  dependsOn(db, tag.organization(id));
  return db.selectFrom('organizations').select(ORGANIZATION_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function requireOrganization(db: Executor, id: string): Promise<Organization> {
  const organization = await findOrganization(db, id);
  if (!organization) throw new NotFoundError('Organization');
  return organization;
}

export async function updateOrganization(ctx: DomainContext, id: string, input: OrganizationInput): Promise<Organization> {
  await requireOrganization(ctx.db, id);
  const changes: Partial<Organization> = { updated_at: timestamp(ctx.clock.now()) };
  if (input.name !== undefined) changes.name = input.name;
  if (input.plan !== undefined) changes.plan = input.plan;
  if (input.api_enabled !== undefined) changes.api_enabled = input.api_enabled ? 1 : 0;
  if (input.org_keys_only !== undefined) changes.org_keys_only = input.org_keys_only ? 1 : 0;
  await transact(ctx, async (trx) => {
    await trx.updateTable('organizations').set(changes).where('id', '=', id).execute();
    touched(trx, 'organizations', [tag.organization(id)]);
    const home = { type: 'organization', id } as const;
    await recordAudit(ctx, trx, { action: 'organization.updated', target: home, home, changed: fieldsSet(input) });
  });
  return requireOrganization(ctx.db, id);
}

export async function addOrganizationAdmin(ctx: DomainContext, organizationId: string, userId: string): Promise<void> {
  await requireOrganization(ctx.db, organizationId);
  await requireUser(ctx.db, userId);
  await transact(ctx, async (trx) => {
    const added = await trx
      .insertInto('organization_admins')
      .values({ organization_id: organizationId, user_id: userId, created_at: timestamp(ctx.clock.now()) })
      .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    // Making an admin of an admin changes nothing, and is not an event.
    if (added) await recordAudit(ctx, trx, { action: 'admin.added', target: { type: 'user', id: userId }, home: { type: 'organization', id: organizationId } });
  });
}

/** The organization's admins, oldest first. */
export async function listOrganizationAdmins(db: Executor, organizationId: string) {
  return db
    .selectFrom('organization_admins')
    .innerJoin('users', 'users.id', 'organization_admins.user_id')
    .select(['users.id', 'users.name', 'users.email', 'users.avatar_url', 'organization_admins.created_at as admin_since'])
    .where('organization_admins.organization_id', '=', organizationId)
    .orderBy('organization_admins.created_at')
    .orderBy('users.id')
    .execute();
}

/** Removes an admin; the last one stays (shared decisions §11): an organization always has someone to manage it. */
export async function removeOrganizationAdmin(ctx: DomainContext, organizationId: string, userId: string): Promise<void> {
  await requireOrganization(ctx.db, organizationId);
  await transact(ctx, async (trx) => {
    // Two removals at once take turns, rather than each leaving the other the last.
    await holdRow(trx, 'organizations', organizationId);
    const admins = await trx.selectFrom('organization_admins').select('user_id').where('organization_id', '=', organizationId).execute();
    if (admins.length === 1 && admins[0]!.user_id === userId) {
      throw new ConflictError("This is the organization's last admin and cannot be removed: make someone else an admin first, or nobody could manage the organization");
    }
    const result = await trx
      .deleteFrom('organization_admins')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new NotFoundError('Organization admin');
    await recordAudit(ctx, trx, { action: 'admin.removed', target: { type: 'user', id: userId }, home: { type: 'organization', id: organizationId } });
  });
}

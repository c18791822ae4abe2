// The audit log (shared decisions §10): one event per management write, recorded in the transaction of
// the change by the domain function that makes it, naming who did it, what, to which resource, in which
// home, from which address and in which request, and for a change the names of the fields it set. Never
// a value: no secret, no body, no name or e-mail address (a person is their opaque id, which erasure
// keeps). Who acts comes from the scope the management API and the console open for each request
// (actingAs); a write outside one (the demo loader, the worker pausing an endpoint by itself) is not a
// person's or the operator's and is not recorded.
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { deleted, inBatches, PRUNE_BATCH } from '../db/batches.js';
import type { AuditEventsTable } from '../db/schema.js';
import { timestamp } from './clock.js';
import type { DomainContext, Executor } from './context.js';
import { newId } from './ids.js';
import { afterPosition, type KeysetPosition, pageOf, rowsToRead } from './keyset-cursor.js';
import type { Home } from './homes.js';

/** Who acts: a signed-in person, the operator, or a management key (shared decisions §11). */
export type AuditActor = { type: 'person'; id: string } | { type: 'operator'; id: null } | { type: 'api_key'; id: string };

/** The actor a signed-in person (their user id) or the operator (null) is. */
export function actorFor(userId: string | null): AuditActor {
  return userId === null ? { type: 'operator', id: null } : { type: 'person', id: userId };
}

/** Who acts in a request, and where the request came from. */
export interface AuditScope {
  actor: AuditActor;
  address: string;
  requestId: string;
}

export const AUDIT_ACTIONS = [
  'organization.created',
  'organization.updated',
  'admin.added',
  'admin.removed',
  'team.created',
  'team.updated',
  'member.added',
  'member.role_changed',
  'member.removed',
  'user.created',
  'user.erased',
  'api_key.created',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.paused',
  'webhook_endpoint.resumed',
  'webhook_endpoint.deleted',
  'webhook_endpoint.pinged',
  'webhook_endpoint.signing_key_revealed',
  'webhook_endpoint.signing_key_rotated',
  'webhook_endpoint.recovered',
  'delivery.resent',
  'guide.created',
  'guide.updated',
  'guide.processing_settled',
  'guide.moved',
  'guide.deleted',
  'session.signed_in',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ['organization', 'team', 'user', 'api_key', 'webhook_endpoint', 'delivery', 'guide', 'session'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export interface AuditRecord {
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null };
  /** The team or organization the change belongs to; null for what belongs to none (a user, a sign-in). */
  home: Home | null;
  /** A team home's organization (null: none), when the caller has it at hand; otherwise it is looked up. */
  organizationId?: string | null;
  /** For a change: the names of the fields it set. */
  changed?: readonly string[];
  /** How many things it covered: for a recovery, the events it sent again. */
  count?: number;
}

/** The names of the fields an input sets (those not left undefined): what a change's event lists. */
export function fieldsSet(input: object): string[] {
  return Object.entries(input)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
}

const scopes = new AsyncLocalStorage<AuditScope>();

/** Runs `work` with `scope` as the acting one: every write it records is recorded as theirs. */
export function actingAs<T>(scope: AuditScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** Records `record` in the transaction `trx` of the change, as the acting scope's; nothing outside a scope. */
export async function recordAudit(ctx: DomainContext, trx: Executor, record: AuditRecord): Promise<void> {
  const scope = scopes.getStore();
  if (!scope) return;
  const { home } = record;
  let tenantId: string | null = null;
  if (home?.type === 'organization') tenantId = home.id;
  else if (home?.type === 'team') {
    const organizationId = record.organizationId !== undefined ? record.organizationId : (await teamTenants(trx, [home.id]))[0]?.tenant;
    tenantId = organizationId ?? home.id;
  }
  const changed = record.changed && record.changed.length > 0 ? record.changed.join(' ') : null;
  // One plain statement, past the change watch (context.ts), which the log does not concern: a builder
  // query through it cost a management write a few per cent more (bench/audit).
  await sql`INSERT INTO audit_events (created_at, id, actor_type, actor_id, action, target_type, target_id, home_type, home_id, tenant_id, address, request_id, changed, count)
    VALUES (${timestamp(ctx.clock.now())}, ${newId()}, ${scope.actor.type}, ${scope.actor.id}, ${record.action}, ${record.target.type}, ${record.target.id},
      ${home?.type ?? null}, ${home?.id ?? null}, ${tenantId}, ${scope.address}, ${scope.requestId}, ${changed}, ${record.count ?? null})`.execute(trx.withoutPlugins());
}

/**
 * Each team's tenant: its organization, or the team itself when it belongs to none. A team that has moved
 * keeps the tenant of each event as it was: its events from before the move are its old organization's.
 */
export async function teamTenants(db: Executor, teamIds: readonly string[]): Promise<{ id: string; tenant: string }[]> {
  if (teamIds.length === 0) return [];
  const rows = await db.selectFrom('teams').select(['id', 'organization_id']).where('id', 'in', teamIds).execute();
  return rows.map((row) => ({ id: row.id, tenant: row.organization_id ?? row.id }));
}

/** Whose events a reader sees: all of them (the operator), or those of these organizations and teams. */
export type AuditReach = 'all' | { organizations: readonly string[]; teams: readonly { id: string; tenant: string }[] };

export interface AuditFilters {
  home?: Home;
  action?: AuditAction;
  actorId?: string;
  /** Inclusive, RFC 3339. */
  since?: string;
  /** Exclusive, RFC 3339. */
  until?: string;
}

function reachCondition(reach: AuditReach): (eb: ExpressionBuilder<{ a: AuditEventsTable }, 'a'>) => Expression<SqlBool> {
  return (eb) => {
    if (reach === 'all') return eb.lit(true);
    const arms: Expression<SqlBool>[] = [];
    if (reach.organizations.length > 0) arms.push(eb('a.tenant_id', 'in', reach.organizations));
    for (const team of reach.teams) arms.push(eb.and([eb('a.tenant_id', '=', team.tenant), eb('a.home_id', '=', team.id)]));
    return arms.length === 0 ? eb.lit(false) : eb.or(arms);
  };
}

/** An audit event as read: its row, with the names of its actor and target as they are now. */
export interface AuditEventView extends AuditEventsTable {
  /** The person's name (or e-mail address), or the key's name, now; null for the operator and for a person erased since. */
  actor_name: string | null;
  /** What the target is called now (a key's or team's name, an endpoint's URL without its query, a guide's title); null once it is gone. */
  target_name: string | null;
}

/**
 * A page of the events `reach` lets the reader see, newest first, narrowed by `filters`. Names are read
 * from the resources as they are now, never kept in the log: a renamed team shows its new name, an
 * erased person none.
 */
export async function auditPage(
  ctx: DomainContext,
  reach: AuditReach,
  filters: AuditFilters,
  after: KeysetPosition | null,
  limit: number,
): Promise<{ rows: AuditEventView[]; next: KeysetPosition | null }> {
  let query = ctx.db
    .selectFrom('audit_events as a')
    .leftJoin('users as actor', (join) => join.on('a.actor_type', '=', 'person').onRef('actor.id', '=', 'a.actor_id'))
    .leftJoin('api_keys as ak', (join) => join.on('a.actor_type', '=', 'api_key').onRef('ak.id', '=', 'a.actor_id'))
    .leftJoin('users as tu', (join) => join.on('a.target_type', '=', 'user').onRef('tu.id', '=', 'a.target_id'))
    .leftJoin('api_keys as tk', (join) => join.on('a.target_type', '=', 'api_key').onRef('tk.id', '=', 'a.target_id'))
    .leftJoin('webhook_endpoints as te', (join) => join.on('a.target_type', '=', 'webhook_endpoint').onRef('te.id', '=', 'a.target_id'))
    .leftJoin('teams as tt', (join) => join.on('a.target_type', '=', 'team').onRef('tt.id', '=', 'a.target_id'))
    .leftJoin('organizations as to', (join) => join.on('a.target_type', '=', 'organization').onRef('to.id', '=', 'a.target_id'))
    .leftJoin('guides as tg', (join) => join.on('a.target_type', '=', 'guide').onRef('tg.id', '=', 'a.target_id'))
    .select([
      'a.id',
      'a.created_at',
      'a.actor_type',
      'a.actor_id',
      'a.action',
      'a.target_type',
      'a.target_id',
      'a.home_type',
      'a.home_id',
      'a.tenant_id',
      'a.address',
      'a.request_id',
      'a.changed',
      'a.count',
    ])
    .select((eb) => [
      eb.fn.coalesce('actor.name', 'actor.email', 'ak.name').as('actor_name'),
      eb.fn.coalesce('tu.name', 'tu.email', 'tk.name', 'te.url', eb.fn.coalesce('tt.name', 'to.name', 'tg.title')).as('target_name'),
    ])
    .where(reachCondition(reach));
  const { home, action, actorId, since, until } = filters;
  if (home?.type === 'organization') query = query.where('a.tenant_id', '=', home.id);
  if (home?.type === 'team') {
    const [team] = await teamTenants(ctx.db, [home.id]);
    query = query.where('a.tenant_id', '=', team?.tenant ?? home.id).where('a.home_id', '=', home.id);
  }
  if (action !== undefined) query = query.where('a.action', '=', action);
  if (actorId !== undefined) query = query.where('a.actor_id', '=', actorId);
  if (since !== undefined) query = query.where('a.created_at', '>=', since);
  if (until !== undefined) query = query.where('a.created_at', '<', until);
  if (after) query = query.where(afterPosition('a', after));
  const rows = await query.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(rowsToRead(limit)).execute();
  return pageOf(rows.map(withEndpointNamedSafely), limit);
}

/**
 * An endpoint is named by its URL without the query, shown as `?…`: the query may hold the receiver's
 * shared token (decisions §9), which the endpoint shows the admins of its home but the log does not.
 */
function withEndpointNamedSafely(row: AuditEventView): AuditEventView {
  const query = row.target_name?.indexOf('?') ?? -1;
  if (row.target_type !== 'webhook_endpoint' || query === -1) return row;
  return { ...row, target_name: `${row.target_name!.slice(0, query)}?…` };
}

/** Drops the events older than the retention (AUDIT_RETENTION_DAYS). */
export async function pruneAudit(ctx: DomainContext, retentionMs: number): Promise<void> {
  const cutoff = timestamp(new Date(ctx.clock.now().getTime() - retentionMs));
  // The oldest first, a batch at a time: the table is ordered by time, so each batch is one range.
  await inBatches(async () =>
    deleted(
      await ctx.db
        .deleteFrom('audit_events')
        .where(sql<SqlBool>`(created_at, id) IN (SELECT created_at, id FROM audit_events WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${PRUNE_BATCH})`)
        .executeTakeFirst(),
    ),
  );
}

// The operator's list of tenants (shared decisions §11 "The operator's console"): every organization and
// every team that belongs to none, newest first, in keyset pages, narrowed by a piece of the name, each
// with its plan, whether its API is on, how many teams, keys and failing endpoints it has (an
// organization's counts include its teams').
import { type Expression, sql, type SqlBool } from 'kysely';
import type { Plan } from '../db/schema.js';
import { holdsText } from '../db/sql-functions.js';
import type { DomainContext } from './context.js';
import { afterPosition, type KeysetPosition, pageOf, rowsToRead } from './keyset-cursor.js';

export interface Tenant {
  type: 'organization' | 'team';
  id: string;
  name: string | null;
  plan: Plan;
  api_enabled: boolean;
  /** An organization's teams; null for a team. */
  teams: number | null;
  /** Keys not revoked, of the tenant and (an organization) its teams. */
  keys: number;
  /** Endpoints paused, or whose last attempts failed, of the tenant and (an organization) its teams. */
  failing_endpoints: number;
  created_at: string;
}

/** Whether a home (type and id columns of `table`) belongs to the tenant: the organization or one of its teams, or the team. */
function ofTenant(table: string, tenantType: 'organization' | 'team', tenantIdColumn: string): Expression<SqlBool> {
  const tenantId = sql.ref(tenantIdColumn);
  const type = sql.ref(`${table}.home_type`);
  const id = sql.ref(`${table}.home_id`);
  if (tenantType === 'team') return sql<SqlBool>`(${type} = 'team' AND ${id} = ${tenantId})`;
  return sql<SqlBool>`((${type} = 'organization' AND ${id} = ${tenantId}) OR (${type} = 'team' AND ${id} IN (SELECT t2.id FROM teams t2 WHERE t2.organization_id = ${tenantId})))`;
}

const keysOf = (tenantType: 'organization' | 'team', tenantId: string) =>
  sql<number>`(SELECT count(*) FROM api_keys k WHERE k.revoked_at IS NULL AND ${ofTenant('k', tenantType, tenantId)})`;

const failingOf = (tenantType: 'organization' | 'team', tenantId: string) =>
  sql<number>`(SELECT count(*) FROM webhook_endpoints e LEFT JOIN webhook_queues q ON q.endpoint_id = e.id
    WHERE ${ofTenant('e', tenantType, tenantId)} AND (e.status = 'paused' OR coalesce(q.failures, 0) > 0))`;

export async function tenantPage(ctx: DomainContext, filters: { q?: string }, after: KeysetPosition | null, limit: number): Promise<{ rows: Tenant[]; next: KeysetPosition | null }> {
  const organizations = ctx.db.selectFrom('organizations as o').select([
    sql<'organization' | 'team'>`'organization'`.as('type'),
    'o.id',
    sql<string | null>`o.name`.as('name'),
    'o.plan',
    sql<number>`o.api_enabled`.as('api_enabled'),
    sql<number | null>`(SELECT count(*) FROM teams t3 WHERE t3.organization_id = o.id)`.as('teams'),
    keysOf('organization', 'o.id').as('keys'),
    failingOf('organization', 'o.id').as('failing_endpoints'),
    'o.created_at',
  ]);
  const teams = ctx.db
    .selectFrom('teams as t')
    .where('t.organization_id', 'is', null)
    .select([
      sql<'organization' | 'team'>`'team'`.as('type'),
      't.id',
      't.name',
      't.plan',
      sql<number>`1`.as('api_enabled'),
      sql<number | null>`NULL`.as('teams'),
      keysOf('team', 't.id').as('keys'),
      failingOf('team', 't.id').as('failing_endpoints'),
      't.created_at',
    ]);
  let query = ctx.db.selectFrom(organizations.unionAll(teams).as('tenant')).selectAll();
  if (filters.q) query = query.where(holdsText(ctx.db, 'tenant.name', filters.q));
  if (after) query = query.where(afterPosition('tenant', after));
  const rows = await query.orderBy('tenant.created_at', 'desc').orderBy('tenant.id', 'desc').limit(rowsToRead(limit)).execute();
  const page = pageOf(rows, limit);
  return {
    rows: page.rows.map((row) => ({
      ...row,
      api_enabled: Boolean(Number(row.api_enabled)),
      teams: row.teams === null ? null : Number(row.teams),
      keys: Number(row.keys),
      failing_endpoints: Number(row.failing_endpoints),
    })),
    next: page.next,
  };
}

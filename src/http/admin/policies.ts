// Authorization of the management API for signed-in people and management keys, one check per kind of
// resource (issue 6; shared decisions §11). The operator passes every check. A check first finds the
// resource (404 when there is none), then refuses with 403 forbidden what the person's roles do not
// allow. A management key reaches its own home's webhook endpoints alone (an organization key: its
// teams' too): anything else is 404 to it, as if it did not exist; the caller hook lets it reach no
// other operation.
import { type TeamAccess, reaches, teamAccess } from '../../auth/grants.js';
import { apiKeyHome } from '../../auth/resource-homes.js';
import type { ApiKey } from '../../domain/api-keys.js';
import { type AuditReach, teamTenants } from '../../domain/audit.js';
import type { DomainContext } from '../../domain/context.js';
import { NotFoundError } from '../../domain/errors.js';
import { requireGuideRow } from '../../domain/guides/guide-writes.js';
import { type Home, homeOf } from '../../domain/homes.js';
import { findTeam } from '../../domain/teams.js';
import { requireAttempt } from '../../webhooks/deliveries.js';
import { requireEndpoint } from '../../webhooks/endpoints.js';
import type { FastifyRequest } from 'fastify';
import { callerOf, forbidden } from './admin-auth.js';

const REFUSALS: Record<TeamAccess, string> = {
  read: "Only the team's members and its organization's admins may see this team",
  edit: "Only the team's EDITOR and ADMIN members and its organization's admins may change its guides",
  api: "Only the team's ADMIN members and its organization's admins may open the team's API settings",
};

/**
 * Each check takes the request whose caller it checks, so a route reads `await can.home(request, home)`.
 */
export class AdminPolicies {
  constructor(private readonly ctx: DomainContext) {}

  operator(request: FastifyRequest, detail = 'Only the operator may do this, with the admin token'): void {
    if (callerOf(request).kind !== 'operator') throw forbidden(detail);
  }

  self(request: FastifyRequest, userId: string): void {
    const caller = callerOf(request);
    if (caller.kind === 'api_key' || (caller.kind === 'person' && caller.userId !== userId)) throw forbidden('A person may read only their own user');
  }

  async team(request: FastifyRequest, teamId: string, needed: TeamAccess): Promise<void> {
    const caller = callerOf(request);
    if (caller.kind === 'operator') return;
    const team = await findTeam(this.ctx.db, teamId);
    if (!team) throw new NotFoundError('Team');
    if (caller.kind === 'api_key' || !reaches(teamAccess(caller.grants, team), needed)) throw forbidden(REFUSALS[needed]);
  }

  /** The organization's own settings and API settings: its admins only. */
  organization(request: FastifyRequest, organizationId: string): void {
    const caller = callerOf(request);
    if (caller.kind === 'api_key' || (caller.kind === 'person' && !caller.grants.adminOf.has(organizationId))) {
      throw forbidden("Only the organization's admins may open its API settings");
    }
  }

  /** API settings of a home: its keys and webhook endpoints with their deliveries. */
  async home(request: FastifyRequest, home: Home): Promise<void> {
    const caller = callerOf(request);
    if (caller.kind === 'api_key') {
      if (!(await this.keyReaches(caller.key, home))) throw new NotFoundError(home.type === 'team' ? 'Team' : 'Organization');
      return;
    }
    if (home.type === 'organization') this.organization(request, home.id);
    else await this.team(request, home.id, 'api');
  }

  async apiKey(request: FastifyRequest, keyId: string): Promise<void> {
    if (callerOf(request).kind !== 'operator') await this.home(request, await apiKeyHome(this.ctx.db, keyId));
  }

  async endpoint(request: FastifyRequest, endpointId: string): Promise<void> {
    const caller = callerOf(request);
    if (caller.kind === 'operator') return;
    const endpoint = await requireEndpoint(this.ctx.db, endpointId);
    if (caller.kind === 'person') await this.home(request, homeOf(endpoint));
    else if (!(await this.keyReaches(caller.key, homeOf(endpoint)))) throw new NotFoundError('Webhook endpoint');
  }

  async attempt(request: FastifyRequest, attemptId: string): Promise<void> {
    if (callerOf(request).kind === 'operator') return;
    const attempt = await requireAttempt(this.ctx, attemptId);
    try {
      await this.endpoint(request, attempt.endpoint_id);
    } catch (error) {
      // A key learns nothing of another home's endpoint from one of its deliveries.
      if (error instanceof NotFoundError && callerOf(request).kind === 'api_key') throw new NotFoundError('Delivery');
      throw error;
    }
  }

  /** Whether a management key's home holds `home`: the same one, or, for an organization key, one of its teams. */
  private async keyReaches(key: ApiKey, home: Home): Promise<boolean> {
    if (key.home.type === home.type && key.home.id === home.id) return true;
    if (key.home.type !== 'organization' || home.type !== 'team') return false;
    return (await findTeam(this.ctx.db, home.id))?.organization_id === key.home.id;
  }

  /**
   * Whose audit events the caller reads (shared decisions §10): the operator all; an organization's admins
   * those of the organization and its teams; a team's ADMIN members those of the team; nobody else. A
   * `home` asked for must be one of theirs.
   */
  async auditReach(request: FastifyRequest, home: Home | undefined): Promise<AuditReach> {
    const caller = callerOf(request);
    if (caller.kind === 'operator') return 'all';
    if (caller.kind === 'api_key') throw forbidden('A management key does not read the audit log');
    if (home) await this.home(request, home);
    const teamIds = [...caller.grants.teamRoles].filter(([, role]) => role === 'ADMIN').map(([teamId]) => teamId);
    const organizations = [...caller.grants.adminOf];
    if (teamIds.length === 0 && organizations.length === 0) {
      throw forbidden("Only the operator, organizations' admins and teams' ADMIN members may read the audit log");
    }
    return { organizations, teams: await teamTenants(this.ctx.db, teamIds) };
  }

  async guide(request: FastifyRequest, guideId: string, needed: TeamAccess): Promise<void> {
    if (callerOf(request).kind !== 'operator') await this.team(request, (await requireGuideRow(this.ctx.db, guideId)).team_id, needed);
  }
}

// The only place where domain values become management API wire shapes.
import type { GuideRow } from '../../domain/guides/guide-record.js';
import { parseSteps } from '../../domain/guides/guide-record.js';
import { fullGuideBody } from '../../domain/guides/guide-body.js';
import type { Organization } from '../../domain/organizations.js';
import type { Team } from '../../domain/teams.js';
import type { User } from '../../domain/users.js';
import type { Plan } from '../../db/schema.js';
import { presentGuide } from '../v1/presenters.js';

export function presentOrganization(organization: Organization) {
  return {
    id: organization.id,
    name: organization.name,
    plan: organization.plan,
    api_enabled: organization.api_enabled === 1,
    org_keys_only: organization.org_keys_only === 1,
    created_at: organization.created_at,
    updated_at: organization.updated_at,
  };
}

export function presentTeam(team: Team, plan: Plan) {
  return {
    id: team.id,
    name: team.name,
    organization_id: team.organization_id,
    plan,
    brand_color: team.brand_color,
    created_at: team.created_at,
    updated_at: team.updated_at,
  };
}

export function presentUser(user: User) {
  return { id: user.id, email: user.email, name: user.name, avatar_url: user.avatar_url, created_at: user.created_at };
}

export interface AdminGuideView {
  row: GuideRow;
  ownerName: string | null;
  brandColor: string | null;
  locked: boolean;
}

/** The guide as the REST interface shows it, whole (never cut by plan), with what only admins see. */
export function presentAdminGuide(view: AdminGuideView) {
  return {
    ...presentGuide(view, fullGuideBody(view.row)),
    owner_id: view.row.owner_id,
    team_role: view.row.team_role,
    steps: parseSteps(view.row),
    processing_state: view.row.processing_state,
    processing_error: view.row.processing_error,
  };
}

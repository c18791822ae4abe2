// The only place where domain values become management API wire shapes.
import type { ApiKey } from '../../domain/api-keys.js';
import type { AuditEventView } from '../../domain/audit.js';
import type { GuideRow } from '../../domain/guides/guide-record.js';
import { parseSteps } from '../../domain/guides/guide-record.js';
import { fullGuideBody } from '../../domain/guides/guide-body.js';
import type { Organization } from '../../domain/organizations.js';
import type { TeamGuideSummary } from '../../domain/team-guide-list.js';
import type { Team } from '../../domain/teams.js';
import type { User } from '../../domain/users.js';
import type { Plan } from '../../db/schema.js';
import type { MailEntry } from '../../mail/mail-outbox.js';
import type { AttemptView } from '../../webhooks/deliveries.js';
import type { EndpointHealth } from '../../webhooks/health.js';
import { presentGuide } from '../v1/presenters.js';

// Members are answered with the v1 `Member` schema, so both interfaces present them one way.
export { presentMember } from '../v1/presenters.js';

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

export function presentGuideSummary(guide: TeamGuideSummary) {
  return {
    id: guide.id,
    team_id: guide.team_id,
    title: guide.title,
    description: guide.description,
    permalink: guide.permalink,
    publish_status: guide.publish_status,
    is_public: guide.is_public,
    processing_state: guide.processing_state,
    created_at: guide.created_at,
    updated_at: guide.updated_at,
  };
}

/** A key without its secret: only the creation answer carries that, beside the key. */
export function presentApiKey(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    home: { type: key.home.type, id: key.home.id },
    scopes: key.scopes,
    expires_at: key.expires_at,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
    secret_hint: key.secret_hint,
  };
}

export function presentAttempt(attempt: AttemptView) {
  return {
    id: attempt.id,
    endpoint_id: attempt.endpoint_id,
    event_id: attempt.event_id,
    event_type: attempt.event_type,
    attempt_number: attempt.attempt_number,
    status: attempt.status,
    request_headers: attempt.request_headers,
    request_body: attempt.request_body,
    response_status: attempt.response_status,
    response_body: attempt.response_body,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
    created_at: attempt.created_at,
    sent_at: attempt.sent_at,
    due_at: attempt.due_at,
    next_attempt_at: attempt.next_attempt_at,
    test: attempt.test,
  };
}

export function presentEndpointHealth(health: EndpointHealth) {
  const last = health.last_attempt;
  return {
    endpoint_id: health.endpoint_id,
    last_attempt: last && { status: last.status, sent_at: last.sent_at },
    since: health.since,
    delivered: health.delivered,
    failed: health.failed,
    events_sent: health.events_sent,
    events_delivered: health.events_delivered,
    success_rate: health.success_rate,
    consecutive_failures: health.consecutive_failures,
    next_retry_at: health.next_retry_at,
    hours: health.hours.map((hour) => ({ start: hour.start, delivered: hour.delivered, failed: hour.failed })),
  };
}

export function presentMail(mail: MailEntry) {
  return { id: mail.id, to: mail.to, subject: mail.subject, text: mail.text, created_at: mail.created_at, sent_at: mail.sent_at };
}

export function presentAuditEvent(row: AuditEventView) {
  return {
    id: row.id,
    at: row.created_at,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    action: row.action,
    target: { type: row.target_type, id: row.target_id, name: row.target_name },
    home: row.home_type === null || row.home_id === null ? null : { type: row.home_type, id: row.home_id },
    address: row.address,
    request_id: row.request_id,
    changed: row.changed === null ? null : row.changed.split(' '),
    count: row.count,
  };
}

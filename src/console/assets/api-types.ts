// What the console reads of the service's answers: the fields it uses, no more. The server's TypeBox
// schemas are not imported here: even a type-only import would bring their modules, which use Node, into
// this program's type check. test/console/assets.test.ts checks instead that the server's answers fit
// these shapes, so a change on either side fails `npm run typecheck`.

export type HomeType = 'team' | 'organization';
/** What a person may do in a team: read its guides, also edit them, or also manage its API settings. */
export type Access = 'read' | 'edit' | 'api';
export type PublishStatus = 'DRAFT' | 'PUBLISHED';
export type AttemptStatus = 'scheduled' | 'sending' | 'delivered' | 'failed' | 'missed' | 'cancelled';
export type PausedReason = 'gone' | 'failing' | 'manual';

/** A single resource: `{ data }`. */
export interface Answer<T> {
  data: T;
}

/** A page of a list, newest first; `next_cursor` asks for the next one. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** The problem body of a refusal (application/problem+json); a body that is not one lacks them all. */
export interface Problem {
  detail?: string;
  code?: string;
  request_id?: string;
}

export interface SessionTeam {
  id: string;
  name: string | null;
  organization_id: string | null;
  organization_name: string | null;
  access: Access;
  /** The team's organization allows organization keys only: the team's own keys are refused. */
  team_keys_disabled: boolean;
  /** The team's organization has switched API access off: every key of the team is refused. */
  api_disabled: boolean;
}

export interface SessionOrganization {
  id: string;
  name: string;
}

interface SessionBase {
  csrf_token: string;
  /** The events the endpoint form offers. */
  event_types: string[];
  /** When each event type (ping too) is sent, in one line. */
  event_descriptions: Record<string, string>;
  /** How many retries follow a failed first attempt (WEBHOOK_RETRY_DELAYS). */
  webhook_retries: number;
  /** The kinds of audit events, for the audit log's filter. */
  audit_actions: string[];
  teams: SessionTeam[];
  organizations: SessionOrganization[];
}

/** Who is signed in (/console/api/session): a person, or the operator with the admin token. */
export type Session = SessionBase & ({ operator: true; user: null } | { operator: false; user: { name: string | null; email: string } });

export interface SignInLinkSent {
  message: string;
}

export interface Organization {
  plan: string;
  api_enabled: boolean;
  org_keys_only: boolean;
}

export interface Team {
  plan: string;
  organization_id: string | null;
}

export type TeamRole = 'ADMIN' | 'EDITOR' | 'VIEWER';

/** A member of a team, as the people page lists them. */
export interface Member {
  id: string;
  email: string;
  name: string | null;
  role: TeamRole;
  joined_at: string;
}

/** An admin of an organization. */
export interface OrganizationAdmin {
  id: string;
  email: string;
  name: string | null;
  admin_since: string;
}

/** A person added by e-mail: `invited` when they were not known, and got an e-mail. */
export interface AddedPerson<T> extends Answer<T> {
  invited: boolean;
}

/** An organization, or a team of none, as the operator's list shows it. */
export interface Tenant {
  type: HomeType;
  id: string;
  name: string | null;
  plan: string;
  api_enabled: boolean;
  teams: number | null;
  keys: number;
  failing_endpoints: number;
  created_at: string;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
  created_at: string;
}

/** An e-mail of the outbox. */
export interface Mail {
  id: string;
  to: string[];
  subject: string;
  text: string;
  created_at: string;
  sent_at: string | null;
}

export interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  secret_hint: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

/** The answer that creates a key: the only one that holds its secret. */
export interface CreatedApiKey extends Answer<ApiKey> {
  secret: string;
}

export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'paused';
  paused_reason: PausedReason | null;
  paused_at: string | null;
  /** While a rotation's overlap runs, when the replaced signing key stops signing. */
  old_signing_key_ends_at: string | null;
  created_at: string;
}

/** An endpoint's health: the last 24 clock hours (the current one and the 23 before), oldest first. */
export interface EndpointHealth {
  last_attempt: { status: 'delivered' | 'failed'; sent_at: string } | null;
  delivered: number;
  failed: number;
  events_sent: number;
  events_delivered: number;
  success_rate: number | null;
  consecutive_failures: number;
  next_retry_at: string | null;
  hours: { start: string; delivered: number; failed: number }[];
}

export interface SigningKeyForms {
  /** The key that verifies X-Service-Signature (the specification's header): HMAC-SHA256 keyed with its UTF-8 bytes. */
  signing_key: string;
  /** The same key for webhook-signature (Standard Webhooks libraries): `whsec_` and the base64 of the key's UTF-8 bytes. */
  standard_webhooks_secret: string;
}

/** The signing key, and during a rotation's overlap the key it replaced, which signs until `ends_at`. */
export interface SigningKey extends SigningKeyForms {
  old_key: (SigningKeyForms & { ends_at: string }) | null;
}

/** One delivery attempt of an event to an endpoint. */
export interface Attempt {
  id: string;
  event_id: string;
  event_type: string;
  attempt_number: number;
  status: AttemptStatus;
  /** Null until the attempt is sent. */
  request_headers: Record<string, string> | null;
  request_body: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  sent_at: string | null;
  due_at: string;
  next_attempt_at: string | null;
  /** Its event is a test: a ping, or a test event of another type. */
  test: boolean;
}

/** What a recovery answers: how many events it sends again. */
export interface Recovered {
  events: number;
}

/** A guide as the Guides list shows it. */
export interface GuideSummary {
  id: string;
  title: string | null;
  publish_status: PublishStatus;
  is_public: boolean;
  processing_state: string;
  updated_at: string;
}

/** A guide as its own page shows it; its schema is the public API's, which leaves more fields nullable. */
export interface Guide {
  id: string;
  team_id: string;
  title: string | null;
  description: string | null;
  publish_status: PublishStatus | null;
  is_public: boolean;
  permalink: string | null;
  processing_state: string;
  processing_error: string | null;
  /** Only counted here. */
  steps: readonly unknown[];
  updated_at: string | null;
}

/** One event of the audit log: who did what to which resource, where, from where. */
export interface AuditEvent {
  id: string;
  at: string;
  actor: { type: 'person' | 'operator' | 'api_key'; id: string | null; name: string | null };
  action: string;
  target: { type: string; id: string | null; name: string | null };
  home: { type: HomeType; id: string } | null;
  address: string | null;
  request_id: string | null;
  changed: string[] | null;
  /** For a recovery: how many events it sent again. */
  count: number | null;
}

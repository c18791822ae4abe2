// Row types of every table, as Kysely sees them. Timestamps are RFC 3339 UTC strings with milliseconds
// (they sort as text in both dialects); flags are 0/1 integers so both dialects bind them the same way.
import type { Generated } from 'kysely';

export type Flag = 0 | 1;
export type Plan = 'free' | 'starter' | 'growth' | 'enterprise';
export type TeamRole = 'EDITOR' | 'VIEWER' | 'ADMIN';
export type PublishStatus = 'DRAFT' | 'PUBLISHED';
export type ProcessingState = 'processing' | 'finished' | 'failed';
export type KeyHomeType = 'team' | 'organization';

export interface ServiceSettingsTable {
  name: string;
  value: string;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  plan: Plan;
  api_enabled: Flag;
  org_keys_only: Flag;
  created_at: string;
  updated_at: string;
}

export interface OrganizationAdminsTable {
  organization_id: string;
  user_id: string;
  created_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  /** Lower-cased e-mail, unique: one person, one user. */
  email_key: string;
  name: string | null;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface TeamsTable {
  id: string;
  name: string | null;
  organization_id: string | null;
  /** The team's own plan; used only while it has no organization. */
  plan: Plan;
  brand_color: string | null;
  created_at: string;
  updated_at: string;
}

export interface MembershipsTable {
  team_id: string;
  user_id: string;
  role: TeamRole;
  joined_at: string;
}

export interface GuidesTable {
  seq: Generated<number>;
  id: string;
  team_id: string;
  /** The team's organization, kept on the guide for the organization's own index; null outside one. */
  organization_id: string | null;
  owner_id: string | null;
  title: string | null;
  /** Case-folded title: what `q` searches (trigram index on it). */
  title_folded: string;
  description: string | null;
  language: string;
  text_direction: 'ltr' | 'rtl';
  app_version: string | null;
  icon_url: string | null;
  thumbnail_url: string | null;
  /** JSON array of strings, or null. */
  tags: string | null;
  folder_id: string | null;
  publish_status: PublishStatus;
  is_public: Flag;
  team_role: TeamRole | null;
  permalink: string;
  /** JSON array of { text, image_url, image_alt }. */
  steps: string;
  step_count: number;
  processing_state: ProcessingState;
  processing_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  home_type: KeyHomeType;
  home_id: string;
  name: string;
  /** Space-separated scopes. */
  scopes: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  secret_hash: string;
  /** The recognizable start of the key, for people to tell keys apart. */
  secret_hint: string;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface EventsTable {
  seq: Generated<number>;
  id: string;
  type: string;
  team_id: string;
  organization_id: string | null;
  /** The whole envelope as JSON, exactly the bytes receivers get. */
  payload: string;
  created_at: string;
  /** Commit order for the events feed: the writing transaction on PostgreSQL, 0 on SQLite (migration 0012). */
  feed_txid: Generated<string | number>;
  /** A test event sent to one endpoint (the console's "Send test event"): kept out of the events feed (migration 0019). */
  test: Generated<Flag>;
}

/** Per team and per organization, the created_at of the newest event retention took out of the events feed. */
export interface EventFeedHorizonsTable {
  home_type: KeyHomeType;
  home_id: string;
  dropped_through: string;
}

export type EndpointStatus = 'active' | 'paused';
export type PausedReason = 'gone' | 'failing' | 'manual';
/** As stored; an attempt is shown as `sending` while it is scheduled, due, and its endpoint's queue is held. */
export type AttemptStatus = 'scheduled' | 'delivered' | 'failed' | 'missed' | 'cancelled';

export interface WebhookEndpointsTable {
  id: string;
  home_type: KeyHomeType;
  home_id: string;
  url: string;
  description: string | null;
  /** Space-separated event types the endpoint picked. */
  events: string;
  /** Needed in clear to sign deliveries; never logged, shown only on request. */
  signing_key: string;
  /** The key a rotation with an overlap replaced: it signs beside signing_key until old_signing_key_ends_at. */
  old_signing_key: string | null;
  old_signing_key_ends_at: string | null;
  status: EndpointStatus;
  paused_reason: PausedReason | null;
  paused_at: string | null;
  /** When the first attempt failed since the last success (or creation); null while healthy. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  seq: Generated<number>;
  /** Sent as X-Service-Delivery: one id per attempt. */
  id: string;
  event_id: string;
  endpoint_id: string;
  attempt_number: number;
  /** 1 when a failure schedules the next retry; manual resends are single attempts. */
  auto_retry: Flag;
  status: AttemptStatus;
  due_at: string;
  sent_at: string | null;
  duration_ms: number | null;
  /** JSON object of the request headers sent. */
  request_headers: string | null;
  response_status: number | null;
  /** The first 4 KiB of the answer. */
  response_body: string | null;
  error: string | null;
  /** When the retry that follows this failed attempt is due. */
  next_attempt_at: string | null;
  created_at: string;
}

/**
 * An endpoint's delivery queue: when a worker may next take its attempts, who holds them, and its
 * circuit breaker. Written only by src/domain/delivery-queues.ts.
 */
export interface WebhookQueuesTable {
  endpoint_id: string;
  /**
   * When a claim may take the endpoint: its earliest attempt still to be sent, not before `probe_at`, and
   * while claimed the end of the lease. Null when nothing waits (or the endpoint is paused).
   */
  ready_at: string | null;
  /** Counts the writes that added waiting attempts, so that a release never hides one it did not see. */
  revision: number;
  claim_token: string | null;
  claimed_until: string | null;
  /** Failed attempts in a row; more than 0 puts the endpoint in the failing lane. */
  failures: number;
  /** 1 once the endpoint has answered 2xx; until then (a new endpoint) it is probed in the failing lane. */
  proven: number;
  /** While failing or throttled: no attempt goes before this time. */
  probe_at: string | null;
}

export interface GuideUpdateWindowsTable {
  guide_id: string;
  team_id: string;
  /** Space-separated changed columns so far. */
  changed: string;
  opened_at: string;
  closes_at: string;
}

export interface MailOutboxTable {
  seq: Generated<number>;
  id: string;
  /** JSON array of addresses. */
  recipients: string;
  subject: string;
  /** The text as the outbox shows it: any secret the mail carries is redacted. */
  text: string;
  /** The whole text to send, when it differs from `text`; kept only until sent, given up or an hour old. */
  send_text: string | null;
  created_at: string;
  sent_at: string | null;
  send_error: string | null;
  send_attempts: number;
  /** When the mail may next be tried: null at first, a lease while being sent, a back-off after failing. */
  next_attempt_at: string | null;
}

/** One management write (src/domain/audit.ts): who, what, to which resource, where, from where. */
export interface AuditEventsTable {
  id: string;
  created_at: string;
  actor_type: 'person' | 'operator' | 'api_key';
  /** The person's user id, or the management key's id; null for the operator. */
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  home_type: KeyHomeType | null;
  home_id: string | null;
  /**
   * Whose admins may read the event: the organization the home belonged to then (itself, or its team's),
   * or the team when it belonged to none; null for what belongs to no home (a user, a sign-in).
   */
  tenant_id: string | null;
  address: string | null;
  request_id: string | null;
  /** The names of the fields a change set, space-separated; null for what is not a change of fields. */
  changed: string | null;
  /** How many things the action covered (a recovery: the events it sent again); null for the others. */
  count: number | null;
}

/** One row per readiness probe's name, rewritten by each probe (src/db/store-health.ts). */
export interface StoreProbesTable {
  name: string;
  probed_at: string;
}

/** An e-mailed sign-in link to the console: works once, until it expires. */
export interface SignInLinksTable {
  /** SHA-256 of the link's token, hex; the token itself is only in the e-mail. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /**
   * HMAC-SHA256, hex, of the client address that asked for the link (its /64 for IPv6), for the budget
   * per asking address (src/auth/sign-in-links.ts); null on links made before migration 0015.
   */
  asked_from_hash: string | null;
}

/** A console session, held by a browser in an HttpOnly cookie. */
export interface ConsoleSessionsTable {
  /** SHA-256 of the cookie's token, hex. */
  token_hash: string;
  /** The signed-in person; null for the operator (signed in with the admin token). */
  user_id: string | null;
  /** Sent back by the console in X-CSRF-Token on every write. */
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** The first answer to a write that carried an Idempotency-Key (shared decisions §11). */
export interface IdempotencyKeysTable {
  /** Whose key it is: `operator`, `person:<user id>` or `api_key:<key id>`. */
  credential: string;
  key: string;
  /** A hash of the request's method, path and body: a repeat must match it. */
  fingerprint: string;
  status: number;
  content_type: string | null;
  location: string | null;
  body: string;
  created_at: string;
}

export interface Database {
  service_settings: ServiceSettingsTable;
  organizations: OrganizationsTable;
  organization_admins: OrganizationAdminsTable;
  users: UsersTable;
  teams: TeamsTable;
  memberships: MembershipsTable;
  guides: GuidesTable;
  api_keys: ApiKeysTable;
  events: EventsTable;
  event_feed_horizons: EventFeedHorizonsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_queues: WebhookQueuesTable;
  guide_update_windows: GuideUpdateWindowsTable;
  mail_outbox: MailOutboxTable;
  sign_in_links: SignInLinksTable;
  console_sessions: ConsoleSessionsTable;
  store_probes: StoreProbesTable;
  audit_events: AuditEventsTable;
  idempotency_keys: IdempotencyKeysTable;
}


// The columns of the tables the service reads whole, named rather than `*` (docs/decisions.md "Migrations:
// expand, then contract"). On PostgreSQL every query is a named prepared statement: one that reads `*`
// from a table that a newer release's migration has given a column returns a row of another shape, which
// PostgreSQL refuses ("cached plan must not change result type"), so every process of the older release
// still running in a rolling deploy failed those queries until it was replaced. Each list is checked
// against schema.ts when the code compiles: a column missing from it is a type error.
import type { Database } from './schema.js';

type ColumnOf<T extends keyof Database> = keyof Database[T] & string;

/** The list, as given, if it names every column of `T`; a type error naming the missing ones otherwise. */
function every<T extends keyof Database>() {
  return <const C extends readonly ColumnOf<T>[]>(columns: C & ([Exclude<ColumnOf<T>, C[number]>] extends [never] ? unknown : { missing: Exclude<ColumnOf<T>, C[number]> })): C =>
    columns;
}

export const ORGANIZATION_COLUMNS = every<'organizations'>()(['id', 'name', 'plan', 'api_enabled', 'org_keys_only', 'created_at', 'updated_at']);
export const USER_COLUMNS = every<'users'>()(['id', 'email', 'email_key', 'name', 'avatar_url', 'created_at', 'updated_at']);
export const TEAM_COLUMNS = every<'teams'>()(['id', 'name', 'organization_id', 'plan', 'brand_color', 'created_at', 'updated_at']);
export const GUIDE_COLUMNS = every<'guides'>()([
  'seq',
  'id',
  'team_id',
  'organization_id',
  'owner_id',
  'title',
  'title_folded',
  'description',
  'language',
  'text_direction',
  'app_version',
  'icon_url',
  'thumbnail_url',
  'tags',
  'folder_id',
  'publish_status',
  'is_public',
  'team_role',
  'permalink',
  'steps',
  'step_count',
  'processing_state',
  'processing_error',
  'created_at',
  'updated_at',
]);
export const API_KEY_COLUMNS = every<'api_keys'>()([
  'id',
  'home_type',
  'home_id',
  'name',
  'scopes',
  'secret_hash',
  'secret_hint',
  'expires_at',
  'created_at',
  'last_used_at',
  'revoked_at',
]);
export const ENDPOINT_COLUMNS = every<'webhook_endpoints'>()([
  'id',
  'home_type',
  'home_id',
  'url',
  'description',
  'events',
  'signing_key',
  'old_signing_key',
  'old_signing_key_ends_at',
  'status',
  'paused_reason',
  'paused_at',
  'failing_since',
  'created_at',
  'updated_at',
]);
export const UPDATE_WINDOW_COLUMNS = every<'guide_update_windows'>()(['guide_id', 'team_id', 'changed', 'opened_at', 'closes_at']);
export const MAIL_COLUMNS = every<'mail_outbox'>()([
  'seq',
  'id',
  'recipients',
  'subject',
  'text',
  'send_text',
  'created_at',
  'sent_at',
  'send_error',
  'send_attempts',
  'next_attempt_at',
]);

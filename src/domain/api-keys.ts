// API keys (spec §5, decisions §2): created for a team or an organization with scopes and an expiry,
// shown once, stored as a hash, revoked by deleting their use. Authentication also reports the
// organization's policy so that the HTTP layer can refuse in the order decisions §4 sets.
import { recordAudit } from './audit.js';
import type { ApiKeysTable, KeyHomeType } from '../db/schema.js';
import { isPostgres } from '../db/sql-functions.js';
import { generateKeySecret, hashKeySecret, isWellFormedKeySecret, keySecretHint } from './api-key-secret.js';
import { timestamp } from './clock.js';
import { type DomainContext, type Executor, transact } from './context.js';
import { NotFoundError } from './errors.js';
import { newId } from './ids.js';
import { findOrganization, requireOrganization } from './organizations.js';
import { remember } from './read-cache.js';
import { dependsOn, tag, touched } from './read-dependencies.js';
import { type Home, homeOf } from './homes.js';
import { findTeam, requireTeam } from './teams.js';
import { API_KEY_COLUMNS } from '../db/columns.js';

/**
 * What a key may do: the reads of v1, and `webhooks:manage`, the webhook-endpoint and delivery
 * operations of the management API for the key's home (shared decisions §11).
 */
export type Scope = 'guides:read' | 'teams:read' | 'members:read' | 'webhooks:manage';
export const SCOPES: readonly Scope[] = ['guides:read', 'teams:read', 'members:read', 'webhooks:manage'];
export const MANAGE_WEBHOOKS: Scope = 'webhooks:manage';

export interface ApiKey {
  id: string;
  name: string;
  home: Home;
  scopes: Scope[];
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  secret_hint: string;
}

export type KeyPolicy = 'ok' | 'api_disabled' | 'team_keys_disabled';

export type Authentication =
  | { outcome: 'invalid' }
  | { outcome: 'expired' }
  | { outcome: 'ok'; key: ApiKey; policy: KeyPolicy };

const DAY_MS = 86_400_000;

function apiKeyOf(row: ApiKeysTable): ApiKey {
  return {
    id: row.id,
    name: row.name,
    home: homeOf(row),
    scopes: row.scopes.split(' ') as Scope[],
    expires_at: row.expires_at,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    secret_hint: row.secret_hint,
  };
}

async function requireHome(db: Executor, home: Home): Promise<void> {
  if (home.type === 'team') await requireTeam(db, home.id);
  else await requireOrganization(db, home.id);
}

export interface ApiKeyInput {
  home: Home;
  name: string;
  scopes: Scope[];
  expires_in_days: number | null;
}

/** Creates a key; the returned secret is the only copy of the full key there will ever be. */
export async function createApiKey(ctx: DomainContext, input: ApiKeyInput): Promise<{ key: ApiKey; secret: string }> {
  await requireHome(ctx.db, input.home);
  const now = ctx.clock.now();
  const secret = generateKeySecret();
  // Scopes keep the order of the specification, whatever order they were given in.
  const scopes = SCOPES.filter((scope) => input.scopes.includes(scope));
  const row: ApiKeysTable = {
    id: newId(),
    home_type: input.home.type,
    home_id: input.home.id,
    name: input.name,
    scopes: scopes.join(' '),
    secret_hash: hashKeySecret(secret),
    secret_hint: keySecretHint(secret),
    expires_at: input.expires_in_days === null ? null : timestamp(new Date(now.getTime() + input.expires_in_days * DAY_MS)),
    created_at: timestamp(now),
    last_used_at: null,
    revoked_at: null,
  };
  await transact(ctx, async (trx) => {
    await trx.insertInto('api_keys').values(row).execute();
    touched(trx, 'api_keys', [tag.key(row.secret_hash)]);
    await recordAudit(ctx, trx, { action: 'api_key.created', target: { type: 'api_key', id: row.id }, home: input.home });
  });
  return { key: apiKeyOf(row), secret };
}

export async function listApiKeys(ctx: DomainContext, home: Home): Promise<ApiKey[]> {
  await requireHome(ctx.db, home);
  const rows = await ctx.db
    .selectFrom('api_keys')
    .select(API_KEY_COLUMNS)
    .where('home_type', '=', home.type)
    .where('home_id', '=', home.id)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(apiKeyOf);
}

export async function revokeApiKey(ctx: DomainContext, id: string): Promise<void> {
  await transact(ctx, async (trx) => {
    const key = await trx
      .selectFrom('api_keys')
      .select(['secret_hash', 'home_type', 'home_id'])
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!key) throw new NotFoundError('API key');
    await trx.updateTable('api_keys').set({ revoked_at: timestamp(ctx.clock.now()) }).where('id', '=', id).execute();
    touched(trx, 'api_keys', [tag.key(key.secret_hash)]);
    await recordAudit(ctx, trx, { action: 'api_key.revoked', target: { type: 'api_key', id }, home: homeOf(key) });
  });
}

async function policyFor(db: Executor, homeType: KeyHomeType, homeId: string): Promise<KeyPolicy | null> {
  if (homeType === 'organization') {
    const organization = await findOrganization(db, homeId);
    if (!organization) return null;
    return organization.api_enabled ? 'ok' : 'api_disabled';
  }
  const team = await findTeam(db, homeId);
  if (!team) return null;
  if (!team.organization_id) return 'ok';
  const organization = await findOrganization(db, team.organization_id);
  if (!organization) return 'ok';
  if (!organization.api_enabled) return 'api_disabled';
  return organization.org_keys_only ? 'team_keys_disabled' : 'ok';
}

/** A live key with its organization's policy, as found by the hash of its secret; what admission caches. */
export interface KeyRecord {
  key: ApiKey;
  policy: KeyPolicy;
}

/** The key whose secret hashes to `hash`, unless it is unknown, revoked or its home is gone. */
export async function findKeyByHash(db: Executor, hash: string): Promise<KeyRecord | null> {
  dependsOn(db, tag.key(hash));
  const row = await db.selectFrom('api_keys').select(API_KEY_COLUMNS).where('secret_hash', '=', hash).executeTakeFirst();
  if (!row || row.revoked_at !== null) return null;
  const policy = await policyFor(db, row.home_type, row.home_id);
  return policy === null ? null : { key: apiKeyOf(row), policy };
}

/** What a found key (or none) allows now: expiry is a matter of the clock, so it is checked on every use. */
export function authenticationOf(record: KeyRecord | null, now: Date): Authentication {
  if (!record) return { outcome: 'invalid' };
  if (record.key.expires_at !== null && record.key.expires_at <= timestamp(now)) return { outcome: 'expired' };
  return { outcome: 'ok', key: record.key, policy: record.policy };
}

/**
 * Resolves a bearer secret to its key. A malformed secret is refused without a database read. `fresh`
 * reads the store even when the read cache holds the key.
 */
export async function authenticateKey(ctx: DomainContext, secret: string, options: { fresh?: boolean } = {}): Promise<Authentication> {
  if (!isWellFormedKeySecret(secret)) return { outcome: 'invalid' };
  const hash = hashKeySecret(secret);
  const record = options.fresh ? await findKeyByHash(ctx.db, hash) : await remember(ctx, `key:${hash}`, (reader) => findKeyByHash(reader.db, hash));
  return authenticationOf(record, ctx.clock.now());
}

const LAST_USED_PRECISION_MS = 60_000;

/**
 * Records that a key was used; at most once a minute per key, so reads do not turn into writes. The
 * requests of one key all come at once when its minute has passed, and each would otherwise write the
 * same row: on PostgreSQL they queued on its lock, each holding a pooled connection (16 of the 20 in the
 * mixed benchmark at 10 edits/s), so that reads of every key waited for a connection. So the record,
 * which the requests of a process share while it is cached, is marked before the write; and a request
 * that finds another writing the row lets that write stand for its own (SKIP LOCKED).
 */
export async function touchApiKey(ctx: DomainContext, key: ApiKey): Promise<void> {
  const now = ctx.clock.now();
  if (key.last_used_at !== null && now.getTime() - Date.parse(key.last_used_at) < LAST_USED_PRECISION_MS) return;
  // The key may be a cached record that outlives this request (the write below does not drop it).
  key.last_used_at = timestamp(now);
  await transact(ctx, async (trx) => {
    const unlocked = trx.selectFrom('api_keys').select('id').where('id', '=', key.id);
    await trx
      .updateTable('api_keys')
      .set({ last_used_at: timestamp(now) })
      .where('id', 'in', isPostgres(trx) ? unlocked.forUpdate().skipLocked() : unlocked)
      .execute();
    // The v1 interface never shows a key's last use, so no answer changes.
    touched(trx, 'api_keys', []);
  });
}

// Applies the migration list in order, once. Each migration is written for both dialects. On PostgreSQL
// Kysely's migrator holds an advisory lock while it migrates, and runs every pending migration in one
// transaction, so processes that start together migrate once: the first applies, the others wait and
// then find nothing left to do. Migrations only add, or drop an index no query names (docs/decisions.md
// "Migrations: expand, then contract"), so a process of the previous release may start on a store a newer
// release has migrated (a rollback, or a restart in the middle of a rolling deploy): it runs on it as long
// as every migration it knows is applied, where Kysely's migrator would refuse an applied migration it
// does not know.
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { SET_LOCK_WAIT, type Store } from './database.js';
import type { Database } from './schema.js';
import { initial } from './migrations/0001_initial.js';
import { webhooks } from './migrations/0002_webhooks.js';
import { sharedRateLimits } from './migrations/0003_shared_rate_limits.js';
import { claimOwners } from './migrations/0004_claim_owners.js';
import { consoleSessions } from './migrations/0005_console_sessions.js';
import { endpointQueues } from './migrations/0006_endpoint_queues.js';
import { guideWalkIndex } from './migrations/0007_guide_walk_index.js';
import { deliveryQueues } from './migrations/0008_delivery_queues.js';
import { guideOrganizationWalk } from './migrations/0009_guide_organization_walk.js';
import { mailSendText } from './migrations/0011_mail_send_text.js';
import { eventsFeed } from './migrations/0012_events_feed.js';
import { provenQueues } from './migrations/0013_proven_queues.js';
import { storeProbes } from './migrations/0014_store_probes.js';
import { signInLinkAddresses } from './migrations/0015_sign_in_link_addresses.js';
import { auditEvents } from './migrations/0016_audit_events.js';
import { signingKeyOverlap } from './migrations/0017_signing_key_overlap.js';
import { guideTitleWords } from './migrations/0018_guide_title_words.js';
import { testEvents } from './migrations/0019_test_events.js';
import { idempotencyKeys } from './migrations/0020_idempotency_keys.js';
import { auditCounts } from './migrations/0021_audit_counts.js';
import { attemptsPrunedByEndpoint } from './migrations/0022_attempts_pruned_by_endpoint.js';

function migrationList(store: Store): Record<string, Migration> {
  return {
    '0001_initial': initial(store.dialect),
    '0002_webhooks': webhooks(store.dialect),
    '0003_shared_rate_limits': sharedRateLimits(store.dialect),
    '0004_claim_owners': claimOwners(store.dialect),
    '0005_console_sessions': consoleSessions(store.dialect),
    '0006_endpoint_queues': endpointQueues(),
    '0007_guide_walk_index': guideWalkIndex(store.dialect),
    '0008_delivery_queues': deliveryQueues(store.dialect),
    '0009_guide_organization_walk': guideOrganizationWalk(store.dialect),
    '0011_mail_send_text': mailSendText,
    '0012_events_feed': eventsFeed(store.dialect),
    '0013_proven_queues': provenQueues,
    '0014_store_probes': storeProbes(store.dialect),
    '0015_sign_in_link_addresses': signInLinkAddresses(store.dialect),
    '0016_audit_events': auditEvents(store.dialect),
    '0017_signing_key_overlap': signingKeyOverlap(store.dialect),
    '0018_guide_title_words': guideTitleWords(store.dialect),
    '0019_test_events': testEvents,
    '0020_idempotency_keys': idempotencyKeys(store.dialect),
    '0021_audit_counts': auditCounts,
    '0022_attempts_pruned_by_endpoint': attemptsPrunedByEndpoint,
  };
}

export function migrationNames(store: Store): string[] {
  return Object.keys(migrationList(store));
}

/** The names of the migrations the store has applied; none on a new store. */
async function appliedMigrations(store: Store): Promise<string[]> {
  const tables = await store.db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === 'kysely_migration')) return [];
  return (await sql<{ name: string }>`select name from kysely_migration`.execute(store.db)).rows.map((row) => row.name);
}

/**
 * Brings the store up to this release; answers the migrations of a newer release already applied, which
 * this one runs beside (empty when there are none).
 */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const known = new Set(migrationNames(store));
  const applied = await appliedMigrations(store);
  const newer = applied.filter((name) => !known.has(name));
  if (newer.length > 0) {
    const missing = [...known].filter((name) => !applied.includes(name));
    if (missing.length > 0) {
      throw new Error(`The store has migrations of another release (${newer.join(', ')}) but lacks ${missing.join(', ')} of this one; start the release that migrated it`);
    }
    return newer;
  }
  const provider: MigrationProvider = { getMigrations: async () => migrationList(store) };
  const migrate = (db: Kysely<Database>) => new Migrator({ db, provider }).migrateToLatest();
  const { error } = store.dialect === 'postgres' ? await store.db.connection().execute((connection) => waitingForLocks(connection, migrate)) : await migrate(store.db);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return [];
}

/**
 * Runs `work` on one connection that waits for locks as long as it must: a migration's table locks may
 * have to wait for a long transaction (a backup's), and a migration given up after the pool's lock wait would
 * leave a deploy unable to start. The connection then goes back to the pool with the pool's wait.
 */
async function waitingForLocks<T>(connection: Kysely<Database>, work: (connection: Kysely<Database>) => Promise<T>): Promise<T> {
  await sql`SET lock_timeout = 0`.execute(connection);
  try {
    return await work(connection);
  } finally {
    await sql.raw(SET_LOCK_WAIT).execute(connection).catch(() => undefined);
  }
}

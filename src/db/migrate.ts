// Applies the migration list in order, once. Each migration is written for both dialects. On PostgreSQL
// Kysely's migrator holds an advisory lock while it migrates, so processes that start together migrate
// once: the first applies, the others wait and then find nothing left to do.
import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Store } from './database.js';
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
  };
}

export function migrationNames(store: Store): string[] {
  return Object.keys(migrationList(store));
}

export async function migrateToLatest(store: Store): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationList(store) };
  const migrator = new Migrator({ db: store.db, provider });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

// Applies the migration list in order, once. Each migration is written for both dialects.
import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Store } from './database.js';
import { initial } from './migrations/0001_initial.js';
import { webhooks } from './migrations/0002_webhooks.js';

function migrationList(store: Store): Record<string, Migration> {
  return {
    '0001_initial': initial(store.dialect),
    '0002_webhooks': webhooks(store.dialect),
  };
}

export async function migrateToLatest(store: Store): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationList(store) };
  const migrator = new Migrator({ db: store.db, provider });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

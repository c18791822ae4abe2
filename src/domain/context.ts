// What every domain operation needs: the store, the clock, the settings that shape answers, and the
// signal that tells the webhook worker new work was committed.
import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';

export interface DomainSettings {
  /** `guide.url` in events is `${appUrl}/guides/{id}`. */
  appUrl: string;
  previewSteps: number;
  /** Edits to one guide within this many ms of the first form one guide.updated; 0 sends each at once. */
  coalesceMs: number;
}

/** Wakes the delivery worker; called after a write commits, so the worker sees what it wrote. */
export interface OutboxSignal {
  wake(): void;
}

export interface DomainContext {
  db: Kysely<Database>;
  dialect: DialectName;
  clock: Clock;
  settings: DomainSettings;
  /** Signs and checks list cursors; kept in the store so every process agrees. */
  cursorSecret: Buffer;
  outbox: OutboxSignal;
}

export type Executor = Kysely<Database>;

/** Runs a write and its events in one transaction, then wakes the worker. */
export async function transact<T>(ctx: DomainContext, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const result = await ctx.db.transaction().execute(work);
  ctx.outbox.wake();
  return result;
}

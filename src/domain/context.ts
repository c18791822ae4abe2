// What every domain operation needs: the store, the clock and the settings that shape answers.
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';

export interface DomainSettings {
  /** `guide.url` in events is `${appUrl}/guides/{id}`. */
  appUrl: string;
  previewSteps: number;
}

export interface DomainContext {
  db: Kysely<Database>;
  dialect: DialectName;
  clock: Clock;
  settings: DomainSettings;
  /** Signs and checks list cursors; kept in the store so every process agrees. */
  cursorSecret: Buffer;
}

export type Executor = Kysely<Database>;

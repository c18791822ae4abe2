import { type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Text compared byte by byte on both stores: ids, timestamps and slugs sort and compare the same in
 * SQLite, in PostgreSQL whatever the database's locale, and in the JavaScript that reads them.
 */
export function textType(dialect: DialectName): 'text' | RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`text collate "C"` : 'text';
}

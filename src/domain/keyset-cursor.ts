// Keyset paging (decisions §4), the one module every list uses: a page is read newest first, (created_at,
// id) descending, one row more than its limit (the extra row only says whether there is more); its
// position is the last row's, signed together with its holder and the filters it came from, so that an
// altered cursor, or one reused with other filters or by another key, is refused rather than giving a
// wrong page. A ranked list (MCP's word search) is read best first, then newest first: its positions carry
// the rank too.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Expression, type SqlBool, sql } from 'kysely';
import { isUuidShaped } from './ids.js';

export interface KeysetPosition {
  createdAt: string;
  id: string;
  /** In a ranked list, the row's rank (higher first); absent elsewhere. */
  rank?: number;
}

/** The highest rank a cursor carries: ranks count matched words, a handful at most. */
const MAX_RANK = 99;

export interface CursorBinding {
  /** Who may use the cursor: a key id, or a management caller. */
  holder: string;
  filters: readonly (string | null | undefined)[];
}

/** The rows of `table` (a name or an alias) that come after `position` newest first. */
export function afterPosition(table: string, position: KeysetPosition): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${table}.created_at`)}, ${sql.ref(`${table}.id`)}) < (${position.createdAt}, ${position.id})`;
}

/** Rows to read for a page of `limit`: one more, to learn whether another page follows. */
export function rowsToRead(limit: number): number {
  return limit + 1;
}

/** The rows of a ranked list (columns `rank`, `created_at`, `id` of `table`) that come after `position`. */
export function afterRankedPosition(table: string, position: KeysetPosition): Expression<SqlBool> {
  const rank = sql.ref(`${table}.rank`);
  return sql<SqlBool>`(${rank} < ${position.rank ?? 0} OR (${rank} = ${position.rank ?? 0} AND ${afterPosition(table, position)}))`;
}

/** The page of `limit` among rows read with `rowsToRead`, and where the next one starts (null: none). */
export function pageOf<T extends { created_at: string; id: string; rank?: number }>(rows: T[], limit: number): { rows: T[]; next: KeysetPosition | null } {
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  if (rows.length <= limit || !last) return { rows: page, next: null };
  return { rows: page, next: { createdAt: last.created_at, id: last.id, ...(last.rank === undefined ? {} : { rank: last.rank }) } };
}

const MAC_BYTES = 16;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function mac(secret: Buffer, binding: CursorBinding, payload: string): Buffer {
  const hmac = createHmac('sha256', secret);
  hmac.update(JSON.stringify([binding.holder, ...binding.filters.map((f) => f ?? null), payload]));
  return hmac.digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(secret: Buffer, binding: CursorBinding, position: KeysetPosition): string {
  const payload = `${position.createdAt}|${position.id}` + (position.rank === undefined ? '' : `|${position.rank}`);
  return `${Buffer.from(payload).toString('base64url')}.${mac(secret, binding, payload).toString('base64url')}`;
}

/** What every cursor looks like: its position in base64url, a dot, and its 16-byte MAC in base64url. */
const CURSOR_SHAPE = /^([A-Za-z0-9_-]{1,128})\.([A-Za-z0-9_-]{22})$/;
export const CURSOR_PATTERN = CURSOR_SHAPE.source;

/** The position a cursor names, or null when it does not decode, was altered or belongs elsewhere. */
export function decodeCursor(secret: Buffer, binding: CursorBinding, cursor: string): KeysetPosition | null {
  const match = CURSOR_SHAPE.exec(cursor);
  if (!match) return null;
  const payload = Buffer.from(match[1]!, 'base64url').toString('utf8');
  const given = Buffer.from(match[2]!, 'base64url');
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(secret, binding, payload))) return null;
  const [createdAt, id, rankText, extra] = payload.split('|');
  if (extra !== undefined || !createdAt || !id || !TIMESTAMP.test(createdAt) || !isUuidShaped(id)) return null;
  const rank = rankText === undefined ? undefined : Number(rankText);
  if (rank !== undefined && !(Number.isInteger(rank) && rank >= 0 && rank <= MAX_RANK)) return null;
  const position: KeysetPosition = { createdAt, id, ...(rank === undefined ? {} : { rank }) };
  // base64url leaves spare bits in a last character; only the canonical spelling is the cursor we made.
  if (encodeCursor(secret, binding, position) !== cursor) return null;
  return position;
}

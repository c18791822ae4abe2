// One list answer of every keyset-paged endpoint (v1 guides, the management API's guides and delivery
// attempts): the cursor decoded for this holder and these filters or refused, the page read after it, and
// the next cursor signed the same way (decisions §4).
import type { CursorBinding, KeysetPosition } from '../domain/keyset-cursor.js';
import { decodeCursor, encodeCursor } from '../domain/keyset-cursor.js';
import { invalidRequest } from './problem.js';

/** The management API's refusal of a cursor from elsewhere. */
export const NOT_THIS_LIST = "Parameter 'cursor' is not a cursor of this list";

export interface KeysetList<T> {
  data: T[];
  next_cursor: string | null;
}

export async function keysetList<T>(
  secret: Buffer,
  binding: CursorBinding,
  cursor: string | undefined,
  /** What the 400 says when the cursor is not one of this list's. */
  refusal: string,
  read: (after: KeysetPosition | null) => Promise<{ items: T[]; next: KeysetPosition | null }>,
  /** Bindings cursors of an earlier release were made with, still taken; the next cursor has `binding`. */
  earlier: readonly CursorBinding[] = [],
): Promise<KeysetList<T>> {
  const after = cursor === undefined ? null : [binding, ...earlier].reduce<KeysetPosition | null>((found, each) => found ?? decodeCursor(secret, each, cursor), null);
  if (cursor !== undefined && after === null) throw invalidRequest(refusal);
  const page = await read(after);
  return { data: page.items, next_cursor: page.next ? encodeCursor(secret, binding, page.next) : null };
}

import { randomUUID } from 'node:crypto';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are lowercase UUIDs (decisions §2). */
export function newId(): string {
  return randomUUID();
}

/**
 * The start of an id, at least its first 8 characters (the short id a list shows): hex digits, and
 * hyphens where a UUID has them; a whole id is one too. As a pattern, for a parameter's schema.
 */
export const UUID_START_PATTERN = '^[0-9a-fA-F]{8}(-[0-9a-fA-F]{0,4}(-[0-9a-fA-F]{0,4}(-[0-9a-fA-F]{0,4}(-[0-9a-fA-F]{0,12})?)?)?)?$';
const UUID_START = new RegExp(UUID_START_PATTERN);

/** True for a whole id or the start of one (UUID_START_PATTERN), in any letter case. */
export function isUuidStart(text: string): boolean {
  return UUID_START.test(text);
}

/** True for any UUID-shaped text, in any letter case. */
export function isUuidShaped(text: string): boolean {
  return UUID_SHAPE.test(text);
}

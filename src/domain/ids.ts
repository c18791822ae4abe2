import { randomUUID } from 'node:crypto';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are lowercase UUIDs (decisions §2). */
export function newId(): string {
  return randomUUID();
}

/** True for any UUID-shaped text, in any letter case. */
export function isUuidShaped(text: string): boolean {
  return UUID_SHAPE.test(text);
}

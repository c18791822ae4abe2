// Ids arrive in any letter case and are stored in lowercase (decisions §2). They are lowercased here,
// once, at the edge, for every route of the plugins that register this hook: in the path, the query and
// the body, before any handler or permission check reads them. The domain takes ids as given.
// An id is a UUID-shaped value of a field named `id`, `…_id` or `…Id`, or the start of one there (a
// filter that takes the short id a list shows), or an item of a `…_ids` list; other text (a title, a
// search term) is never touched, whatever it looks like.
import type { FastifyRequest } from 'fastify';
import { isUuidShaped, isUuidStart } from '../domain/ids.js';

const ID_NAME = /^(?:id|.+_id|.+Id)$/;
const ID_LIST_NAME = /^.+_ids$/;

const lowered = (value: unknown): unknown => (typeof value === 'string' && isUuidShaped(value) ? value.toLowerCase() : value);
const loweredStart = (value: unknown): unknown => (typeof value === 'string' && isUuidStart(value) ? value.toLowerCase() : value);

/**
 * Lowercases the ids in `values`, in place. Bodies are at most MAX_BODY_DEPTH (body-faults.ts) deep by the time this runs
 * (checked in preValidation), so recursion is bounded.
 */
export function lowercaseIds(values: unknown): void {
  if (values === null || typeof values !== 'object') return;
  if (Array.isArray(values)) {
    for (const item of values) lowercaseIds(item);
    return;
  }
  const record = values as Record<string, unknown>;
  for (const [name, value] of Object.entries(record)) {
    if (ID_NAME.test(name)) record[name] = loweredStart(value);
    else if (ID_LIST_NAME.test(name) && Array.isArray(value)) record[name] = value.map(lowered);
    else lowercaseIds(value);
  }
}

export async function lowercaseIdParameters(request: FastifyRequest): Promise<void> {
  lowercaseIds(request.params);
  lowercaseIds(request.query);
  lowercaseIds(request.body);
}

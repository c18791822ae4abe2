// What makes a JSON body unacceptable before any route validates it, on every interface that takes one
// (the management API, the console's API, MCP): nesting deeper than MAX_BODY_DEPTH, or half of a UTF-16
// surrogate pair with no other half (JSON's `"\ud800"`), which is not Unicode text at all: the two stores
// wrote it as different replacement characters, so the same request stored different titles (decisions
// §10). The management API also refuses a NUL character (PostgreSQL refuses it in text); MCP answers it
// as a tool error, from the tools' argument schemas. Strings and keys alike; the refusal names the field
// by its path.
import type { FastifyRequest } from 'fastify';
import { ProblemError } from './problem.js';

// No body needs more than a few levels; a deeper one is refused before anything walks it further.
export const MAX_BODY_DEPTH = 32;

export type BodyFault = { kind: 'too_deep' } | { kind: 'nul' | 'lone_surrogate'; path: string };

function textFault(text: string, refuseNul: boolean): 'nul' | 'lone_surrogate' | null {
  if (refuseNul && text.includes('\u0000')) return 'nul';
  return text.isWellFormed() ? null : 'lone_surrogate';
}

/**
 * The first fault of a parsed body in document order, or null; a NUL counts with `refuseNul`. Walked with
 * a stack of its own, not by recursion, so that no body can exhaust the call stack.
 */
function bodyFault(body: unknown, refuseNul: boolean): BodyFault | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      const kind = textFault(value, refuseNul);
      if (kind) return { kind, path };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return { kind: 'too_deep' };
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
    // Pushed in reverse, so that the first offending field in document order is the one named.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const inner = path ? `${path}.${key}` : key;
      const kind = textFault(key, refuseNul);
      if (kind) return { kind, path: inner };
      pending.push({ value: item, path: inner, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * A preValidation hook that refuses a body with a fault as 400, naming the field: for every route, and
 * with `refuseNul` for those that store text (the management API).
 */
export const faultyBodyRefusal = (refuseNul: boolean) => async (request: FastifyRequest): Promise<void> => {
  if (request.body === undefined || request.body === null || typeof request.body !== 'object') return;
  const fault = bodyFault(request.body, refuseNul);
  if (fault === null) return;
  if (fault.kind === 'too_deep') throw new ProblemError('invalid_request', `The body is nested more than ${MAX_BODY_DEPTH} levels deep`);
  // The path of a key that is itself at fault can hold anything; shown only up to a point.
  const field = (fault.path || 'body').slice(0, 64).toWellFormed();
  if (fault.kind === 'nul') throw new ProblemError('invalid_request', `Field '${field}' must not contain NUL characters`);
  throw new ProblemError('invalid_request', `Field '${field}' is not valid Unicode text: it holds half of a UTF-16 surrogate pair without the other half`);
};

// Management API bodies are JSON and are taken as they are: `"123"` is not a number, `"false"` is not a
// boolean and null is not false. Only path and query values, which arrive as text, are coerced.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function ajvWith(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false, verbose: true });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

export function strictBodyValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const forBodies = ajvWith(false);
  const forText = ajvWith(true);
  return ({ schema, httpPart }) => (httpPart === 'body' ? forBodies : forText).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}

// No management body needs more than a few levels; a deeper one is refused before anything walks it.
export const MAX_BODY_DEPTH = 32;

export type BodyFault = { kind: 'too_deep' } | { kind: 'nul'; path: string };

/**
 * What makes a JSON body unacceptable before validation: nesting deeper than MAX_BODY_DEPTH, or a string
 * (a key counts too) holding a NUL character, with its path. Walked with a stack of its own, not by
 * recursion, so that no body can exhaust the call stack.
 */
export function bodyFault(body: unknown): BodyFault | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { kind: 'nul', path };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return { kind: 'too_deep' };
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
    // Pushed in reverse, so that the first offending field in document order is the one named.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const inner = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return { kind: 'nul', path: inner };
      pending.push({ value: item, path: inner, depth: depth + 1 });
    }
  }
  return null;
}

// Management API bodies are JSON and are taken as they are: `"123"` is not a number, `"false"` is not a
// boolean and null is not false. Only path and query values, which arrive as text, are coerced.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function ajvWith(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

export function strictBodyValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const forBodies = ajvWith(false);
  const forText = ajvWith(true);
  return ({ schema, httpPart }) => (httpPart === 'body' ? forBodies : forText).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}

/** The path of the first string in a JSON body that holds a NUL character (a key counts too), or null. */
export function fieldWithNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = fieldWithNul(item, path ? `${path}.${index}` : String(index));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const inner = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return inner;
      const found = fieldWithNul(item, inner);
      if (found !== null) return found;
    }
  }
  return null;
}

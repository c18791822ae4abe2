// Management API bodies are JSON and are taken as they are: `"123"` is not a number, `"false"` is not a
// boolean and null is not false. Only path and query values, which arrive as text, are coerced. (What no
// body may hold at all is refused before validation, for every interface: src/http/body-faults.ts.)
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

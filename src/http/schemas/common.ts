// Schema pieces shared by the public and the management routes. Nullable values are written as JSON
// Schema type arrays (not anyOf), which OpenAPI 3.1 reads as they are and fast-json-stringify
// serializes without trial validation.
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { CURSOR_PATTERN } from '../../domain/keyset-cursor.js';
import { ERROR_CODES } from '../error-catalogue.js';

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export function Nullable<T extends TSchema>(schema: T) {
  const { type } = schema as unknown as { type: string };
  const extra = 'enum' in schema ? { enum: [...(schema as unknown as { enum: unknown[] }).enum, null] } : {};
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'], ...extra });
}

export function StringEnum<T extends string>(values: readonly T[], options: Record<string, unknown> = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

/**
 * What a value with a pattern must be, in words a person reads in a refusal ("Field 'url' must be …"):
 * a pattern is for the validator, this is for whoever sent the value.
 */
export const ACCEPTS = 'x-accepts';

export const Uuid = (options: Record<string, unknown> = {}) => Type.String({ format: 'uuid', pattern: UUID_PATTERN, [ACCEPTS]: 'a UUID', ...options });

/** A page's cursor: declared by its shape, so clients and validators know it; what it names is checked on use. */
export const Cursor = (options: Record<string, unknown> = {}) =>
  Type.String({ pattern: CURSOR_PATTERN, maxLength: 512, [ACCEPTS]: 'the next_cursor of the previous page, unchanged', description: 'The next_cursor of the previous page', ...options });

/** Marks a query parameter that lists values separated by commas: its schema as the document shows it. */
export const LISTED_AS = 'x-comma-separated';

/**
 * A query parameter that lists values separated by commas (`types=a,b`). It is validated as the text it
 * is on the wire, and its route parses and refuses it in its own words; the document shows it as OpenAPI
 * describes such a list (an array of `items`, style form, explode false: openapi-document.ts), so that a
 * client generated from the document types it and sends it comma-separated.
 */
export const CommaSeparated = (items: TSchema, list: { minItems: number; maxItems: number; uniqueItems: boolean }, options: Record<string, unknown> = {}) =>
  Type.String({ ...options, [LISTED_AS]: { type: 'array', items, ...list } });

/** Text a person types (a name, a description): not empty and not only spaces. */
export const Text = (options: { maxLength: number } & Record<string, unknown>) =>
  Type.String({ minLength: 1, pattern: '\\S', [ACCEPTS]: 'text with at least one character that is not a space', ...options });
export const Timestamp = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'date-time', examples: ['2026-11-21T09:30:00.000Z'], ...options });

/** For endpoints without query parameters: any parameter is unknown, so refused. */
export const NoParameters = Type.Object({}, { additionalProperties: false });

export const Problem = Type.Object(
  {
    type: Type.String({ format: 'uri', description: "Link to the error's entry in the API reference" }),
    title: Type.String(),
    status: Type.Integer({ description: 'The HTTP status' }),
    detail: Type.String({ description: 'What is wrong; for invalid_request it names the parameter' }),
    code: StringEnum(ERROR_CODES, { description: 'Stable; clients switch on it' }),
    request_id: Type.String({ description: 'Quote it to support' }),
  },
  { $id: 'Problem', title: 'Problem', additionalProperties: false },
);

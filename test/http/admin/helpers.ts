// Shared assertions for the management API tests (decisions §7): problem answers, field-naming 400s and
// a read-only view of the event outbox.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { ADMIN_TOKEN, PUBLIC_URL, type TestService } from '../../support/service.js';

/** A well-formed UUID that no row ever has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
/** Lowercase UUID (decisions §2). */
export const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ANY_CASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 3339, UTC, milliseconds, trailing Z (decisions §2). */
export const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const PERMALINK_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const PROBLEM_KEYS = ['code', 'detail', 'request_id', 'status', 'title', 'type'];

/** The answer is an RFC 9457 problem with this status and code, carrying the request id. */
export function expectProblem(response: LightMyRequestResponse, status: number, code: string): Record<string, any> {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = response.json();
  expect(Object.keys(body).sort()).toEqual(PROBLEM_KEYS);
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(body.type).toBe(`${PUBLIC_URL}/docs#error-${code}`);
  expect(typeof body.request_id).toBe('string');
  expect(body.request_id.length).toBeGreaterThan(0);
  expect(body.request_id).toBe(response.headers['x-request-id']);
  return body;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 400 invalid_request whose detail names `field` (as a whole word). */
export function expectInvalid(response: LightMyRequestResponse, field: string): Record<string, any> {
  const body = expectProblem(response, 400, 'invalid_request');
  expect(body.detail, `detail should name ${field}`).toMatch(new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(field)}([^A-Za-z0-9_]|$)`));
  return body;
}

export function expectNotFound(response: LightMyRequestResponse): Record<string, any> {
  return expectProblem(response, 404, 'not_found');
}

export function expectConflict(response: LightMyRequestResponse): Record<string, any> {
  return expectProblem(response, 409, 'conflict');
}

/** A management API request with a raw payload and headers of the test's choosing. */
export function rawAdmin(
  t: TestService,
  method: string,
  path: string,
  payload?: string | Buffer,
  headers: Record<string, string> = {},
  token: string | null = ADMIN_TOKEN,
): Promise<LightMyRequestResponse> {
  return t.service.app.inject({
    method: method as 'POST',
    url: `/admin/v1${path}`,
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
}

let counter = 0;
/** An e-mail address no other test uses. */
export function uniqueEmail(prefix = 'person'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export async function createUser(t: TestService, fields: Record<string, unknown> = {}) {
  return t.admin('POST', '/users', { email: uniqueEmail(), ...fields });
}

export interface OutboxEvent {
  seq: number;
  row: { id: string; type: string; team_id: string; organization_id: string | null; created_at: string };
  envelope: {
    id: string;
    created_at: string;
    team_id: string;
    organization_id: string | null;
    type: string;
    data: any;
  };
}

/** Every recorded event, oldest first, read-only from the outbox table. */
export async function readEvents(t: TestService): Promise<OutboxEvent[]> {
  const rows = await t.service.ctx.db.selectFrom('events').selectAll().orderBy('seq').execute();
  return rows.map((row: any) => ({
    seq: Number(row.seq),
    row: { id: row.id, type: row.type, team_id: row.team_id, organization_id: row.organization_id, created_at: row.created_at },
    envelope: JSON.parse(row.payload),
  }));
}

/** A mark in the outbox: `eventsSince(t, mark)` gives what was recorded after it. */
export async function outboxMark(t: TestService): Promise<number> {
  const events = await readEvents(t);
  return events.length === 0 ? 0 : events[events.length - 1]!.seq;
}

export async function eventsSince(t: TestService, mark: number): Promise<OutboxEvent['envelope'][]> {
  return (await readEvents(t)).filter((event) => event.seq > mark).map((event) => event.envelope);
}

// A whole service on an in-memory store, driven through HTTP with Fastify's inject, with a clock the
// test can move. Fixtures are made through the management API, like a client would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Clock } from '../../src/domain/clock.js';
import { createService, type Service, type ServiceOptions } from '../../src/service.js';
import { checkResponse } from './openapi-conformance.js';
import { testDatabase } from './test-database.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const PUBLIC_URL = 'http://api.test';

export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestService {
  service: Service;
  clock: TestClock;
  /** A request to the public interface; every answer is checked against the OpenAPI document. */
  get(path: string, key?: string | null, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  request(method: string, path: string, key?: string | null, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A management API call that must succeed; returns `data`. */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** A management API call, whatever its answer. */
  adminRaw(method: string, path: string, body?: unknown, token?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The service's own options a test may set (the clock and the logger are the test service's), and where its log lines go. */
export interface TestServiceOptions extends Pick<ServiceOptions, 'resolver' | 'random' | 'transport' | 'lanes' | 'nextTurn'> {
  /** Collects the service's log lines (JSON, level info and up). */
  logLines?: string[];
}

export async function startTestService(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const clock = new TestClock();
  // A test that names its own store keeps it; every other one gets a fresh one.
  const database = env.DATABASE_URL ? { env: {}, drop: async () => undefined } : await testDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'guide-service-test-'));
  const config = loadConfig({
    ...database.env,
    ADMIN_TOKEN,
    PUBLIC_URL,
    DEMO: 'false',
    DATA_DIR: dataDir,
    LOG_LEVEL: options.logLines ? 'info' : 'silent',
    ...env,
  });
  const { logLines, ...serviceOptions } = options;
  const logStream = logLines && { write: (line: string) => void logLines.push(line) };
  const service = await createService(config, { ...serviceOptions, clock, logStream });

  const request = async (method: string, path: string, key?: string | null, headers: Record<string, string> = {}) => {
    const response = await service.app.inject({
      method: method as 'GET',
      url: path,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    });
    if (path.startsWith('/v1/') && !path.startsWith('/v1/openapi.json')) await checkResponse(service, method, path, response);
    return response;
  };

  const adminRaw = (method: string, path: string, body?: unknown, token = ADMIN_TOKEN) =>
    service.app.inject({
      method: method as 'GET',
      url: `/admin/v1${path}`,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });

  return {
    service,
    clock,
    request,
    get: (path, key, headers) => request('GET', path, key, headers),
    adminRaw,
    admin: async (method, path, body) => {
      const response = await adminRaw(method, path, body);
      if (response.statusCode >= 300) throw new Error(`${method} ${path} answered ${response.statusCode}: ${response.body}`);
      return response.body === '' ? undefined : response.json().data;
    },
    close: async () => {
      await service.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Scope = 'guides:read' | 'teams:read' | 'members:read' | 'webhooks:manage';
export const ALL_SCOPES: Scope[] = ['guides:read', 'teams:read', 'members:read'];

/** Creates a key through the management API and returns its secret and id. */
export async function createKey(
  t: TestService,
  home: { type: 'team' | 'organization'; id: string },
  options: { scopes?: Scope[]; expires_in_days?: number | null; name?: string } = {},
): Promise<{ secret: string; id: string }> {
  const response = await t.adminRaw('POST', '/api-keys', {
    home,
    name: options.name ?? 'test key',
    scopes: options.scopes ?? ALL_SCOPES,
    expires_in_days: options.expires_in_days ?? null,
  });
  if (response.statusCode !== 201) throw new Error(`key creation answered ${response.statusCode}: ${response.body}`);
  const body = response.json();
  return { secret: body.secret, id: body.data.id };
}

/** An organization on `plan` with `teams` teams, and an organization key over it. */
export async function organizationWithTeams(t: TestService, plan = 'growth', teams = 2) {
  const organization = await t.admin('POST', '/organizations', { name: `Org ${Math.random()}`, plan });
  const teamRows = [];
  for (let i = 0; i < teams; i++) teamRows.push(await t.admin('POST', '/teams', { name: `Team ${i}`, organization_id: organization.id }));
  const key = await createKey(t, { type: 'organization', id: organization.id });
  return { organization, teams: teamRows, key: key.secret, keyId: key.id };
}

/** A team without organization on `plan`, with a team key. */
export async function soloTeam(t: TestService, plan = 'free', scopes: Scope[] = ALL_SCOPES) {
  const team = await t.admin('POST', '/teams', { name: `Solo ${Math.random()}`, plan });
  const key = await createKey(t, { type: 'team', id: team.id }, { scopes });
  return { team, key: key.secret, keyId: key.id };
}

export async function createGuide(t: TestService, teamId: string, fields: Record<string, unknown> = {}) {
  return t.admin('POST', '/guides', { team_id: teamId, title: 'A guide', ...fields });
}

/**
 * The service of one test file: started before its tests, closed after them. The returned object
 * stands for the running service, so tests write `t.get(…)` as if it were started already.
 */
export function useTestService(env: Record<string, string> = {}): TestService {
  let current: TestService | undefined;
  beforeAll(async () => {
    current = await startTestService(env);
  });
  afterAll(() => current?.close());
  return new Proxy({} as TestService, {
    get(_target, property) {
      if (!current) throw new Error('the test service is not started yet');
      return current[property as keyof TestService];
    },
  });
}

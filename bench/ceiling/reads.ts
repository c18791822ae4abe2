// The one place where the SQL ceiling calls the service: the same domain functions the v1 routes call
// (src/http/v1/key-auth.ts, guides.ts, teams.ts), imported from the service's own build in dist/, with no
// HTTP framework, rate limit, validation or headers around them. When a domain signature changes, this
// file is the one to fix; `npm run typecheck` points at it.
//
// Types come from src/ (type-only imports, erased at compile time); the code runs from dist/, the build the
// service under test runs, so the ceiling cannot drift from it.
import type * as ApiKeys from '../../src/domain/api-keys.js';
import type * as Clock from '../../src/domain/clock.js';
import type * as ConfigModule from '../../src/config.js';
import type * as Database from '../../src/db/database.js';
import type { DomainContext } from '../../src/domain/context.js';
import type { Database as DatabaseSchema } from '../../src/db/schema.js';
import type * as GuideBody from '../../src/domain/guides/guide-body.js';
import type * as GuideReads from '../../src/domain/guides/guide-reads.js';
import type * as KeysetCursor from '../../src/domain/keyset-cursor.js';
import type * as Members from '../../src/domain/members.js';
import type * as Presenters from '../../src/http/v1/presenters.js';
import type * as ServiceSecrets from '../../src/domain/service-secrets.js';
import type * as Teams from '../../src/domain/teams.js';
import { serviceModule } from '../paths.js';

const load = <T>(path: string) => import(serviceModule(path)) as Promise<T>;

const [apiKeys, clock, config, database, guideBody, guideReads, keysetCursor, members, presenters, serviceSecrets, teams] = await Promise.all([
  load<typeof ApiKeys>('domain/api-keys.js'),
  load<typeof Clock>('domain/clock.js'),
  load<typeof ConfigModule>('config.js'),
  load<typeof Database>('db/database.js'),
  load<typeof GuideBody>('domain/guides/guide-body.js'),
  load<typeof GuideReads>('domain/guides/guide-reads.js'),
  load<typeof KeysetCursor>('domain/keyset-cursor.js'),
  load<typeof Members>('domain/members.js'),
  load<typeof Presenters>('http/v1/presenters.js'),
  load<typeof ServiceSecrets>('domain/service-secrets.js'),
  load<typeof Teams>('domain/teams.js'),
]);

/** What the ceiling writes: a status and the object it JSON.stringifies. */
export interface Answer {
  status: number;
  body: unknown;
}

export interface GuideListParameters {
  teamId: string | undefined;
  q: string | undefined;
  limit: number;
  cursor: string | undefined;
}

export interface Reads {
  listGuides(authorization: string | undefined, parameters: GuideListParameters): Promise<Answer>;
  getGuide(authorization: string | undefined, guideId: string): Promise<Answer>;
  listMembers(authorization: string | undefined, teamId: string): Promise<Answer>;
  close(): Promise<void>;
}

const refused = (status: number, code: string): Answer => ({ status, body: { code } });

/** Opens the store the environment names (DATABASE_URL), as the service does, and its domain context. */
export async function openReads(env: Record<string, string | undefined> = process.env): Promise<Reads> {
  const settings = config.loadConfig(env);
  const store = database.openStore(settings.databaseUrl);
  const ctx: DomainContext = {
    db: store.db,
    dialect: store.dialect,
    clock: clock.systemClock,
    settings: { appUrl: settings.appUrl, previewSteps: settings.previewSteps, coalesceMs: settings.webhookCoalesceMs, webhookRetries: settings.webhookRetryDelaysMs.length },
    cursorSecret: await serviceSecrets.serviceSecret(store.db, 'cursor_hmac_key'),
    outbox: { wake: () => undefined, wakeSenders: () => undefined },
    purgeDeleted: store.purgeDeleted,
  };

  // key-auth.ts without the rate limit: the key look-up, its policy, the scope, and the last-used touch.
  async function admit(authorization: string | undefined, scope: ApiKeys.Scope): Promise<ApiKeys.ApiKey | Answer> {
    const match = /^Bearer (.+)$/.exec(authorization ?? '');
    if (!match) return refused(401, 'invalid_key');
    const authentication = await apiKeys.authenticateKey(ctx, match[1]!);
    if (authentication.outcome !== 'ok') return refused(401, authentication.outcome === 'expired' ? 'key_expired' : 'invalid_key');
    if (authentication.policy !== 'ok') return refused(403, authentication.policy);
    if (!authentication.key.scopes.includes(scope)) return refused(403, 'scope_missing');
    apiKeys.touchApiKey(ctx, authentication.key).catch(() => undefined);
    return authentication.key;
  }
  const isAnswer = (value: ApiKeys.ApiKey | Answer): value is Answer => 'status' in value;

  return {
    async listGuides(authorization, parameters) {
      const key = await admit(authorization, 'guides:read');
      if (isAnswer(key)) return key;
      const binding = { holder: key.id, filters: [parameters.teamId, parameters.q] };
      const after = parameters.cursor === undefined ? null : keysetCursor.decodeCursor(ctx.cursorSecret, binding, parameters.cursor);
      if (parameters.cursor !== undefined && after === null) return refused(400, 'invalid_request');
      const teamIds = await teams.reachedTeamIds(ctx, key.home, parameters.teamId);
      if (teamIds === null) return refused(404, 'not_found');
      const organizationId = key.home.type === 'organization' && parameters.teamId === undefined ? key.home.id : null;
      const page = await guideReads.guidePage(ctx, { teamIds, organizationId, q: parameters.q, limit: parameters.limit, after });
      return {
        status: 200,
        body: { data: page.items, next_cursor: page.next ? keysetCursor.encodeCursor(ctx.cursorSecret, binding, page.next) : null },
      };
    },

    async getGuide(authorization, guideId) {
      const key = await admit(authorization, 'guides:read');
      if (isAnswer(key)) return key;
      const teamIds = (await teams.reachedTeamIds(ctx, key.home)) ?? [];
      const found = await guideReads.findVisibleGuide(ctx, teamIds, guideId);
      if (!found) return refused(404, 'not_found');
      const body = guideBody.guideBodyForPlan(found.row, found.plan, found.locked, ctx.settings.previewSteps);
      return { status: 200, body: { data: presenters.presentGuide(found, body) } };
    },

    async listMembers(authorization, teamId) {
      const key = await admit(authorization, 'members:read');
      if (isAnswer(key)) return key;
      if (!(await teams.reachedTeamIds(ctx, key.home, teamId))) return refused(404, 'not_found');
      return { status: 200, body: { data: await members.listMembers(ctx.db, teamId) } };
    },

    close: () => store.close(),
  };
}

/**
 * The query plan of a title search as the service runs it: the domain's guidePage on a connection that
 * records every statement, each then put through EXPLAIN QUERY PLAN (SQLite stores only).
 */
export async function explainSearch(databaseUrl: string, organizationKey: string, q: string): Promise<string[][]> {
  if (!databaseUrl.startsWith('file:')) return [];
  const [{ default: SQLite }, { Kysely, SqliteDialect }] = await Promise.all([import('better-sqlite3'), import('kysely')]);
  const sqlite = new SQLite(databaseUrl.slice('file:'.length), { readonly: true });
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  try {
    const ctx: DomainContext = {
      db,
      dialect: 'sqlite',
      clock: clock.systemClock,
      settings: { appUrl: 'http://bench', previewSteps: 3, coalesceMs: 0, webhookRetries: 0 },
      cursorSecret: Buffer.alloc(32),
      outbox: { wake: () => undefined, wakeSenders: () => undefined },
      purgeDeleted: async () => undefined,
    };
    const authentication = await apiKeys.authenticateKey(ctx, organizationKey);
    if (authentication.outcome !== 'ok') throw new Error('the organization key does not authenticate');
    const { home } = authentication.key;
    const teamIds = (await teams.reachedTeamIds(ctx, home)) ?? [];
    statements.length = 0;
    await guideReads.guidePage(ctx, { teamIds, organizationId: home.type === 'organization' ? home.id : null, q, limit: 50, after: null });
    return statements.map(({ sql, parameters }) =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((row) => row.detail),
    );
  } finally {
    await db.destroy();
  }
}

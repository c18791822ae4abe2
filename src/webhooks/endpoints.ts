// Webhook endpoints (decisions §6, §7): registered for a team or an organization with the events they
// pick; a ping is sent when one is created and whenever an admin asks, as is a test event of any type;
// the signing key is shown on request and rotated, at once or with an overlap.
import { fieldsSet, recordAudit } from '../domain/audit.js';
import type { WebhookEndpointsTable } from '../db/schema.js';
import { holdRow } from '../db/sql-functions.js';
import { timestamp } from '../domain/clock.js';
import { type DomainContext, type Executor, transact } from '../domain/context.js';
import { liftProbeGate, lockQueues, openQueue } from '../domain/delivery-queues.js';
import { InvalidInputError, LimitReachedError, NotFoundError } from '../domain/errors.js';
import { type EventType, recordEvent, SUBSCRIBABLE_EVENTS, type SubscribableEvent } from '../domain/events.js';
import { newId } from '../domain/ids.js';
import { requireOrganization } from '../domain/organizations.js';
import { type Home, homeOf } from '../domain/homes.js';
import { requireTeam } from '../domain/teams.js';
import { checkPublicUrl, type Resolver } from './network-guard.js';
import { newSigningKey } from './signing.js';
import { testEventData } from './test-events.js';
import { ENDPOINT_COLUMNS } from '../db/columns.js';

export type Endpoint = WebhookEndpointsTable;

export interface EndpointPolicy {
  allowPrivateNetworks: boolean;
  /** Endpoints a team or an organization may have at once (WEBHOOK_MAX_ENDPOINTS_PER_HOME). */
  maxPerHome: number;
  /** How long the Deliveries list keeps attempts (WEBHOOK_ATTEMPTS_RETENTION_DAYS): how far back a recovery may reach. */
  attemptsRetentionMs: number;
  resolver?: Resolver;
}

export interface EndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
}

/** The picked events as stored: the subscribable ones, in spec order, space-separated. */
function storedEvents(picked: readonly string[]): string {
  return SUBSCRIBABLE_EVENTS.filter((type) => picked.includes(type)).join(' ');
}

/** An absolute http or https URL with a host (decisions §6), on a public address unless allowed. */
async function checkUrl(policy: EndpointPolicy, url: string): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError('url', 'url must be an absolute http or https URL');
  }
  // URL parsing forgives `http:///host`; the text itself must name its host after the two slashes.
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '' || !/^https?:\/\/[^/?#]/i.test(url)) {
    throw new InvalidInputError('url', 'url must be an absolute http or https URL with a host');
  }
  // Credentials in the URL would be stored and shown as plain text, and userinfo is where address tricks
  // hide (`http://127.0.0.1%2f@example.com/` goes to example.com): an `@` anywhere before the path is refused.
  const authority = url.replace(/^https?:\/\//i, '').split(/[/\\?#]/, 1)[0]!;
  if (parsed.username !== '' || parsed.password !== '' || authority.includes('@')) {
    throw new InvalidInputError('url', 'url must not contain a user name or password (user:password@); send credentials another way, such as a secret path segment');
  }
  if (policy.allowPrivateNetworks) return;
  try {
    await checkPublicUrl(parsed, policy.resolver);
  } catch (error) {
    throw new InvalidInputError('url', `url: ${(error as Error).message}; endpoints must be on the public internet`);
  }
}

export async function requireEndpoint(db: Executor, id: string): Promise<Endpoint> {
  const endpoint = await db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!endpoint) throw new NotFoundError('Webhook endpoint');
  return endpoint;
}

/** Where a ping to the endpoint says it comes from (decisions §6). */
async function pingOrigin(trx: Executor, endpoint: Endpoint): Promise<{ teamId: string; organizationId: string | null }> {
  if (endpoint.home_type === 'team') {
    const team = await requireTeam(trx, endpoint.home_id);
    return { teamId: team.id, organizationId: team.organization_id };
  }
  const oldest = await trx
    .selectFrom('teams')
    .select('id')
    .where('organization_id', '=', endpoint.home_id)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return { teamId: oldest?.id ?? endpoint.home_id, organizationId: endpoint.home_id };
}

async function recordPing(trx: Executor, endpoint: Endpoint, now: Date): Promise<void> {
  const origin = await pingOrigin(trx, endpoint);
  await recordEvent(trx, {
    type: 'ping',
    ...origin,
    at: now,
    endpointId: endpoint.id,
    data: { message: `Ping from the guide service: ${endpoint.url} is set up to receive events.` },
  });
}

/** A test event of another type: to this endpoint only, with sample data, and never in the events feed. */
async function recordTestEvent(trx: Executor, endpoint: Endpoint, type: SubscribableEvent, appUrl: string, now: Date): Promise<void> {
  const origin = await pingOrigin(trx, endpoint);
  await recordEvent(trx, { type, ...origin, at: now, endpointId: endpoint.id, test: true, data: testEventData(type, origin.teamId, appUrl, now) });
}

export async function createEndpoint(
  ctx: DomainContext,
  policy: EndpointPolicy,
  input: Required<Pick<EndpointInput, 'url' | 'events'>> & EndpointInput & { home: Home },
): Promise<Endpoint> {
  const home = input.home;
  if (home.type === 'team') await requireTeam(ctx.db, home.id);
  else await requireOrganization(ctx.db, home.id);
  await checkUrl(policy, input.url);
  return transact(ctx, async (trx) => {
    await refuseBeyondLimit(trx, home, policy.maxPerHome);
    const now = ctx.clock.now();
    const endpoint: Endpoint = {
      id: newId(),
      home_type: home.type,
      home_id: home.id,
      url: input.url,
      description: input.description ?? null,
      events: storedEvents(input.events),
      signing_key: newSigningKey(),
      old_signing_key: null,
      old_signing_key_ends_at: null,
      status: 'active',
      paused_reason: null,
      paused_at: null,
      failing_since: null,
      created_at: timestamp(now),
      updated_at: timestamp(now),
    };
    await trx.insertInto('webhook_endpoints').values(endpoint).execute();
    await openQueue(trx, endpoint.id);
    await recordPing(trx, endpoint, now);
    await recordAudit(ctx, trx, { action: 'webhook_endpoint.created', target: { type: 'webhook_endpoint', id: endpoint.id }, home });
    return endpoint;
  });
}

/**
 * Refuses an endpoint beyond the home's limit. On PostgreSQL the home's row is locked first, so that two
 * registrations at once cannot both pass the count (SQLite writes one transaction at a time).
 */
async function refuseBeyondLimit(trx: Executor, home: Home, limit: number): Promise<void> {
  await holdRow(trx, home.type === 'team' ? 'teams' : 'organizations', home.id);
  const { count } = await trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('home_type', '=', home.type)
    .where('home_id', '=', home.id)
    .executeTakeFirstOrThrow();
  if (Number(count) >= limit) {
    throw new LimitReachedError(
      `This ${home.type} already has ${Number(count)} webhook endpoints, the most it may have (WEBHOOK_MAX_ENDPOINTS_PER_HOME is ${limit}); delete one to add another`,
    );
  }
}

export async function listEndpoints(ctx: DomainContext, home: Home): Promise<Endpoint[]> {
  return ctx.db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('home_type', '=', home.type)
    .where('home_id', '=', home.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function updateEndpoint(ctx: DomainContext, policy: EndpointPolicy, id: string, input: EndpointInput): Promise<Endpoint> {
  await requireEndpoint(ctx.db, id);
  if (input.url !== undefined) await checkUrl(policy, input.url);
  const changes: Partial<Endpoint> = { updated_at: timestamp(ctx.clock.now()) };
  if (input.url !== undefined) changes.url = input.url;
  if (input.description !== undefined) changes.description = input.description;
  if (input.events !== undefined) changes.events = storedEvents(input.events);
  return transact(ctx, async (trx) => {
    await lockQueues(trx, [id]);
    await trx.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
    // A new address is a new receiver: what its breaker or a Retry-After held back may go at once.
    if (input.url !== undefined) await liftProbeGate(trx, id);
    const endpoint = await requireEndpoint(trx, id);
    await recordAudit(ctx, trx, { action: 'webhook_endpoint.updated', target: { type: 'webhook_endpoint', id }, home: homeOf(endpoint), changed: fieldsSet(input) });
    return endpoint;
  });
}

export async function deleteEndpoint(ctx: DomainContext, id: string): Promise<void> {
  await transact(ctx, async (trx) => {
    await lockQueues(trx, [id]);
    const deleted = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).returning(['home_type', 'home_id']).executeTakeFirst();
    if (!deleted) throw new NotFoundError('Webhook endpoint');
    await recordAudit(ctx, trx, { action: 'webhook_endpoint.deleted', target: { type: 'webhook_endpoint', id }, home: homeOf(deleted) });
  });
}

/** Records that the endpoint's signing key was shown (the reveal reads, but who saw a secret is worth knowing). */
export async function recordSigningKeyRevealed(ctx: DomainContext, endpoint: Endpoint): Promise<void> {
  await recordAudit(ctx, ctx.db, { action: 'webhook_endpoint.signing_key_revealed', target: { type: 'webhook_endpoint', id: endpoint.id }, home: homeOf(endpoint) });
}

/** The longest a rotation may keep the replaced key signing (decisions §10). */
export const MAX_OVERLAP_HOURS = 72;

/**
 * A new signing key. With `keepOldForHours` 0 the old one stops at once (attempts read the keys when
 * they are sent); otherwise it keeps signing beside the new one for that long (signing.ts). A rotation
 * during an overlap starts a new one from the key it replaces: only the key just before is kept.
 */
export async function rotateSigningKey(ctx: DomainContext, id: string, keepOldForHours: number): Promise<Endpoint> {
  const endpoint = await requireEndpoint(ctx.db, id);
  const now = ctx.clock.now();
  return transact(ctx, async (trx) => {
    const rotated = await trx
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        signing_key: newSigningKey(),
        // The key as the row has it when the write lands, so two rotations at once lose no key to a stale read.
        old_signing_key: keepOldForHours > 0 ? eb.ref('signing_key') : null,
        old_signing_key_ends_at: keepOldForHours > 0 ? timestamp(new Date(now.getTime() + keepOldForHours * 3_600_000)) : null,
        updated_at: timestamp(now),
      }))
      .where('id', '=', id)
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    if (!rotated) throw new NotFoundError('Webhook endpoint');
    await recordAudit(ctx, trx, { action: 'webhook_endpoint.signing_key_rotated', target: { type: 'webhook_endpoint', id }, home: homeOf(endpoint) });
    return rotated;
  });
}

/** Forgets the replaced keys whose overlap has ended, so that no secret is kept longer than it signs. */
export async function forgetEndedOldKeys(ctx: DomainContext, now: Date): Promise<void> {
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({ old_signing_key: null, old_signing_key_ends_at: null })
    .where('old_signing_key_ends_at', '<=', timestamp(now))
    .execute();
}

/**
 * Sends the endpoint a ping, or a test event of the type asked for (whether or not the endpoint picked
 * it). Like any event, it is kept as missed while the endpoint is paused.
 */
export async function pingEndpoint(ctx: DomainContext, id: string, type: EventType = 'ping'): Promise<void> {
  await transact(ctx, async (trx) => {
    const endpoint = await requireEndpoint(trx, id);
    const now = ctx.clock.now();
    if (type === 'ping') await recordPing(trx, endpoint, now);
    else await recordTestEvent(trx, endpoint, type, ctx.settings.appUrl, now);
    await recordAudit(ctx, trx, { action: 'webhook_endpoint.pinged', target: { type: 'webhook_endpoint', id }, home: homeOf(endpoint) });
  });
}

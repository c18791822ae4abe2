// A realistic data set written straight into the store in large batches: organizations with their teams,
// users and memberships, and guides with steps, titles drawn from a vocabulary so that searches match
// rarely or often, and creation times spread over two years. Used by the benchmark and by operators who
// want to try the service at size. It writes the same columns the domain writes (folded titles, slugs,
// steps as JSON), in bulk instead of one guide at a time.
import { createHash } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { GuidesTable, Plan } from '../db/schema.js';
import { createApiKey } from '../domain/api-keys.js';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import { textDirectionOf } from '../domain/guides/guide-record.js';
import { foldCase } from '../domain/text-fold.js';

export interface BulkShape {
  organizations: number;
  teams: number;
  guides: number;
  users: number;
  /** Members of the first team (the others get a handful each). */
  bigTeamMembers: number;
  seed: number;
}

export interface BulkResult {
  organizationKey: string;
  teamKey: string;
  freeTeamKey: string;
  bigTeamId: string;
  /** A guide with 50 or more steps on a plan with full guides, and one on a free plan. */
  longGuideId: string;
  freeGuideId: string;
  seconds: number;
}

const COMMON_WORDS = ['guide', 'setup', 'report', 'account', 'export', 'invoice', 'team', 'project', 'settings', 'billing'];
const RARE_WORDS = ['zephyr', 'quasar', 'fjord', 'yodel', 'kumquat', 'xylem', 'sphinx', 'vortex'];
const VERBS = ['How to', 'Set up', 'Fix', 'Share', 'Create', 'Review', 'Close', 'Update'];
const PLANS: Plan[] = ['growth', 'enterprise', 'starter', 'free'];

/** A small deterministic generator, so the same seed gives the same data. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

/** A UUID made from a name: lowercase, stable for a seed. */
function uuidFor(kind: string, index: number, seed: number): string {
  const hex = createHash('sha1').update(`${seed}:${kind}:${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function insertInBatches<T>(rows: Iterable<T>, size: number, write: (batch: T[]) => Promise<unknown>): Promise<void> {
  let batch: T[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === size) {
      await write(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await write(batch);
}

export async function loadBulkData(ctx: DomainContext, shape: BulkShape, progress: (line: string) => void = () => undefined): Promise<BulkResult> {
  const started = performance.now();
  const random = generator(shape.seed);
  const { db } = ctx;
  const now = ctx.clock.now().getTime();
  const span = 2 * 365 * 86_400_000;
  const at = (fraction: number) => timestamp(new Date(now - span + Math.floor(fraction * span)));

  const organizations = Array.from({ length: shape.organizations }, (_, i) => ({
    id: uuidFor('organization', i, shape.seed),
    name: `Organization ${i + 1}`,
    plan: PLANS[i % PLANS.length]!,
    api_enabled: 1 as const,
    org_keys_only: 0 as const,
    created_at: at(0),
    updated_at: at(0),
  }));
  await db.insertInto('organizations').values(organizations).execute();

  const teams = Array.from({ length: shape.teams }, (_, i) => ({
    id: uuidFor('team', i, shape.seed),
    name: `Team ${String(i + 1).padStart(4, '0')}`,
    organization_id: organizations[i % organizations.length]!.id,
    plan: 'free' as Plan,
    brand_color: i % 3 === 0 ? '#0A7CFF' : null,
    created_at: at(0),
    updated_at: at(0),
  }));
  await insertInBatches(teams, 1000, (batch) => db.insertInto('teams').values(batch).execute());
  progress(`${organizations.length} organizations, ${teams.length} teams`);

  const users = function* () {
    for (let i = 0; i < shape.users; i++) {
      const email = `user${i}@bulk.example`;
      yield { id: uuidFor('user', i, shape.seed), email, email_key: email, name: i % 7 === 0 ? null : `User ${i}`, avatar_url: null, created_at: at(0), updated_at: at(0) };
    }
  };
  await insertInBatches(users(), 2000, (batch) => db.insertInto('users').values(batch).execute());

  const memberships = function* () {
    const roles = ['EDITOR', 'VIEWER', 'ADMIN'] as const;
    for (let i = 0; i < Math.min(shape.bigTeamMembers, shape.users); i++) {
      yield { team_id: teams[0]!.id, user_id: uuidFor('user', i, shape.seed), role: roles[i % 3]!, joined_at: at(i / shape.bigTeamMembers) };
    }
    for (let i = shape.bigTeamMembers; i < shape.users; i++) {
      const team = teams[1 + (i % Math.max(1, teams.length - 1))] ?? teams[0]!;
      yield { team_id: team.id, user_id: uuidFor('user', i, shape.seed), role: roles[i % 3]!, joined_at: at(random()) };
    }
  };
  await insertInBatches(memberships(), 2000, (batch) => db.insertInto('memberships').values(batch).execute());
  progress(`${shape.users} users and their memberships`);

  let longGuideId = '';
  let freeGuideId = '';
  const guides = function* (): Generator<Insertable<GuidesTable>> {
    for (let i = 0; i < shape.guides; i++) {
      const team = teams[i % teams.length]!;
      const roll = random();
      const word = roll < 0.001 ? RARE_WORDS[i % RARE_WORDS.length]! : COMMON_WORDS[Math.floor(random() * COMMON_WORDS.length)]!;
      const title = `${VERBS[i % VERBS.length]} the ${word} ${i}`;
      const stepCount = i % 200 === 0 ? 50 + (i % 20) : 5 + Math.floor(random() * 11);
      const steps = Array.from({ length: stepCount }, (_, s) => ({
        text: `Step ${s + 1}: open the ${COMMON_WORDS[s % COMMON_WORDS.length]} page and choose the option you need.`,
        image_url: `https://example.com/bulk/${i}/${s + 1}.png`,
        image_alt: `Screenshot of step ${s + 1}`,
      }));
      const id = uuidFor('guide', i, shape.seed);
      const plan = organizations[(i % teams.length) % organizations.length]!.plan;
      if (!longGuideId && stepCount >= 50 && (plan === 'growth' || plan === 'enterprise')) longGuideId = id;
      if (!freeGuideId && plan === 'free') freeGuideId = id;
      const language = i % 50 === 0 ? 'ar' : 'en';
      const created = at(i / shape.guides);
      yield {
        id,
        team_id: team.id,
        organization_id: team.organization_id,
        owner_id: uuidFor('user', i % Math.max(1, shape.users), shape.seed),
        title,
        title_folded: foldCase(title),
        description: i % 4 === 0 ? null : `What to do when you need to ${word} things, part ${i}.`,
        language,
        text_direction: textDirectionOf(language),
        app_version: null,
        icon_url: null,
        thumbnail_url: null,
        tags: i % 5 === 0 ? JSON.stringify([word]) : null,
        folder_id: null,
        publish_status: i % 3 === 0 ? 'DRAFT' : 'PUBLISHED',
        is_public: (i % 4 === 0 ? 1 : 0) as 0 | 1,
        team_role: null,
        permalink: `guide-${i.toString(36)}-b`,
        steps: JSON.stringify(steps),
        step_count: stepCount,
        processing_state: 'finished',
        processing_error: null,
        created_at: created,
        updated_at: created,
      };
    }
  };
  let written = 0;
  await insertInBatches(guides(), 500, async (batch) => {
    await db.transaction().execute((trx) => trx.insertInto('guides').values(batch).execute());
    written += batch.length;
    if (written % 100_000 === 0 || written === shape.guides) progress(`${written} guides`);
  });

  const organizationKey = await createApiKey(ctx, {
    home: { type: 'organization', id: organizations[0]!.id },
    name: 'bulk organization key',
    scopes: ['guides:read', 'teams:read', 'members:read'],
    expires_in_days: null,
  });
  const teamKey = await createApiKey(ctx, {
    home: { type: 'team', id: teams[0]!.id },
    name: 'bulk team key',
    scopes: ['guides:read', 'teams:read', 'members:read'],
    expires_in_days: null,
  });
  const freeTeam = teams.find((_, i) => organizations[i % organizations.length]!.plan === 'free') ?? teams[0]!;
  const freeTeamKey = await createApiKey(ctx, {
    home: { type: 'team', id: freeTeam.id },
    name: 'bulk free team key',
    scopes: ['guides:read', 'teams:read', 'members:read'],
    expires_in_days: null,
  });
  return {
    organizationKey: organizationKey.secret,
    teamKey: teamKey.secret,
    freeTeamKey: freeTeamKey.secret,
    bigTeamId: teams[0]!.id,
    longGuideId,
    freeGuideId,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

// The demo loaded into an empty store on first start (decisions §1): an organization on Growth with two
// teams, a team of its own on Free, members in every role, and guides that exercise every field: steps
// with screenshots, drafts, right-to-left text, a processing guide, a failed one and locked ones.
import { sql } from 'kysely';
import type { Store } from '../db/database.js';
import { createApiKey } from './api-keys.js';
import type { DomainContext } from './context.js';
import { createGuide, settleProcessing } from './guides/guide-writes.js';
import type { GuideStepInput } from './guides/guide-writes.js';
import { putMember } from './members.js';
import { addOrganizationAdmin, createOrganization } from './organizations.js';
import { createTeam } from './teams.js';
import { createUser } from './users.js';

export interface DemoKeys {
  organizationKey: string;
  teamKey: string;
}

const SCREENSHOTS = 'https://example.com/demo/screenshots';
// More than the clock readings the demo takes, so every record is dated in the past.
const DEMO_RECORDS = 400;

function steps(slug: string, texts: string[]): GuideStepInput[] {
  return texts.map((text, i) => ({ text, image_url: `${SCREENSHOTS}/${slug}-${i + 1}.png`, image_alt: `Step ${i + 1}: ${text}` }));
}

// Held while one process checks for an empty store and loads the demo, so that processes starting
// together on one PostgreSQL load it once.
export const DEMO_LOCK = 4_711_001;

/** Loads the demo if the store is empty; returns its keys, or null when the store had data. */
export async function loadDemoOnce(ctx: DomainContext, store: Store): Promise<DemoKeys | null> {
  if (store.dialect === 'sqlite') return (await storeIsEmpty(ctx)) ? loadDemo(ctx) : null;
  return ctx.db.connection().execute(async (connection) => {
    // As long as the process loading it takes, past the pool's lock wait (set for this statement alone).
    await sql`WITH waiting AS (SELECT set_config('lock_timeout', '0', true)) SELECT pg_advisory_lock(${DEMO_LOCK}) FROM waiting`.execute(connection);
    try {
      return (await storeIsEmpty(ctx)) ? await loadDemo(ctx) : null;
    } finally {
      await sql`select pg_advisory_unlock(${DEMO_LOCK})`.execute(connection);
    }
  });
}

async function storeIsEmpty(ctx: DomainContext): Promise<boolean> {
  const team = await ctx.db.selectFrom('teams').select('id').limit(1).executeTakeFirst();
  const organization = await ctx.db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  return !team && !organization;
}

/**
 * Loads the demo. Its records are dated one second apart, ending now, so that their order (and with it
 * which guides are the newest, and so locked) is the order they are made in.
 */
export async function loadDemo(realCtx: DomainContext): Promise<DemoKeys> {
  const end = realCtx.clock.now().getTime();
  let tick = 0;
  const ctx: DomainContext = { ...realCtx, clock: { now: () => new Date(end - DEMO_RECORDS * 1000 + 1000 * tick++) } };
  const org = await createOrganization(ctx, { name: 'Northwind Outfitters', plan: 'growth' });
  const support = await createTeam(ctx, { name: 'Customer Support', organization_id: org.id, brand_color: '#0A7CFF' });
  const onboarding = await createTeam(ctx, { name: 'Onboarding', organization_id: org.id });
  const studio = await createTeam(ctx, { name: 'Solo Studio', plan: 'free' });

  const alice = await createUser(ctx, { email: 'alice@northwind.example', name: 'Alice Moreau', avatar_url: 'https://example.com/avatars/alice.png' });
  const bob = await createUser(ctx, { email: 'bob@northwind.example', name: 'Bob Okafor' });
  const carol = await createUser(ctx, { email: 'carol@northwind.example', name: 'Carol Nguyễn' });
  const dana = await createUser(ctx, { email: 'dana@solostudio.example', name: 'Dana Levi' });
  const eli = await createUser(ctx, { email: 'eli@solostudio.example', name: null });
  await addOrganizationAdmin(ctx, org.id, alice.id);
  await putMember(ctx, support.id, alice.id, 'ADMIN');
  await putMember(ctx, support.id, bob.id, 'EDITOR');
  await putMember(ctx, support.id, carol.id, 'VIEWER');
  await putMember(ctx, onboarding.id, bob.id, 'ADMIN');
  await putMember(ctx, onboarding.id, carol.id, 'EDITOR');
  await putMember(ctx, studio.id, dana.id, 'ADMIN');
  await putMember(ctx, studio.id, eli.id, 'VIEWER');

  await createGuide(ctx, {
    team_id: support.id,
    title: 'Reset a customer password',
    description: 'For agents: send a reset link without seeing the password.',
    owner_id: alice.id,
    publish_status: 'PUBLISHED',
    is_public: true,
    tags: ['accounts', 'security'],
    app_version: '4.2.0',
    icon_url: 'https://example.com/demo/icons/key.png',
    thumbnail_url: `${SCREENSHOTS}/reset-password-thumb.png`,
    steps: steps('reset-password', [
      'Open the customer record from the **Search** bar.',
      'Choose *Account* → *Security*.',
      'Click "Send reset link" and confirm.',
      'Tell the customer the link expires in 24 hours.',
    ]),
  });
  await createGuide(ctx, {
    team_id: support.id,
    title: 'Issue a refund',
    description: 'Refunds under $100 need no approval.',
    owner_id: bob.id,
    publish_status: 'PUBLISHED',
    steps: steps('refund', ['Find the order.', 'Click Refund.', 'Pick the items and the reason.', 'Confirm the amount.', 'Add a note for finance.']),
  });
  await createGuide(ctx, {
    team_id: support.id,
    title: 'Escalate a ticket (draft)',
    owner_id: bob.id,
    steps: steps('escalate', ['Open the ticket.', 'Set priority to Urgent.']),
  });
  await createGuide(ctx, {
    team_id: support.id,
    title: 'إعادة تعيين كلمة المرور',
    description: 'دليل باللغة العربية',
    language: 'ar',
    owner_id: alice.id,
    publish_status: 'PUBLISHED',
    steps: steps('ar-reset', ['افتح سجل العميل.', 'اختر الأمان.', 'أرسل رابط إعادة التعيين.']),
  });
  await createGuide(ctx, { team_id: support.id, title: 'Recording: new CRM tour', owner_id: carol.id, processing: true });
  const failed = await createGuide(ctx, {
    team_id: support.id,
    title: 'Import: legacy FAQ',
    owner_id: carol.id,
    processing: true,
  });
  await settleProcessing(ctx, failed.id, 'failed', 'The imported file was empty');
  await createGuide(ctx, {
    team_id: onboarding.id,
    title: 'Your first day',
    description: 'Everything a new hire needs on day one.',
    owner_id: bob.id,
    publish_status: 'PUBLISHED',
    language: 'en-GB',
    steps: steps('first-day', ['Collect your badge.', 'Set up your laptop.', 'Join the #welcome channel.', 'Meet your buddy.']),
  });

  // Free plan: 25 guides per team are unlocked, so the two newest of these 27 are locked.
  for (let i = 1; i <= 27; i++) {
    await createGuide(ctx, {
      team_id: studio.id,
      title: `Studio guide ${i}: ${['Export a project', 'Share a draft', 'Invite a client', 'Color grading basics'][i % 4]}`,
      description: i % 3 === 0 ? null : `Part ${i} of the studio handbook.`,
      owner_id: i % 2 ? dana.id : null,
      publish_status: i % 5 === 0 ? 'DRAFT' : 'PUBLISHED',
      folder_id: null,
      steps: steps(`studio-${i}`, ['Open the project.', 'Choose File → Export.', 'Pick the format.', 'Name the file.', 'Click Export.']),
    });
  }

  const allScopes = ['guides:read', 'teams:read', 'members:read'] as const;
  const organizationKey = await createApiKey(ctx, {
    home: { type: 'organization', id: org.id },
    name: 'Demo organization key',
    scopes: [...allScopes],
    expires_in_days: null,
  });
  const teamKey = await createApiKey(ctx, {
    home: { type: 'team', id: studio.id },
    name: 'Demo team key',
    scopes: [...allScopes],
    expires_in_days: null,
  });
  return { organizationKey: organizationKey.secret, teamKey: teamKey.secret };
}

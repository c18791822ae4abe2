// Every write to a guide, each with the event it causes recorded in the same transaction (spec §3.2,
// §6.3, §6.4; decisions §6).
import { fieldsSet, recordAudit } from '../audit.js';
import type { ProcessingState, PublishStatus, TeamRole } from '../../db/schema.js';
import { timestamp } from '../clock.js';
import { type DomainContext, type Executor, transact } from '../context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { requireTeam } from '../teams.js';
import { foldCase } from '../text-fold.js';
import { type ChangeColumn, CHANGE_COLUMNS, guideEventTarget, recordGuideDeleted, recordGuideEvent } from './guide-events.js';
import { type GuideRow, type GuideStep, textDirectionOf } from './guide-record.js';
import { checkReferences, isOwnerWithin } from './guide-references.js';
import { flushGuideUpdate, noteGuideUpdate } from './guide-update-windows.js';
import { tag, touched } from '../read-dependencies.js';
import { isValidPermalink, makePermalink } from './permalink.js';
import { GUIDE_COLUMNS } from '../../db/columns.js';

export interface GuideStepInput {
  text: string;
  image_url?: string | null;
  image_alt?: string | null;
}

export interface GuideFields {
  title?: string | null;
  description?: string | null;
  owner_id?: string | null;
  language?: string;
  text_direction?: 'ltr' | 'rtl';
  app_version?: string | null;
  icon_url?: string | null;
  thumbnail_url?: string | null;
  tags?: string[] | null;
  folder_id?: string | null;
  publish_status?: PublishStatus;
  is_public?: boolean;
  team_role?: TeamRole | null;
  permalink?: string;
  steps?: GuideStepInput[];
}

export interface NewGuide extends GuideFields {
  team_id: string;
  processing?: boolean;
}

export async function findGuideRow(db: Executor, id: string): Promise<GuideRow | undefined> {
  return db.selectFrom('guides').select(GUIDE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function requireGuideRow(db: Executor, id: string): Promise<GuideRow> {
  const guide = await findGuideRow(db, id);
  if (!guide) throw new NotFoundError('Guide');
  return guide;
}

function stepsJson(steps: GuideStepInput[]): string {
  const normalized: GuideStep[] = steps.map((step) => ({
    text: step.text,
    image_url: step.image_url ?? null,
    image_alt: step.image_alt ?? null,
  }));
  return JSON.stringify(normalized);
}

async function checkPermalinkFree(trx: Executor, permalink: string, guideId: string | null): Promise<void> {
  if (!isValidPermalink(permalink)) {
    throw new InvalidInputError('permalink', 'permalink must be a lowercase slug of at most 120 characters and not shaped like a UUID');
  }
  const holder = await trx.selectFrom('guides').select('id').where('permalink', '=', permalink).executeTakeFirst();
  if (holder && holder.id !== guideId) throw new ConflictError(`The permalink ${permalink} is taken`);
}

/** A generated permalink nobody holds; a clash of the random suffix is simply drawn again. */
async function freshPermalink(trx: Executor, title: string | null): Promise<string> {
  for (;;) {
    const permalink = makePermalink(title);
    const holder = await trx.selectFrom('guides').select('id').where('permalink', '=', permalink).executeTakeFirst();
    if (!holder) return permalink;
  }
}

export async function createGuide(ctx: DomainContext, input: NewGuide): Promise<GuideRow> {
  return transact(ctx, async (trx) => {
    const now = ctx.clock.now();
    const target = await guideEventTarget(ctx, trx, input.team_id, now);
    await checkReferences(trx, { teamId: input.team_id, organizationId: target.organizationId }, input);
    const permalink = input.permalink ?? (await freshPermalink(trx, input.title ?? null));
    if (input.permalink !== undefined) await checkPermalinkFree(trx, permalink, null);
    const language = input.language ?? 'en';
    const steps = input.steps ?? [];
    const processing: ProcessingState = input.processing ? 'processing' : 'finished';
    const row = {
      id: newId(),
      team_id: input.team_id,
      organization_id: target.organizationId,
      owner_id: input.owner_id ?? null,
      title: input.title ?? null,
      title_folded: foldCase(input.title ?? ''),
      description: input.description ?? null,
      language,
      text_direction: input.text_direction ?? textDirectionOf(language),
      app_version: input.app_version ?? null,
      icon_url: input.icon_url ?? null,
      thumbnail_url: input.thumbnail_url ?? null,
      tags: input.tags == null ? null : JSON.stringify(input.tags),
      folder_id: input.folder_id ?? null,
      publish_status: input.publish_status ?? 'DRAFT',
      is_public: input.is_public ? 1 : 0,
      team_role: input.team_role ?? null,
      permalink,
      steps: stepsJson(steps),
      step_count: steps.length,
      processing_state: processing,
      processing_error: null,
      created_at: timestamp(now),
      updated_at: timestamp(now),
    } as const;
    const guide = await trx.insertInto('guides').values(row).returning(GUIDE_COLUMNS).executeTakeFirstOrThrow();
    touched(trx, 'guides', [tag.teamGuides(row.team_id)]);
    await recordGuideEvent(target, 'guide.created', guide);
    await recordAudit(ctx, trx, { action: 'guide.created', target: { type: 'guide', id: guide.id }, home: { type: 'team', id: guide.team_id }, organizationId: guide.organization_id });
    return guide;
  });
}

type GuideColumns = Partial<Omit<GuideRow, 'seq' | 'id' | 'created_at'>>;

function columnChanges(guide: GuideRow, input: GuideFields): GuideColumns {
  const changes: GuideColumns = {};
  if (input.title !== undefined) {
    changes.title = input.title;
    changes.title_folded = foldCase(input.title ?? '');
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.owner_id !== undefined) changes.owner_id = input.owner_id;
  if (input.language !== undefined) {
    changes.language = input.language;
    // The direction follows the language unless it was set to something else explicitly.
    const followsLanguage = guide.text_direction === textDirectionOf(guide.language);
    if (input.text_direction === undefined && followsLanguage) changes.text_direction = textDirectionOf(input.language);
  }
  if (input.text_direction !== undefined) changes.text_direction = input.text_direction;
  if (input.app_version !== undefined) changes.app_version = input.app_version;
  if (input.icon_url !== undefined) changes.icon_url = input.icon_url;
  if (input.thumbnail_url !== undefined) changes.thumbnail_url = input.thumbnail_url;
  if (input.tags !== undefined) changes.tags = input.tags === null ? null : JSON.stringify(input.tags);
  if (input.folder_id !== undefined) changes.folder_id = input.folder_id;
  if (input.publish_status !== undefined) changes.publish_status = input.publish_status;
  if (input.is_public !== undefined) changes.is_public = input.is_public ? 1 : 0;
  if (input.team_role !== undefined) changes.team_role = input.team_role;
  if (input.permalink !== undefined) changes.permalink = input.permalink;
  if (input.steps !== undefined) {
    changes.steps = stepsJson(input.steps);
    changes.step_count = input.steps.length;
  }
  // Keep only real changes, so that writing the same value again is not an update.
  for (const key of Object.keys(changes) as (keyof GuideColumns)[]) {
    if (changes[key] === guide[key]) delete changes[key];
  }
  return changes;
}

function changedColumns(changes: GuideColumns): ChangeColumn[] {
  return CHANGE_COLUMNS.filter((column) => (column === 'body' ? 'steps' in changes : column in changes));
}

export async function updateGuide(ctx: DomainContext, id: string, input: GuideFields): Promise<GuideRow> {
  return transact(ctx, async (trx) => {
    const guide = await requireGuideRow(trx, id);
    const changes = columnChanges(guide, input);
    await checkReferences(trx, { teamId: guide.team_id, organizationId: guide.organization_id }, changes);
    if (changes.permalink !== undefined) await checkPermalinkFree(trx, changes.permalink, guide.id);
    if (Object.keys(changes).length === 0) return guide;
    const now = ctx.clock.now();
    // An edit after a window's closing time starts a new window, even if the worker has not emitted the old one yet.
    await flushGuideUpdate(ctx, trx, id, now, true);
    await trx
      .updateTable('guides')
      .set({ ...changes, updated_at: timestamp(now) })
      .where('id', '=', id)
      .execute();
    // An edit leaves the team's guides and their order as they were: it changes the pages that show
    // this guide, the searches when the title changes, and which guide a permalink names.
    touched(trx, 'guides', [
      tag.guide(id),
      ...(changes.title_folded !== undefined ? [tag.retitled(guide.team_id, guide.title_folded, changes.title_folded)] : []),
      ...(changes.permalink !== undefined ? [tag.teamGuides(guide.team_id)] : []),
    ]);
    const updated = await requireGuideRow(trx, id);
    const changed = changedColumns(changes);
    if (changed.length > 0) await noteGuideUpdate(ctx, trx, updated, changed, now);
    await recordAudit(ctx, trx, { action: 'guide.updated', target: { type: 'guide', id }, home: { type: 'team', id: guide.team_id }, organizationId: guide.organization_id, changed: fieldsSet(input) });
    return updated;
  });
}

/** Ends the processing of a recording or import: ready with its steps, or failed (the guide remains). */
export async function settleProcessing(ctx: DomainContext, id: string, outcome: 'finished' | 'failed', error: string | null): Promise<GuideRow> {
  return transact(ctx, async (trx) => {
    const guide = await requireGuideRow(trx, id);
    if (guide.processing_state !== 'processing') throw new ConflictError('The guide is not processing');
    if (outcome === 'finished' && guide.step_count === 0) throw new ConflictError('The guide has no steps, so processing cannot finish');
    const now = ctx.clock.now();
    await trx
      .updateTable('guides')
      .set({ processing_state: outcome, processing_error: outcome === 'failed' ? error : null, updated_at: timestamp(now) })
      .where('id', '=', id)
      .execute();
    touched(trx, 'guides', [tag.teamGuides(guide.team_id), tag.guide(id)]);
    const settled = await requireGuideRow(trx, id);
    const target = await guideEventTarget(ctx, trx, guide.team_id, now);
    await recordGuideEvent(target, outcome === 'finished' ? 'guide.ready' : 'guide.failed', settled);
    await recordAudit(ctx, trx, { action: 'guide.processing_settled', target: { type: 'guide', id }, home: { type: 'team', id: guide.team_id }, organizationId: guide.organization_id, changed: ['processing_state'] });
    return settled;
  });
}

/** Moves a guide to another team: the old team hears guide.deleted, the new one guide.created. */
export async function moveGuide(ctx: DomainContext, id: string, teamId: string): Promise<GuideRow> {
  return transact(ctx, async (trx) => {
    const guide = await requireGuideRow(trx, id);
    const team = await requireTeam(trx, teamId);
    if (guide.team_id === teamId) return guide;
    const now = ctx.clock.now();
    await flushGuideUpdate(ctx, trx, guide.id, now, false);
    await recordGuideDeleted(await guideEventTarget(ctx, trx, guide.team_id, now), guide);
    // Folders belong to a team, so a moved guide leaves its folder; an owner outside the new tenant is let go.
    const home = { teamId, organizationId: team.organization_id };
    const ownerId = guide.owner_id !== null && (await isOwnerWithin(trx, home, guide.owner_id)) ? guide.owner_id : null;
    await trx
      .updateTable('guides')
      .set({ team_id: teamId, organization_id: team.organization_id, folder_id: null, owner_id: ownerId, updated_at: timestamp(now) })
      .where('id', '=', id)
      .execute();
    touched(trx, 'guides', [tag.teamGuides(guide.team_id), tag.teamGuides(teamId), tag.guide(id)]);
    const moved = await requireGuideRow(trx, id);
    await recordGuideEvent(await guideEventTarget(ctx, trx, teamId, now), 'guide.created', moved);
    await recordAudit(ctx, trx, { action: 'guide.moved', target: { type: 'guide', id }, home: { type: 'team', id: teamId }, organizationId: team.organization_id, changed: ['team_id'] });
    return moved;
  });
}

export async function deleteGuide(ctx: DomainContext, id: string): Promise<void> {
  await transact(ctx, async (trx) => {
    const guide = await requireGuideRow(trx, id);
    const now = ctx.clock.now();
    await flushGuideUpdate(ctx, trx, guide.id, now, false);
    await trx.deleteFrom('guides').where('id', '=', id).execute();
    touched(trx, 'guides', [tag.teamGuides(guide.team_id), tag.guide(id)]);
    await recordGuideDeleted(await guideEventTarget(ctx, trx, guide.team_id, now), guide);
    await recordAudit(ctx, trx, { action: 'guide.deleted', target: { type: 'guide', id }, home: { type: 'team', id: guide.team_id }, organizationId: guide.organization_id });
  });
}

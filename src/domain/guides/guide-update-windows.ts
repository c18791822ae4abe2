// Coalescing of guide.updated (spec §6.1, decisions §6): edits to one guide within WEBHOOK_COALESCE_MS
// of the first edit form one event whose `changed` is their union in spec order and whose summary is
// the guide as it is when the window closes. Open windows are rows, so they survive restarts and any
// worker can close them; closing deletes the row first, so a window is emitted once.
import { timestamp } from '../clock.js';
import { type DomainContext, type Executor, markUpkeepChanged, transact } from '../context.js';
import { type ChangeColumn, CHANGE_COLUMNS, guideEventTarget, recordGuideEvent } from './guide-events.js';
import type { GuideRow } from './guide-record.js';
import { GUIDE_COLUMNS, UPDATE_WINDOW_COLUMNS } from '../../db/columns.js';

/** Records an edit: at once when coalescing is off, otherwise into the guide's open window. */
export async function noteGuideUpdate(ctx: DomainContext, trx: Executor, guide: GuideRow, changed: readonly ChangeColumn[], now: Date): Promise<void> {
  if (ctx.settings.coalesceMs === 0) {
    await recordGuideEvent(await guideEventTarget(ctx, trx, guide.team_id, now), 'guide.updated', guide, changed);
    return;
  }
  const open = await trx.selectFrom('guide_update_windows').select('changed').where('guide_id', '=', guide.id).executeTakeFirst();
  if (open) {
    const union = new Set([...open.changed.split(' '), ...changed]);
    await trx
      .updateTable('guide_update_windows')
      .set({ changed: CHANGE_COLUMNS.filter((column) => union.has(column)).join(' ') })
      .where('guide_id', '=', guide.id)
      .execute();
    return;
  }
  markUpkeepChanged(trx);
  await trx
    .insertInto('guide_update_windows')
    .values({
      guide_id: guide.id,
      team_id: guide.team_id,
      changed: changed.join(' '),
      opened_at: timestamp(now),
      closes_at: timestamp(new Date(now.getTime() + ctx.settings.coalesceMs)),
    })
    .execute();
}

/**
 * Emits the guide's window: with `closedOnly`, only if it has closed by `now` (the worker closing it, or
 * an edit arriving after its closing time); without, at once whatever its closing time (a delete or a
 * move, so that guide.updated comes before guide.deleted). The event is dated when the window closed, or
 * now if that is earlier. The row is deleted first, so a window is emitted once.
 */
export async function flushGuideUpdate(ctx: DomainContext, trx: Executor, guideId: string, now: Date, closedOnly: boolean): Promise<void> {
  let deletion = trx.deleteFrom('guide_update_windows').where('guide_id', '=', guideId);
  if (closedOnly) deletion = deletion.where('closes_at', '<=', timestamp(now));
  const window = await deletion.returning(UPDATE_WINDOW_COLUMNS).executeTakeFirst();
  if (!window) return;
  const guide = await trx.selectFrom('guides').select(GUIDE_COLUMNS).where('id', '=', guideId).executeTakeFirst();
  if (!guide) return;
  const changed = window.changed.split(' ') as ChangeColumn[];
  const at = new Date(Math.min(Date.parse(window.closes_at), now.getTime()));
  await recordGuideEvent(await guideEventTarget(ctx, trx, guide.team_id, at), 'guide.updated', guide, changed);
}

/** Emits the windows that have closed by `now`, oldest first, up to a batch; returns how many. */
export async function closeDueWindows(ctx: DomainContext, now: Date): Promise<number> {
  const due = await ctx.db
    .selectFrom('guide_update_windows')
    .select('guide_id')
    .where('closes_at', '<=', timestamp(now))
    .orderBy('closes_at')
    .limit(500)
    .execute();
  for (const window of due) await transact(ctx, (trx) => flushGuideUpdate(ctx, trx, window.guide_id, now, true));
  return due.length;
}

/** When the next open window closes, or null when none is open. */
export async function nextWindowClose(db: Executor): Promise<Date | null> {
  const row = await db.selectFrom('guide_update_windows').select((eb) => eb.fn.min('closes_at').as('next')).executeTakeFirst();
  return row?.next ? new Date(row.next) : null;
}

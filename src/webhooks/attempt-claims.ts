// Claiming due attempts. A claim marks attempts `sending` with a lease; an attempt whose worker died
// comes back once its lease has run out. The claim is one statement, so two workers never take the same
// attempt (on PostgreSQL the selection also skips rows another worker has locked).
import { type SqlBool, sql } from 'kysely';
import type { WebhookAttemptsTable } from '../db/schema.js';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';

export type ClaimedAttempt = Omit<WebhookAttemptsTable, 'seq'> & { seq: number };

export async function claimDueAttempts(ctx: DomainContext, limit: number, leaseMs: number): Promise<ClaimedAttempt[]> {
  const now = ctx.clock.now();
  const nowText = timestamp(now);
  let due = ctx.db
    .selectFrom('webhook_attempts')
    .select('seq')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'scheduled'), eb('due_at', '<=', nowText)]),
        eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', nowText)]),
      ]),
    )
    .orderBy('seq')
    .limit(limit);
  if (ctx.dialect === 'postgres') due = due.forUpdate().skipLocked();
  const claimed = await ctx.db
    .updateTable('webhook_attempts')
    .set({ status: 'sending', claimed_until: timestamp(new Date(now.getTime() + leaseMs)) })
    .where('seq', 'in', due)
    .returningAll()
    .execute();
  // First attempts to an endpoint leave in event order.
  return claimed.sort((a, b) => a.seq - b.seq);
}

/** Gives claimed attempts back, due at once, for another worker or the next start. */
export async function releaseClaims(ctx: DomainContext, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await ctx.db
    .updateTable('webhook_attempts')
    .set({ status: 'scheduled', claimed_until: null })
    .where('seq', 'in', seqs)
    .where('status', '=', 'sending')
    .execute();
}

/** When the next scheduled attempt or expiring claim is due, or null when nothing waits. */
export async function nextAttemptDue(ctx: DomainContext): Promise<Date | null> {
  const row = await ctx.db
    .selectFrom('webhook_attempts')
    .select(sql<string | null>`min(case when status = 'scheduled' then due_at else claimed_until end)`.as('next'))
    .where(sql<SqlBool>`status in ('scheduled', 'sending')`)
    .executeTakeFirst();
  return row?.next ? new Date(row.next) : null;
}

// Claiming due attempts. A claim takes, for each endpoint that has nothing in flight, its oldest due
// attempts (a batch), marks them `sending` and gives them a lease; the worker sends a batch one attempt
// after another, so first attempts to an endpoint leave in event order, and renews the lease as it goes.
// An attempt whose worker died comes back once its lease has run out. The claim is one statement, so two
// claims never take the same attempt.
import { sql } from 'kysely';
import type { WebhookAttemptsTable } from '../db/schema.js';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';

export type ClaimedAttempt = Omit<WebhookAttemptsTable, 'seq'> & { seq: number };

export interface ClaimLimits {
  /** Attempts taken in all. */
  total: number;
  /** Attempts taken per endpoint. */
  perEndpoint: number;
  leaseMs: number;
}

/** The claimed attempts grouped by endpoint, each group in event order. */
export async function claimDueAttempts(ctx: DomainContext, limits: ClaimLimits): Promise<ClaimedAttempt[][]> {
  const now = ctx.clock.now();
  const nowText = timestamp(now);
  const claimed = await ctx.db
    .updateTable('webhook_attempts')
    .set({ status: 'sending', claimed_until: timestamp(new Date(now.getTime() + limits.leaseMs)) })
    .where(
      'seq',
      'in',
      sql<number>`(
        SELECT seq FROM (
          SELECT a.seq, ROW_NUMBER() OVER (PARTITION BY a.endpoint_id ORDER BY a.seq) AS place
          FROM webhook_attempts a
          WHERE ((a.status = 'scheduled' AND a.due_at <= ${nowText}) OR (a.status = 'sending' AND a.claimed_until < ${nowText}))
            AND NOT EXISTS (
              SELECT 1 FROM webhook_attempts b
              WHERE b.endpoint_id = a.endpoint_id AND b.status = 'sending' AND b.claimed_until >= ${nowText})
        ) ranked
        WHERE place <= ${limits.perEndpoint}
        ORDER BY seq
        LIMIT ${limits.total}
      )`,
    )
    .returningAll()
    .execute();
  const byEndpoint = new Map<string, ClaimedAttempt[]>();
  for (const attempt of claimed.sort((a, b) => a.seq - b.seq)) {
    const batch = byEndpoint.get(attempt.endpoint_id) ?? [];
    batch.push(attempt);
    byEndpoint.set(attempt.endpoint_id, batch);
  }
  return [...byEndpoint.values()];
}

/** Extends the lease of attempts still waiting in a batch while the one before them is sent. */
export async function renewLease(ctx: DomainContext, seqs: readonly number[], leaseMs: number): Promise<void> {
  if (seqs.length === 0) return;
  await ctx.db
    .updateTable('webhook_attempts')
    .set({ claimed_until: timestamp(new Date(ctx.clock.now().getTime() + leaseMs)) })
    .where('seq', 'in', seqs)
    .where('status', '=', 'sending')
    .execute();
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

/**
 * When the next claim could take something: the next scheduled attempt of an endpoint with nothing in
 * flight, or the next lease to run out. Attempts queued behind one in flight are left out: the end of
 * that batch wakes the worker.
 */
export async function nextAttemptDue(ctx: DomainContext): Promise<Date | null> {
  const nowText = timestamp(ctx.clock.now());
  const row = await ctx.db
    .selectFrom('webhook_attempts as a')
    .select(sql<string | null>`min(case when a.status = 'scheduled' then a.due_at else a.claimed_until end)`.as('next'))
    .where((eb) =>
      eb.or([
        eb('a.status', '=', 'sending'),
        eb.and([
          eb('a.status', '=', 'scheduled'),
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_attempts as b')
                .select(sql`1`.as('one'))
                .whereRef('b.endpoint_id', '=', 'a.endpoint_id')
                .where('b.status', '=', 'sending')
                .where('b.claimed_until', '>=', nowText),
            ),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
  return row?.next ? new Date(row.next) : null;
}

// Claiming due attempts. A claim takes, for up to N endpoints that have nothing in flight, each one's
// oldest due attempts (a batch), marks them `sending` under a fresh claim token and gives them a lease.
// The worker sends a batch one attempt after another, so first attempts to an endpoint leave in event
// order, and renews the lease of the whole batch before each attempt. An attempt whose worker died comes
// back once its lease has run out; every later write by the old claim names its token and so changes
// nothing. The claim is one statement that re-checks each row's state as it updates it, so two claims
// never take the same attempt; on PostgreSQL it also locks the rows it picks with FOR UPDATE SKIP
// LOCKED, so concurrent workers pass each other by.
import { sql } from 'kysely';
import type { WebhookAttemptsTable } from '../db/schema.js';
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import { newId } from '../domain/ids.js';

export type ClaimedAttempt = Omit<WebhookAttemptsTable, 'seq' | 'claim_token'> & { seq: number; claim_token: string };

export interface ClaimLimits {
  /** Endpoints taken at most. */
  endpoints: number;
  /** Attempts taken per endpoint. */
  perEndpoint: number;
  leaseMs: number;
}

/** The claimed attempts grouped by endpoint, each group in event order and under one claim token. */
export async function claimDueAttempts(ctx: DomainContext, limits: ClaimLimits): Promise<ClaimedAttempt[][]> {
  const now = ctx.clock.now();
  const nowText = timestamp(now);
  const token = newId();
  const lock = ctx.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const claimable = sql<boolean>`((status = 'scheduled' AND due_at <= ${nowText}) OR (status = 'sending' AND claimed_until < ${nowText}))`;
  const claimed = await ctx.db
    .updateTable('webhook_attempts')
    .set({ status: 'sending', claimed_until: timestamp(new Date(now.getTime() + limits.leaseMs)), claim_token: token })
    .where(claimable)
    .where(
      'seq',
      'in',
      sql<number>`(
        SELECT seq FROM webhook_attempts WHERE seq IN (
          SELECT seq FROM (
            SELECT seq, place, DENSE_RANK() OVER (ORDER BY first_seq) AS endpoint_rank FROM (
              SELECT a.seq,
                ROW_NUMBER() OVER (PARTITION BY a.endpoint_id ORDER BY a.seq) AS place,
                MIN(a.seq) OVER (PARTITION BY a.endpoint_id) AS first_seq
              FROM webhook_attempts a
              WHERE ((a.status = 'scheduled' AND a.due_at <= ${nowText}) OR (a.status = 'sending' AND a.claimed_until < ${nowText}))
                AND NOT EXISTS (
                  SELECT 1 FROM webhook_attempts b
                  WHERE b.endpoint_id = a.endpoint_id AND b.status = 'sending' AND b.claimed_until >= ${nowText})
            ) placed
          ) ranked
          WHERE place <= ${limits.perEndpoint} AND endpoint_rank <= ${limits.endpoints}
        ) ${lock}
      )`,
    )
    .returningAll()
    .execute();
  const byEndpoint = new Map<string, ClaimedAttempt[]>();
  for (const attempt of claimed.sort((a, b) => a.seq - b.seq)) {
    const batch = byEndpoint.get(attempt.endpoint_id) ?? [];
    batch.push(attempt as ClaimedAttempt);
    byEndpoint.set(attempt.endpoint_id, batch);
  }
  return [...byEndpoint.values()];
}

/** Extends the lease of a claim's attempts that are still being sent or waiting. */
export async function renewLease(ctx: DomainContext, token: string, leaseMs: number): Promise<void> {
  await ctx.db
    .updateTable('webhook_attempts')
    .set({ claimed_until: timestamp(new Date(ctx.clock.now().getTime() + leaseMs)) })
    .where('claim_token', '=', token)
    .where('status', '=', 'sending')
    .execute();
}

/** Gives a claim's unsent attempts back, due at once, for another worker or the next start. */
export async function releaseClaim(ctx: DomainContext, token: string): Promise<void> {
  await ctx.db
    .updateTable('webhook_attempts')
    .set({ status: 'scheduled', claimed_until: null, claim_token: null })
    .where('claim_token', '=', token)
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

// The answers kept for Idempotency-Keys (shared decisions §11): the first answer to a write that carried
// one, per credential, for 24 hours; written in the write's own transaction (request-transaction.ts), so
// that a write is kept exactly when its answer is. What decides when an answer is replayed is the
// management API's (src/http/idempotency.ts); this module keeps and finds them.
import { deleted, inBatches, PRUNE_BATCH } from '../db/batches.js';
import type { IdempotencyKeysTable } from '../db/schema.js';
import { timestamp } from './clock.js';
import type { DomainContext, Executor } from './context.js';

/** How long an answer is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export type KeptAnswer = Omit<IdempotencyKeysTable, 'created_at'>;

/** The answer kept for the credential's key, unless there is none or it is older than a day. */
export async function keptAnswer(ctx: DomainContext, credential: string, key: string): Promise<KeptAnswer | undefined> {
  return ctx.db
    .selectFrom('idempotency_keys')
    .select(['credential', 'key', 'fingerprint', 'status', 'content_type', 'location', 'body'])
    .where('credential', '=', credential)
    .where('key', '=', key)
    .where('created_at', '>=', cutoff(ctx))
    .executeTakeFirst();
}

/**
 * Keeps the answer, in `db` (the write's transaction). False when another answer for the key was kept
 * meanwhile and is still current: a repeat that ran beside the first, in another process; nothing of
 * it may be committed then. An answer older than a day is replaced.
 */
export async function keepAnswer(ctx: DomainContext, db: Executor, answer: KeptAnswer): Promise<boolean> {
  const createdAt = timestamp(ctx.clock.now());
  const replaced = { fingerprint: answer.fingerprint, status: answer.status, content_type: answer.content_type, location: answer.location, body: answer.body, created_at: createdAt };
  const result = await db
    .insertInto('idempotency_keys')
    .values({ ...answer, created_at: createdAt })
    .onConflict((oc) => oc.columns(['credential', 'key']).doUpdateSet(replaced).where('idempotency_keys.created_at', '<', cutoff(ctx)))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Deletes the answers older than a day, in batches. */
export async function pruneIdempotencyKeys(ctx: DomainContext): Promise<void> {
  const before = cutoff(ctx);
  await inBatches(async () =>
    deleted(
      await ctx.db
        .deleteFrom('idempotency_keys')
        .where('created_at', 'in', (eb) => eb.selectFrom('idempotency_keys as k').select('k.created_at').where('k.created_at', '<', before).limit(PRUNE_BATCH))
        .executeTakeFirst(),
    ),
  );
}

const cutoff = (ctx: DomainContext) => timestamp(new Date(ctx.clock.now().getTime() - IDEMPOTENCY_TTL_MS));

// The answers kept for Idempotency-Keys (shared decisions §11): the first answer to a write that carried
// one, per credential, for 24 hours; written in the write's own transaction (request-transaction.ts), so
// that a write is kept exactly when its answer is. What decides when an answer is replayed is the
// management API's (src/http/idempotency.ts); this module keeps and finds them.
import { deleted, inBatches, PRUNE_BATCH } from '../db/batches.js';
import { FixedQuery } from '../db/fixed-query.js';
import type { IdempotencyKeysTable } from '../db/schema.js';
import { timestamp } from './clock.js';
import type { DomainContext, Executor } from './context.js';

/** How long an answer is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export type KeptAnswer = Omit<IdempotencyKeysTable, 'created_at'>;

const LOOK_UP = new FixedQuery((db, v: { readonly [K in 'credential' | 'key' | 'since']: never }) =>
  db
    .selectFrom('idempotency_keys')
    .select(['credential', 'key', 'fingerprint', 'status', 'content_type', 'location', 'body'])
    .where('credential', '=', v.credential)
    .where('key', '=', v.key)
    .where('created_at', '>=', v.since),
);

/** The answer kept for the credential's key, unless there is none or it is older than a day. */
export async function keptAnswer(ctx: DomainContext, credential: string, key: string): Promise<KeptAnswer | undefined> {
  return (await LOOK_UP.run(ctx.db, { credential, key, since: cutoff(ctx) })).rows[0];
}

const KEEP = new FixedQuery((db, v: { readonly [K in keyof IdempotencyKeysTable | 'since']: never }) =>
  db
    .insertInto('idempotency_keys')
    .values({ credential: v.credential, key: v.key, fingerprint: v.fingerprint, status: v.status, content_type: v.content_type, location: v.location, body: v.body, created_at: v.created_at })
    .onConflict((oc) =>
      oc
        .columns(['credential', 'key'])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          status: eb.ref('excluded.status'),
          content_type: eb.ref('excluded.content_type'),
          location: eb.ref('excluded.location'),
          body: eb.ref('excluded.body'),
          created_at: eb.ref('excluded.created_at'),
        }))
        .where('idempotency_keys.created_at', '<', v.since),
    ),
);

/**
 * Keeps the answer, in `db` (the write's transaction). False when another answer for the key was kept
 * meanwhile and is still current: a repeat that ran beside the first, in another process; nothing of
 * it may be committed then. An answer older than a day is replaced.
 */
export async function keepAnswer(ctx: DomainContext, db: Executor, answer: KeptAnswer): Promise<boolean> {
  const result = await KEEP.run(db, { ...answer, created_at: timestamp(ctx.clock.now()), since: cutoff(ctx) });
  return Number(result.numAffectedRows ?? 0) > 0;
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

// Claiming work for the worker. A claim takes, for one lane, up to N endpoint queues that are ready
// (src/domain/delivery-queues.ts), and for each the first due attempts of its queue in event order (a
// batch), all under one fresh token and a lease. Only the holder of a queue sends its attempts, one after
// another, so first attempts to an endpoint leave in event order. A batch is read with what sending it
// needs: each attempt's event, and the endpoint's address, signing key and state at the time of the claim.
// When the batch ends, its unsent attempts go back and the queue is let go; a holder that died is taken
// over once its lease runs out, and every later write of the old holder names its token and changes
// nothing.
import type { EndpointStatus } from '../db/schema.js';
import type { DomainContext } from '../domain/context.js';
import { releaseUnsent, takeDueAttempts } from '../domain/delivery-attempts.js';
import { claimReadyQueues, type Lane, type QueueClaim, releaseQueue } from '../domain/delivery-queues.js';
import { newId } from '../domain/ids.js';

export interface ClaimedAttempt {
  seq: number;
  id: string;
  event_id: string;
  endpoint_id: string;
  attempt_number: number;
  auto_retry: 0 | 1;
  claim_token: string;
  /** The event's type and its body, the same bytes for every attempt. */
  type: string;
  payload: string;
}

export interface ClaimedEndpoint {
  url: string;
  signing_key: string;
  status: EndpointStatus;
}

export interface ClaimedBatch {
  claim: QueueClaim;
  lane: Lane;
  /** When the claim was made; its lease runs `leaseMs` from here. */
  claimedAt: Date;
  /** Null when the queue had nothing due after all (it became ready early) or the endpoint is gone. */
  endpoint: ClaimedEndpoint | null;
  attempts: ClaimedAttempt[];
}

export interface ClaimLimits {
  /** Endpoints taken at most. */
  endpoints: number;
  /** Attempts taken per endpoint. */
  perEndpoint: number;
  leaseMs: number;
}

/** Claims up to `limits.endpoints` ready queues of the lane, each with its first due attempts. */
export async function claimBatches(ctx: DomainContext, lane: Lane, limits: ClaimLimits): Promise<ClaimedBatch[]> {
  const now = ctx.clock.now();
  const token = newId();
  const claims = await ctx.db.transaction().execute(async (trx) => {
    const taken = await claimReadyQueues(trx, lane, now, new Date(now.getTime() + limits.leaseMs), token, limits.endpoints);
    await takeDueAttempts(trx, taken.map((claim) => claim.endpointId), now, limits.perEndpoint, token);
    return taken;
  });
  if (claims.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('webhook_attempts as a')
    .innerJoin('events as ev', 'ev.id', 'a.event_id')
    .innerJoin('webhook_endpoints as ep', 'ep.id', 'a.endpoint_id')
    .select(['a.seq', 'a.id', 'a.event_id', 'a.endpoint_id', 'a.attempt_number', 'a.auto_retry', 'ev.type', 'ev.payload', 'ep.url', 'ep.signing_key', 'ep.status'])
    .where('a.endpoint_id', 'in', claims.map((claim) => claim.endpointId))
    .where('a.status', '=', 'sending')
    .where('a.claim_token', '=', token)
    .orderBy('a.seq')
    .execute();
  const batches = new Map<string, ClaimedBatch>(
    claims.map((claim) => [claim.endpointId, { claim, lane, claimedAt: now, endpoint: null, attempts: [] as ClaimedAttempt[] }]),
  );
  for (const row of rows) {
    const batch = batches.get(row.endpoint_id)!;
    batch.endpoint ??= { url: row.url, signing_key: row.signing_key, status: row.status };
    batch.attempts.push({
      seq: row.seq,
      id: row.id,
      event_id: row.event_id,
      endpoint_id: row.endpoint_id,
      attempt_number: row.attempt_number,
      auto_retry: row.auto_retry,
      claim_token: token,
      type: row.type,
      payload: row.payload,
    });
  }
  return [...batches.values()];
}

/**
 * Ends a batch: what it did not send goes back (missed if the endpoint was paused meanwhile), and the
 * queue is let go, ready again at its next waiting attempt. False when the claim had been lost.
 */
export async function endBatch(ctx: DomainContext, claim: QueueClaim, unsent: boolean): Promise<boolean> {
  if (unsent) await releaseUnsent(ctx.db, claim.endpointId, claim.token);
  return releaseQueue(ctx.db, claim);
}

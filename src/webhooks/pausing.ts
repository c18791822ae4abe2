// Pausing and resuming endpoints (spec §3.3, decisions §6). A 410 pauses at once; nothing but failures for
// WEBHOOK_PAUSE_AFTER_MS pauses and sends the admins of the endpoint's home exactly one e-mail: the pause
// is a conditional update from active, so only the one writer that makes it also queues the mail. While
// paused, pending attempts and new events are `missed`; resuming can send them again, oldest first.
import { recordAudit } from '../domain/audit.js';
import { homeOf } from '../domain/homes.js';
import type { PausedReason } from '../db/schema.js';
import { timestamp } from '../domain/clock.js';
import { type DomainContext, type Executor, transact } from '../domain/context.js';
import { missPending, redeliverMissed } from '../domain/delivery-attempts.js';
import { lockQueues, parkQueue, setBreakers } from '../domain/delivery-queues.js';
import { queueMail } from '../mail/mail-outbox.js';
import { type Endpoint, requireEndpoint } from './endpoints.js';

async function homeAdminEmails(trx: Executor, endpoint: Endpoint): Promise<string[]> {
  const rows =
    endpoint.home_type === 'team'
      ? await trx
          .selectFrom('memberships')
          .innerJoin('users', 'users.id', 'memberships.user_id')
          .select('users.email')
          .where('memberships.team_id', '=', endpoint.home_id)
          .where('memberships.role', '=', 'ADMIN')
          .orderBy('users.email')
          .execute()
      : await trx
          .selectFrom('organization_admins')
          .innerJoin('users', 'users.id', 'organization_admins.user_id')
          .select('users.email')
          .where('organization_admins.organization_id', '=', endpoint.home_id)
          .orderBy('users.email')
          .execute();
  return rows.map((row) => row.email);
}

function spoken(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  const [size, name] = units.find(([size]) => ms >= size) ?? [1, 'millisecond'];
  const count = Math.round((ms / size) * 10) / 10;
  return `${count} ${name}${count === 1 ? '' : 's'}`;
}

function pauseMail(endpoint: Endpoint, pauseAfterMs: number) {
  return {
    subject: `Webhook endpoint paused: ${endpoint.url}`,
    text:
      `Every delivery to ${endpoint.url} has failed for ${spoken(pauseAfterMs)} (since ${endpoint.failing_since}), so the endpoint is paused.\n\n` +
      'New events for it are kept as missed. When the receiver works again, resume the endpoint from its menu in the ' +
      "application's webhook settings and choose to redeliver the missed events.\n",
  };
}

/** Pauses an active endpoint; returns false when it was paused already (by this or another worker). */
export async function pauseEndpoint(trx: Executor, endpointId: string, reason: PausedReason, now: Date, pauseAfterMs: number): Promise<boolean> {
  // The queue before the endpoint, as every writer takes them (see lockQueues).
  await lockQueues(trx, [endpointId]);
  const result = await trx
    .updateTable('webhook_endpoints')
    .set({ status: 'paused', paused_reason: reason, paused_at: timestamp(now), updated_at: timestamp(now) })
    .where('id', '=', endpointId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await missPending(trx, endpointId);
  await parkQueue(trx, endpointId);
  if (reason === 'failing') {
    const endpoint = await requireEndpoint(trx, endpointId);
    const to = await homeAdminEmails(trx, endpoint);
    await queueMail(trx, { to, ...pauseMail(endpoint, pauseAfterMs) }, now);
  }
  return true;
}

/** An admin pauses an endpoint by hand; pausing a paused endpoint changes nothing (its reason stays). */
export async function pauseByHand(ctx: DomainContext, id: string): Promise<Endpoint> {
  return transact(ctx, async (trx) => {
    await requireEndpoint(trx, id);
    const paused = await pauseEndpoint(trx, id, 'manual', ctx.clock.now(), 0);
    const endpoint = await requireEndpoint(trx, id);
    if (paused) await recordAudit(ctx, trx, { action: 'webhook_endpoint.paused', target: { type: 'webhook_endpoint', id }, home: homeOf(endpoint) });
    return endpoint;
  });
}

/** Pauses every active endpoint whose failures have lasted WEBHOOK_PAUSE_AFTER_MS; returns how many. */
export async function pauseLongFailingEndpoints(ctx: DomainContext, pauseAfterMs: number): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('status', '=', 'active')
    .where('failing_since', '<=', timestamp(new Date(now.getTime() - pauseAfterMs)))
    .execute();
  let paused = 0;
  for (const { id } of due) {
    if (await transact(ctx, (trx) => pauseEndpoint(trx, id, 'failing', now, pauseAfterMs))) paused++;
  }
  return paused;
}

export async function resumeEndpoint(ctx: DomainContext, id: string, redeliver: boolean): Promise<Endpoint> {
  return transact(ctx, async (trx) => {
    await lockQueues(trx, [id]);
    const endpoint = await requireEndpoint(trx, id);
    // Resuming an active endpoint changes nothing; in particular its failure clock keeps running.
    if (endpoint.status === 'active') return endpoint;
    const now = ctx.clock.now();
    await trx
      .updateTable('webhook_endpoints')
      .set({ status: 'active', paused_reason: null, paused_at: null, failing_since: null, updated_at: timestamp(now) })
      .where('id', '=', id)
      .execute();
    // Resuming says the receiver works again: its breaker starts closed.
    await setBreakers(trx, [{ endpointId: id, failures: 0, probeAt: null }]);
    if (redeliver) await redeliverMissed(trx, ctx.dialect, id, now);
    await recordAudit(ctx, trx, { action: 'webhook_endpoint.resumed', target: { type: 'webhook_endpoint', id }, home: homeOf(endpoint) });
    return requireEndpoint(trx, id);
  });
}

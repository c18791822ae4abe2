// What every domain operation needs: the store, the clock, the settings that shape answers, and the
// signal that tells the webhook worker new work was committed.
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { commitWith } from '../db/commit-with.js';
import type { DialectName, Store } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';
import type { EventFeedSignal } from './event-feed-signal.js';
import type { ReadCache } from './read-cache.js';
import { type Changes, encodeChanges, NO_CACHE_ORIGIN, startWriting, type Writing } from './read-dependencies.js';
import { currentRequestTransaction } from './request-transaction.js';

export interface DomainSettings {
  /** `guide.url` in events is `${appUrl}/guides/{id}`. */
  appUrl: string;
  previewSteps: number;
  /** Edits to one guide within this many ms of the first form one guide.updated; 0 sends each at once. */
  coalesceMs: number;
  /** How many times a failed delivery is retried (WEBHOOK_RETRY_DELAYS): the console says "retry 3 of 8". */
  webhookRetries: number;
}

/** Wakes the loops that work from the store; called after a write commits, so they see what it wrote. */
export interface OutboxSignal {
  /** The delivery worker and the upkeep (coalescing windows, mail) both look again. */
  wake(): void;
  /** Only the delivery worker looks again: the write left the upkeep nothing to do. */
  wakeSenders(): void;
}

export interface DomainContext {
  db: Kysely<Database>;
  dialect: DialectName;
  clock: Clock;
  settings: DomainSettings;
  /** Signs and checks list cursors; kept in the store so every process agrees. */
  cursorSecret: Buffer;
  outbox: OutboxSignal;
  /** Answers of the read-only API kept between requests; absent where nothing is cached. */
  readCache?: ReadCache;
  /** Wakes requests waiting on the events feed; absent where no API is served. */
  eventFeed?: EventFeedSignal;
  /** Leaves no copy of rows deleted or overwritten in the tables, beyond the rows themselves (an erasure). */
  purgeDeleted: Store['purgeDeleted'];
}

export type Executor = Kysely<Database>;

export const OUTBOX_CHANNEL = 'guide_service_outbox';
/** Where a committed write tells every process's read cache what it changed (PostgreSQL). */
export const READS_CHANNEL = 'guide_service_reads';

const outboxChanges = new WeakSet<object>();
const upkeepChanges = new WeakSet<object>();
/** The outbox channel's payload when a commit left work for the upkeep too (a coalescing window, mail). */
export const UPKEEP_NOTICE = 'upkeep';
/** transact's transactions, with the writes asked to come last in each (writeLast). */
const lastWrites = new WeakMap<object, (() => Promise<unknown>)[]>();

/** transact's transactions that commit as soon as the write running last now ends (executeLast). */
const commitNext = new WeakSet<object>();

/**
 * Asks for `write` to run as the last statements of `trx`, after its notifications, just before it
 * commits. Answers false, and runs nothing, when `trx` is not one of transact's: the caller then writes
 * at once. The last statement of the last such write may commit `trx` with it (executeLast).
 */
export function writeLast(trx: Executor, write: () => Promise<unknown>): boolean {
  const writes = lastWrites.get(trx);
  writes?.push(write);
  return writes !== undefined;
}

/**
 * Runs `query`, the final statement of a write asked to come last (writeLast). When the transaction
 * commits right after it (transact's own, not a request's that writes more), PostgreSQL commits with the
 * statement, in one message (commit-with.ts), so that the rows it locks are not held while this process
 * gets round to the COMMIT.
 */
export async function executeLast(trx: Executor, query: RawBuilder<unknown>): Promise<void> {
  if (commitNext.delete(trx)) await commitWith(trx, query);
  else await query.execute(trx);
}

/** Notes that a transaction scheduled delivery work, so that its commit wakes the workers. */
export function markOutboxChanged(trx: Executor): void {
  outboxChanges.add(trx);
}

/**
 * Notes that a transaction left work for the upkeep (it opened a coalescing window or queued mail), so
 * that its commit wakes the upkeep loops as well as the workers. Other commits leave the upkeep asleep:
 * on a busy store that is a look fewer per write in every worker process.
 */
export function markUpkeepChanged(trx: Executor): void {
  outboxChanges.add(trx);
  upkeepChanges.add(trx);
}

/** Whether `trx` left the upkeep work (markUpkeepChanged); asked before it commits. */
export function leftUpkeepWork(trx: Executor): boolean {
  return upkeepChanges.has(trx);
}

/** Wakes this process's loops after a commit: the upkeep too only when the commit left it work. */
export function wakeAfterCommit(ctx: DomainContext, upkeep: boolean): void {
  if (upkeep) ctx.outbox.wake();
  else ctx.outbox.wakeSenders();
}

/**
 * A column for a PostgreSQL statement that tells the workers of every process that delivery work is
 * ready when `when` holds for one of its rows (several notices of one transaction arrive as one), when
 * the statement's transaction commits: for a statement that alone knows whether it left work ready.
 */
export function notifyWorkersWith(when: RawBuilder<boolean>): RawBuilder<unknown> {
  return sql`CASE WHEN ${when} THEN ${pgNotify(OUTBOX_CHANNEL, '')} END AS notified`;
}

/**
 * Drops every cached answer here and tells every other process to do the same: for writes that did not
 * say what they changed (a bulk load, a statement outside transact).
 */
export async function announceEverythingChanged(ctx: DomainContext): Promise<void> {
  ctx.readCache?.invalidate('all');
  await notify(ctx, ctx.db, readCacheNotices(ctx, 'all'));
}

/** What tells every process's read cache what changed (PostgreSQL): none when nothing did. */
function readCacheNotices(ctx: DomainContext, changes: Changes): [string, string][] {
  const payload = encodeChanges(ctx.readCache?.origin ?? NO_CACHE_ORIGIN, changes);
  return payload === null ? [] : [[READS_CHANNEL, payload]];
}

/** On PostgreSQL, sends the notifications in one statement; they are delivered when `executor` commits. */
async function notify(ctx: DomainContext, executor: Executor, notices: readonly [channel: string, payload: string][]): Promise<void> {
  if (ctx.dialect !== 'postgres' || notices.length === 0) return;
  await sql`select ${sql.join(notices.map(([channel, payload]) => pgNotify(channel, payload)))}`.execute(executor);
}

/** PostgreSQL's call that sends a notification on `channel` when the transaction commits. */
const pgNotify = (channel: string, payload: string) => sql`pg_notify(${channel}, ${payload})`;

/**
 * Runs a write and its events in one transaction, then wakes the worker of this process; a transaction
 * that scheduled delivery work also notifies the workers of other processes. What the transaction
 * changed for the read-only API's answers (read-dependencies.ts) is announced to other processes with
 * the commit and dropped from this process's cache once it has committed. Inside a request that keeps
 * one transaction for all its writes (request-transaction.ts), the write joins it, and what follows its
 * commit waits for that one.
 */
export async function transact<T>(ctx: DomainContext, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const request = currentRequestTransaction();
  if (request) {
    const writing = startWriting(await request.join());
    const trx = writing.db as Transaction<Database>;
    const { value, changes, last } = await writeIn(ctx, writing, trx, work);
    // The writes asked to come last wait for the request's own last record, so that the rows they lock
    // are held only while the request commits.
    request.beforeCommit((commitsAfter) => writeLastOnes(trx, last, commitsAfter));
    request.onCommit(() => committed(ctx, changes, leftUpkeepWork(trx)));
    return value;
  }
  const writing = startWriting(ctx.db);
  const { value, changes, upkeep } = await writing.db.transaction().execute(async (trx) => {
    const { value, changes, last } = await writeIn(ctx, writing, trx, work);
    await writeLastOnes(trx, last, true);
    return { value, changes, upkeep: leftUpkeepWork(trx) };
  });
  committed(ctx, changes, upkeep);
  return value;
}

/** The write and its notifications in `trx`, and the writes it asked to come last (writeLast), not yet run. */
async function writeIn<T>(ctx: DomainContext, writing: Writing, trx: Transaction<Database>, work: (trx: Transaction<Database>) => Promise<T>) {
  writing.begin(trx);
  const last: (() => Promise<unknown>)[] = [];
  lastWrites.set(trx, last);
  const value = await work(trx);
  const changes = writing.changes();
  const workers: [string, string][] = outboxChanges.has(trx) ? [[OUTBOX_CHANNEL, leftUpkeepWork(trx) ? UPKEEP_NOTICE : '']] : [];
  await notify(ctx, trx, [...workers, ...(changes === null ? [] : readCacheNotices(ctx, changes))]);
  return { value, changes, last };
}

/**
 * Runs the writes asked to come last: what they write is no answer of the read-only API's, and they mark
 * the outbox as they ask (writeLast). When `trx` commits right after them, the final one may commit it
 * with its statement (executeLast).
 */
async function writeLastOnes(trx: Executor, last: readonly (() => Promise<unknown>)[], commitsAfter: boolean): Promise<void> {
  try {
    for (const [n, write] of last.entries()) {
      if (commitsAfter && n === last.length - 1) commitNext.add(trx);
      await write();
    }
  } finally {
    commitNext.delete(trx);
  }
}

/** What follows a commit in this process: cached answers it changed dropped, the loops woken. */
function committed(ctx: DomainContext, changes: Changes | null, upkeep: boolean): void {
  if (changes !== null) ctx.readCache?.invalidate(changes);
  wakeAfterCommit(ctx, upkeep);
}

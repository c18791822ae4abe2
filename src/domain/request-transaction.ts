// One transaction for a whole request, when the request asks for it: a write that carries an
// Idempotency-Key (shared decisions §11) must commit its answer's record with the write itself, so that a
// commit whose answer was lost is answered again rather than done again. The request opens a scope; the
// first transact() in it begins the transaction and every later one joins it (and every query made
// through the domain context in between runs in it: context.ts), and nothing is committed until the
// request's answer is known: then its record is written and the transaction commits, or, for a refusal
// or a failure, rolls back. The writes its domain writes asked to come last (an event's attempts, which
// lock their endpoints' queues: context.ts, writeLast) come after that record, just before the commit.
// What a commit sets off (waking the worker, dropping cached answers, a vacuum) waits for that commit.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

export class RequestTransaction {
  private transaction: ControlledTransaction<Database> | null = null;
  private opening: Promise<ControlledTransaction<Database>> | null = null;
  private readonly afterCommit: (() => unknown)[] = [];
  private readonly lastWrites: ((commitsAfter: boolean) => Promise<void>)[] = [];

  constructor(private readonly db: Kysely<Database>) {}

  /** The transaction while it is open; null before the first write and after it has ended. */
  get open(): Transaction<Database> | null {
    return this.transaction;
  }

  /** The transaction, begun at the first call. */
  async join(): Promise<Transaction<Database>> {
    if (this.transaction) return this.transaction;
    this.opening ??= this.db.startTransaction().execute();
    this.transaction = await this.opening;
    return this.transaction;
  }

  /**
   * Runs `write` just before the commit, after the request's own last record, in the order asked; the
   * final one is told that the transaction commits right after it (context.ts, executeLast).
   */
  beforeCommit(write: (commitsAfter: boolean) => Promise<void>): void {
    this.lastWrites.push(write);
  }

  /** Runs `action` once the transaction has committed; dropped if it rolls back. */
  onCommit(action: () => unknown): void {
    this.afterCommit.push(action);
  }

  /**
   * Writes `last` in the transaction (begun if nothing else began it), then the writes asked to come
   * before the commit, and commits; then what waited for the commit.
   */
  async commit(last: (trx: Transaction<Database>) => Promise<unknown>): Promise<void> {
    const trx = (await this.join()) as ControlledTransaction<Database>;
    try {
      await last(trx);
      const writes = this.lastWrites.splice(0);
      for (const [n, write] of writes.entries()) await write(n === writes.length - 1);
      await trx.commit().execute();
    } catch (error) {
      // A failed commit keeps the connection until it is rolled back (Kysely releases it then).
      await trx.rollback().execute().catch(() => undefined);
      throw error;
    } finally {
      this.transaction = null;
    }
    // Outside the request's scope: nothing they set off joins a transaction that is over.
    await scopes.exit(async () => {
      for (const action of this.afterCommit.splice(0)) await action();
    });
  }

  /** Undoes everything the request wrote. */
  async rollback(): Promise<void> {
    const trx = this.transaction ?? (this.opening ? await this.opening.catch(() => null) : null);
    this.transaction = null;
    this.afterCommit.length = 0;
    this.lastWrites.length = 0;
    await trx?.rollback().execute();
  }
}

const scopes = new AsyncLocalStorage<RequestTransaction>();

/** Runs `work` (and everything it sets off) in the request's transaction scope. */
export function inRequestTransaction<T>(scope: RequestTransaction, work: () => T): T {
  return scopes.run(scope, work);
}

/**
 * Runs `work`, whose domain writes each open their own transaction, as one write: every transact() in it
 * joins one transaction, committed when `work` is done and rolled back if it fails. Inside a request
 * that keeps one transaction already, `work` simply joins it.
 */
export async function asOneWrite<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  if (currentRequestTransaction()) return work();
  const scope = new RequestTransaction(db);
  let value: T;
  try {
    value = await inRequestTransaction(scope, work);
  } catch (error) {
    await scope.rollback();
    throw error;
  }
  await scope.commit(async () => undefined);
  return value;
}

/** The scope of the request running now, if it asked for one. */
export function currentRequestTransaction(): RequestTransaction | undefined {
  return scopes.getStore();
}

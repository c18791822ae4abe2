// Kysely's SQLite dialect with its one connection handed out first come, first served, and a wait for
// another process's write lock that never blocks the event loop.
//
// First come, first served: Kysely guards the connection with a lock that wakes every waiter at each
// release and lets a newcomer take it before them: under 64 concurrent requests each release woke dozens
// of waiters to no purpose, and a request could wait behind a stream of later ones (the p99 latency was
// 20 times the median, on the bare SQL ceiling as on the service). Here waiters queue and each release
// hands the connection to the next.
//
// The wait for the lock: better-sqlite3 is synchronous, so SQLite's own busy_timeout waits on the
// service's only thread. While another process (`npm run load`, a backup's last step, a second service
// started by mistake) held the write lock 12 s, /healthz took 4.8 s and a read 9.6 s (issue 41). So the
// connection's busy_timeout is 0: a statement that finds the lock taken fails at once with SQLITE_BUSY,
// and is tried again after a pause in which the connection serves the others (reads need no lock in WAL
// mode), until the wait has lasted `writeLockWait.ms` (5 s, what busy_timeout was); then the BUSY is
// thrown, and answered 503 like any store that cannot serve (store-faults.ts).
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SqliteDialect, type SqliteDialectConfig, type TransactionSettings } from 'kysely';

/** How long a statement may wait for another process's write lock; a test may shorten it. */
export interface WriteLockWait {
  ms: number;
}

/** The pauses between two tries grow from the first to the last: a short hold costs little, a long one few tries. */
const PAUSE_MS = { first: 2, most: 50 };

const isBusy = (error: unknown) => typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

class FirstComeDriver implements Driver {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  /** Whether a transaction is open on the connection: inside one, the write lock is already held. */
  private inTransaction = false;

  constructor(
    private readonly inner: Driver,
    private readonly lockWait: WriteLockWait,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  /** The connection as the service sees it: statements on their own wait for the lock (whileBusy). */
  private connection: DatabaseConnection | null = null;

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.take();
    const inner = await this.inner.acquireConnection();
    this.connection ??= {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
        // A statement on its own may need the lock (a write) or, rarely, meet a busy log (a read).
        this.inTransaction ? inner.executeQuery<R>(query) : this.whileBusy(inner, () => inner.executeQuery<R>(query)),
      streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
    };
    return this.connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection(connection);
    this.handOn();
  }

  /** The connection to this caller once those before it are done. */
  private async take(): Promise<void> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held = true;
  }

  private handOn(): void {
    const next = this.waiting.shift();
    if (next) next(); // still held: the next waiter owns it now
    else this.held = false;
  }

  /**
   * Runs `statement` until it does not find the write lock taken by another process, or until the wait
   * is over. Between two tries the connection goes to whoever waits for it, and comes back in turn.
   */
  private async whileBusy<T>(connection: DatabaseConnection, statement: () => Promise<T>): Promise<T> {
    const deadline = performance.now() + this.lockWait.ms;
    for (let pause = PAUSE_MS.first; ; pause = Math.min(pause * 2, PAUSE_MS.most)) {
      try {
        return await statement();
      } catch (error) {
        if (!isBusy(error) || performance.now() + pause > deadline) throw error;
      }
      await this.inner.releaseConnection(connection);
      this.handOn();
      await new Promise((resolve) => setTimeout(resolve, pause));
      await this.take();
      await this.inner.acquireConnection();
    }
  }

  /**
   * Every transaction of the service writes, so it takes the write lock when it begins (IMMEDIATE): one
   * that began by reading and only then wrote could not wait for another process's write lock (SQLite
   * refuses the upgrade at once, whatever busy_timeout says), and answered 503 while `npm run load`, say,
   * held the lock for a moment. Within the process the one connection is handed out in turn anyway.
   */
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    this.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // Still inside the transaction until the commit is done: a failed commit is never tried again with
    // the connection lent out meanwhile (Kysely rolls back after it).
    await this.inner.commitTransaction(connection);
    this.inTransaction = false;
  }

  /**
   * SQLite rolls a transaction back by itself when a statement fails on a full disk, an I/O error or
   * memory: the ROLLBACK that follows then fails with "no transaction is active", which would hide the
   * failure that caused it (answered 503) behind one that looks like a defect (500).
   */
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(connection);
    } catch (error) {
      if (!(error instanceof Error && /no transaction is active/.test(error.message))) throw error;
    } finally {
      this.inTransaction = false;
    }
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export class FairSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly lockWait: WriteLockWait,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new FirstComeDriver(super.createDriver(), this.lockWait);
  }
}

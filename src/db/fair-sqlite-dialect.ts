// Kysely's SQLite dialect with its one connection handed out first come, first served. Kysely guards the
// connection with a lock that wakes every waiter at each release and lets a newcomer take it before
// them: under 64 concurrent requests each release woke dozens of waiters to no purpose, and a request
// could wait behind a stream of later ones (the p99 latency was 20 times the median, on the bare SQL
// ceiling as on the service). Here waiters queue and each release hands the connection to the next.
import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect, type TransactionSettings } from 'kysely';

class FirstComeDriver implements Driver {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held = true;
    return this.inner.acquireConnection();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection(connection);
    const next = this.waiting.shift();
    if (next) next(); // still held: the next waiter owns it now
    else this.held = false;
  }

  /**
   * Every transaction of the service writes, so it takes the write lock when it begins (IMMEDIATE): one
   * that began by reading and only then wrote could not wait for another process's write lock (SQLite
   * refuses the upgrade at once, whatever busy_timeout says), and answered 503 while `npm run load`, say,
   * held the lock for a moment. Within the process the one connection is handed out in turn anyway.
   */
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
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
    }
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export class FairSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new FirstComeDriver(super.createDriver());
  }
}

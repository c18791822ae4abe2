// Which failures mean "the store cannot serve now" rather than "the code is wrong" (decisions §10): the
// database down, refusing connections or restarting, the disk full, the store read-only, or busy past
// its time-out. Those are answered 503 with Retry-After and heal by themselves; anything else that
// fails is a defect (500). One list for both stores, read by the HTTP problem handler, the readiness
// probe and the MCP tools.

/** SQLite result codes (better-sqlite3's `code`, extended codes included by prefix). */
const SQLITE_UNAVAILABLE = [
  'SQLITE_FULL', // the disk (or max_page_count) is full
  'SQLITE_READONLY', // a read-only file, directory or file system
  'SQLITE_BUSY', // another process held the write lock past busy_timeout
  'SQLITE_LOCKED',
  'SQLITE_IOERR', // the file system failed a read or write (a disk gone, a full disk seen as EIO)
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_NOMEM',
];

/** SQLSTATE classes and codes of PostgreSQL that say the server cannot serve now. */
const POSTGRES_UNAVAILABLE_CLASSES = [
  '08', // connection exception
  '53', // insufficient resources: disk full, out of memory, too many connections
  '57P', // operator intervention: shutting down, crashed, starting up ("cannot connect now")
  '58', // system error: I/O error
];
const POSTGRES_UNAVAILABLE_CODES = new Set([
  '25006', // read_only_sql_transaction: a standby, or default_transaction_read_only
  '55P03', // lock_not_available: lock_timeout passed
  '57014', // query_canceled: statement_timeout passed
]);
/** 55000 (object not in prerequisite state) means many things; at connect time, a database closed to connections. */
const NOT_ACCEPTING_CONNECTIONS = /is not currently accepting connections/;

/** Errors of Node's sockets that say the database cannot be reached. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** What node-postgres (pg, pg-pool) says when a connection is lost or cannot be had in time. */
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Query read timeout$/,
];

/** True when `error` (or the error it wraps) says the store cannot serve now. */
export function isStoreUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code.startsWith('SQLITE_')) return SQLITE_UNAVAILABLE.some((unavailable) => code === unavailable || code.startsWith(`${unavailable}_`));
      if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE_CODES.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code)) {
        if (POSTGRES_UNAVAILABLE_CLASSES.some((prefix) => code.startsWith(prefix))) return true;
        if (code === '55000' && NOT_ACCEPTING_CONNECTIONS.test(current.message)) return true;
      }
    }
    if (PG_CONNECTION_MESSAGES.some((message) => message.test(current.message))) return true;
  }
  return false;
}

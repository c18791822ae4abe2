// A transaction's last statement and its COMMIT in one message to PostgreSQL. The rows a write locks
// last (the delivery queues its event's attempts go to) stay locked until the COMMIT arrives; sent on
// its own, the COMMIT leaves only when the process's event loop comes back to it, so on a busy machine
// every other write for the same endpoints waits for that loop too, and they queue behind one another
// (measured: writes of one team 1.6–2.1 s behind each other's locks on the bad day, the API's pool
// exhausted, 503). Sent together, PostgreSQL commits as soon as the statement ends.
//
// Several statements in one message need the simple query protocol, which carries no parameters: the
// statement's parameters are written into its text as quoted literals. A quoted literal has no type of
// its own, as a parameter sent without one has none, so PostgreSQL reads each exactly as it would have
// read the parameter. The pool's wrapper (prepared-statements.ts) then answers Kysely's own COMMIT that
// follows without sending it, and refuses any other statement on the connection until it is released.
// Only for statements that carry no credential: PostgreSQL logs the text of a statement that fails, never
// its parameters. And only for statements built with Kysely, whose text holds `$n` nowhere but in its
// placeholders.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import { isPostgres } from './sql-functions.js';

/** How a statement sent by commitWith ends; the pool's wrapper knows the transaction committed by it. */
export const COMMIT_SUFFIX = ';\ncommit';

/**
 * Runs `query` as the last statement of the transaction `trx` and commits it with that statement, in
 * one message on PostgreSQL; on SQLite it only runs the statement (one writer at a time, nothing waits
 * on its locks), and the transaction commits as usual. Answers the statement's rows. Nothing may run in
 * `trx` afterwards.
 */
export async function commitWith<R>(trx: Kysely<any>, query: RawBuilder<R>): Promise<R[]> {
  if (!isPostgres(trx)) return (await query.execute(trx)).rows;
  const compiled = query.compile(trx);
  const text = compiled.sql.replace(/\$(\d+)/g, (_, n: string) => literal(compiled.parameters[Number(n) - 1]));
  return (await sql.raw<R>(`${text}${COMMIT_SUFFIX}`).execute(trx)).rows;
}

/** A parameter as PostgreSQL's text of it, quoted: what the extended protocol would have sent. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `'${String(value)}'`;
  // Dates, buffers and objects each have a text form of their own in pg; no statement sent this way uses them.
  throw new TypeError(`commitWith cannot write a parameter of type ${typeof value} into a statement`);
}

// PostgreSQL parses and plans an unnamed statement every time it runs. The service runs the same few
// hundred statements over and over, so each is sent as a named prepared statement: parsed once per
// connection, then only bound and executed. The first 500 distinct texts are named (statements with IN
// lists vary with the list's length, so texts are not bounded in number); later ones run unnamed, so a
// connection never holds more than 500 prepared statements. Only plain queries are named: a DDL
// statement of a migration runs as it always did.
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { COMMIT_SUFFIX } from './commit-with.js';

const NAMED_UP_TO = 500;
const PLAIN_QUERY = /^\s*(select|insert|update|delete|with)\b/i;

export function preparingPool(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < NAMED_UP_TO && PLAIN_QUERY.test(text)) {
      name = `s${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  // One wrapper per pooled connection, so that Kysely sees the same client each time it is handed out.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        // A connection lost while it is handed out (a restarting server, ended sessions) emits 'error' on
        // its client, which nothing else hears while the client is out of the pool: unheard, it would end
        // the process. The query running on it fails with the same error (answered 503), and the pool
        // drops the client when it comes back.
        client.on('error', () => undefined);
        // Whether the transaction on this connection committed with its last statement (commit-with.ts).
        let committed = false;
        wrapper = {
          // Kysely calls query(sql, parameters); it passes a cursor only for streaming, which the service never does.
          query: (async (text: string, values: unknown[]) => {
            if (committed) {
              // Kysely's own COMMIT (or a ROLLBACK after a failure on our side) ends a transaction that is over.
              if (/^(commit|rollback)$/i.test(text)) return { command: 'COMMIT', rowCount: null, rows: [] };
              throw new Error('A statement was sent after its transaction committed with its last statement');
            }
            if (values.length === 0 && text.endsWith(COMMIT_SUFFIX)) {
              // Several results, one per statement: the caller's is the first.
              const results = (await client.query(text)) as unknown as pg.QueryResult[];
              committed = true;
              return results[0];
            }
            const name = nameOf(text);
            return name === undefined ? client.query(text, values) : client.query({ name, text, values });
          }) as unknown as PostgresPoolClient['query'],
          release: () => {
            committed = false;
            client.release();
          },
        };
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

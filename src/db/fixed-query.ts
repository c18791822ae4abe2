// A statement whose text never changes, built with Kysely's builder once per store and afterwards only
// given its values. Building and compiling a query costs more than running a short one on SQLite: the
// Idempotency-Key look-up took 50 µs built at each call and 8–19 µs built once, the insert of the kept
// answer 90 µs less (bench/CHANGES.md, "Issue 42, second session"). For statements on a hot path
// whose shape does not depend on their values.
//
// The statement runs as compiled: plugins do not see it, the read cache's write recorder among them
// (read-dependencies.ts), so a fixed statement must not write a table that a read-only answer is made of.
import { type Compilable, createQueryId, type Kysely, type QueryResult, type RootOperationNode } from 'kysely';
import type { Database } from './schema.js';
import { isPostgres } from './sql-functions.js';

/** Stands in the built statement for the value of that name. */
class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string;
  query: RootOperationNode;
  /** Each parameter of the text: a slot's name, or a constant of the builder's. */
  parameters: readonly unknown[];
}

/**
 * `build` is given `values` whose members stand for the values of each run (typed `never`, so that the
 * builder takes them wherever a value goes); they may appear in any order and more than once.
 */
export class FixedQuery<V extends Record<string, unknown>, R> {
  /** The compiled statement of each store (keyed by whether it is PostgreSQL's). */
  private readonly compiled = new Map<boolean, Compiled>();

  constructor(private readonly build: (db: Kysely<Database>, values: { readonly [K in keyof V]: never }) => Compilable<R>) {}

  /** Runs the statement on `db` (the store or a transaction) with `values`. */
  async run(db: Kysely<Database>, values: V): Promise<QueryResult<R>> {
    const { sql, query, parameters } = this.compiledFor(db);
    return db.executeQuery<R>({ sql, query, queryId: createQueryId(), parameters: parameters.map((p) => (p instanceof Slot ? values[p.name] : p)) });
  }

  private compiledFor(db: Kysely<Database>): Compiled {
    const postgres = isPostgres(db);
    let compiled = this.compiled.get(postgres);
    if (!compiled) {
      const slots = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as { readonly [K in keyof V]: never };
      const { sql, query, parameters } = this.build(db, slots).compile();
      compiled = { sql, query, parameters };
      this.compiled.set(postgres, compiled);
    }
    return compiled;
  }
}

// What a store makes of the statements code sends: the statements themselves, caught as a Kysely plugin
// while some work runs, and each one's plan (EXPLAIN on PostgreSQL, EXPLAIN QUERY PLAN on SQLite), for
// tests that pin plans.
import { CompiledQuery, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { isPostgres } from '../../src/db/sql-functions.js';

/** Runs `work` with the database it is given, and answers the statements it sent, compiled, in order. */
export async function statementsSent(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<void>): Promise<CompiledQuery[]> {
  const sent: RootOperationNode[] = [];
  const capture: KyselyPlugin = { transformQuery: ({ node }) => (sent.push(node), node), transformResult: async ({ result }) => result };
  await work(db.withPlugin(capture));
  return sent.map((node) => db.getExecutor().compileQuery(node, { queryId: 'planned' }));
}

/** The store's plan for `query`, a line per row. */
export async function planOf(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const explain = isPostgres(db) ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
  const plan = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]));
  return plan.rows.map((row) => row['QUERY PLAN'] ?? row.detail).join('\n');
}

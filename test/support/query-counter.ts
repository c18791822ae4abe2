// Counts the queries a store is asked that match a test's predicate, and the rows they answered, as a
// Kysely plugin: wrap a context's store with `db.withPlugin(counter)` and read `counter.count` and
// `counter.rows`.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryId, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

export class QueryCounter implements KyselyPlugin {
  count = 0;
  rows = 0;
  private readonly matched = new WeakSet<QueryId>();

  constructor(private readonly matches: (node: RootOperationNode) => boolean) {}

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.matches(node)) {
      this.count++;
      this.matched.add(queryId);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.matched.has(queryId)) this.rows += result.rows.length;
    return result;
  }
}

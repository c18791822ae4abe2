// Counts the queries a store is asked that match a test's predicate, as a Kysely plugin: wrap a
// context's store with `db.withPlugin(counter)` and read `counter.count`.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

export class QueryCounter implements KyselyPlugin {
  count = 0;

  constructor(private readonly matches: (node: RootOperationNode) => boolean) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (this.matches(node)) this.count++;
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

// A Kysely plugin that reports every executed INSERT, UPDATE or DELETE on the tables the read-only API
// answers from, so that cached answers are dropped the moment the data under them changes. It sees
// statements, not commits: on the embedded store, where it is used, a transaction holds the one
// connection until it ends, so no read of this process runs between the statement and the commit.
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  DeleteQueryNode,
  InsertQueryNode,
  TableNode,
  UpdateQueryNode,
} from 'kysely';

/** Tables whose rows appear in, or decide, answers of the read-only API. */
const READ_TABLES = new Set(['organizations', 'teams', 'users', 'memberships', 'guides', 'api_keys']);

/** Columns whose change alone leaves every answer as it was (a key's last use is not shown in v1). */
const UNSHOWN_COLUMNS: Record<string, ReadonlySet<string>> = { api_keys: new Set(['last_used_at']) };

function tableName(node: unknown): string | null {
  if (!node || typeof node !== 'object') return null;
  if (TableNode.is(node as never)) return (node as TableNode).table.identifier.name;
  const inner = (node as { froms?: unknown[]; table?: unknown; node?: unknown }).node;
  return inner ? tableName(inner) : null;
}

function writtenTable(node: RootOperationNode): string | null {
  if (InsertQueryNode.is(node)) return tableName(node.into);
  if (DeleteQueryNode.is(node)) return tableName(node.from.froms[0]);
  if (UpdateQueryNode.is(node)) {
    const table = tableName(node.table);
    const unshown = table ? UNSHOWN_COLUMNS[table] : undefined;
    const columns = (node.updates ?? []).map((update) => (update.column as { column?: { name?: string } }).column?.name ?? '');
    if (unshown && columns.length > 0 && columns.every((column) => unshown.has(column))) return null;
    return table;
  }
  return null;
}

export class WriteWatch implements KyselyPlugin {
  private readonly writes = new WeakMap<object, true>();

  constructor(private readonly onWrite: () => void) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const table = writtenTable(args.node);
    if (table && READ_TABLES.has(table)) this.writes.set(args.queryId, true);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.writes.has(args.queryId)) this.onWrite();
    return args.result;
  }
}

// Kysely plugins that see which tables statements read and write, so that cached answers can be dropped
// exactly when the data under them changes. The store knows tables; what a change means for answers
// (which rows, which tags) is the domain's (src/domain/read-dependencies.ts).
//
// - ChangeWatch sits on the service's one Kysely instance and is the safety net: a write to a watched
//   table that no WriteRecorder saw (a write outside a declared change) is reported after it ran, and the
//   caller drops everything cached.
// - WriteRecorder is added for one transaction: it notes the watched tables its statements write.
// - ReadRecorder is added for one cached computation: it notes every table its statements read.
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  DeleteQueryNode,
  InsertQueryNode,
  UpdateQueryNode,
} from 'kysely';

/**
 * Every table a statement names, wherever in it (joins, subqueries, unions, raw fragments' parameters).
 * A column written `g.id` names its table by alias, so the statement's aliases are left out.
 */
export function tablesIn(node: unknown, into = new Set<string>()): Set<string> {
  const names = new Set<string>();
  const aliases = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const kind = (value as { kind?: unknown }).kind;
    if (kind === 'TableNode') {
      names.add((value as { table: { identifier: { name: string } } }).table.identifier.name);
      return;
    }
    if (kind === 'AliasNode') {
      const alias = (value as { alias: { kind: string; name?: string } }).alias;
      if (alias.kind === 'IdentifierNode' && alias.name) aliases.add(alias.name);
    }
    for (const inner of Object.values(value)) if (inner !== null && typeof inner === 'object') walk(inner);
  };
  walk(node);
  for (const name of names) if (!aliases.has(name)) into.add(name);
  return into;
}

/** The table an INSERT, UPDATE or DELETE writes, or null for any other statement. */
export function writtenTable(node: RootOperationNode): string | null {
  if (InsertQueryNode.is(node)) return first(tablesIn(node.into));
  if (UpdateQueryNode.is(node)) return first(tablesIn(node.table));
  if (DeleteQueryNode.is(node)) return first(tablesIn(node.from.froms[0]));
  return null;
}

function first(tables: Set<string>): string | null {
  return tables.values().next().value ?? null;
}

/** Statements a WriteRecorder accounted for; ChangeWatch leaves them to it. */
const recorded = new WeakSet<object>();

export class ChangeWatch implements KyselyPlugin {
  private readonly unrecorded = new WeakMap<object, string>();

  constructor(
    private readonly watched: ReadonlySet<string>,
    private readonly onUnrecordedWrite: (table: string) => void,
  ) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const table = writtenTable(args.node);
    if (table !== null && this.watched.has(table)) this.unrecorded.set(args.queryId, table);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    // Plugins transform queries in the order they were added, so a WriteRecorder (always added later)
    // has marked its statements by the time any result comes back.
    const table = this.unrecorded.get(args.queryId);
    if (table !== undefined && !recorded.has(args.queryId)) this.onUnrecordedWrite(table);
    return args.result;
  }
}

export class WriteRecorder implements KyselyPlugin {
  readonly written = new Set<string>();

  constructor(private readonly watched: ReadonlySet<string>) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const table = writtenTable(args.node);
    if (table !== null && this.watched.has(table)) {
      this.written.add(table);
      recorded.add(args.queryId);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

export class ReadRecorder implements KyselyPlugin {
  readonly read = new Set<string>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    tablesIn(args.node, this.read);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

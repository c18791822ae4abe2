// The MCP tools (shared decisions §9, docs/decisions.md "MCP"): read-only, for AI assistants, answering
// what the v1 reads answer (src/http/v1/read-answers.ts, which the v1 routes call too) for the key the
// request was admitted with, except that search_guides searches by words (domain/guides/word-search.ts);
// ids in the arguments are lowercased at the edge, as v1's are. A key is shown only the tools its scopes
// allow. A call is checked in v1's order (decisions §4) after the HTTP admission: the tool's scope, its
// arguments, then what they name; a refusal is a tool error whose text is the problem body v1 would answer.
// Every answer is structured content under the tool's output schema (v1's resource schemas), with the same
// as a text block for clients before structured output. Tool inputs are TypeBox (JSON) schemas, as v1's
// parameters are: listed as they are and checked by Ajv, compiled once, so a request costs no schema
// conversion.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { type Static, type TObject, Type } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyBaseLogger, FastifyError } from 'fastify';
import type { ApiKey, Scope } from '../../domain/api-keys.js';
import { isStoreUnavailable } from '../../db/store-faults.js';
import type { DomainContext } from '../../domain/context.js';
import { toProblem } from '../problem-handler.js';
import { ProblemError, problemBody } from '../problem.js';
import { ACCEPTS, Cursor, Uuid } from '../schemas/common.js';
import { requireScope } from '../v1/key-auth.js';
import { guideForKey, guideList, guideSearch, memberList, teamList } from '../v1/read-answers.js';
import { Guide, GuideListItem, GuidePage, Member, Team, TeamRole } from '../v1/schemas.js';

/** What a tool call runs with: the admitted key, and what its answers and refusals carry. */
export interface ToolContext {
  ctx: DomainContext;
  key: ApiKey;
  publicUrl: string;
  requestId: string;
  log: FastifyBaseLogger;
  /** A tool found the store unavailable: the whole request is answered 503 with Retry-After, as v1 would be. */
  onStoreFault(error: Error): void;
}

/** Search results an assistant gets when it does not ask for a number: fewer than v1's 50, to spare its context. */
const DEFAULT_SEARCH_LIMIT = 20;

const INSTRUCTIONS =
  'Guides are step-by-step how-to documents of the teams this API key reaches. To answer how to do something, ' +
  'call search_guides with words from the likely title, then get_guide with the id of the best match and follow ' +
  'its steps. list_teams and list_members tell which teams there are and who is in them. Everything is read-only. ' +
  'On plans without full guides, a guide is a preview whose last paragraph says why it stops there.';

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const SearchInput = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 200,
        pattern: '^[^\\u0000-\\u001f\\u007f]*$',
        [ACCEPTS]: 'text without control characters',
        description:
          'Words or a question (2 to 200 characters): guides whose titles contain any of its words, in any order, ignoring case and accents, most matching words first; leave out to list every guide',
      }),
    ),
    team_id: Type.Optional(Uuid({ description: 'Only this team (an id from list_teams); leave out for every team the key reaches' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: `How many guides to answer (1 to 100, default ${DEFAULT_SEARCH_LIMIT})` })),
    cursor: Type.Optional(Cursor({ description: 'The next_cursor of the previous answer, with the same query and team_id' })),
  },
  { additionalProperties: false },
);
const GuideInput = Type.Object(
  { guide_id: Type.String({ minLength: 1, maxLength: 4096, description: "The guide's id (from search_guides) or its permalink" }) },
  { additionalProperties: false },
);
const NoInput = Type.Object({}, { additionalProperties: false });
const TeamInput = Type.Object({ team_id: Uuid({ description: 'The team (an id from list_teams)' }) }, { additionalProperties: false });

// v1's list answers with their items inline (v1's documents name them by reference).
const GuidesAnswer = Type.Object({ data: Type.Array(GuideListItem), next_cursor: GuidePage.properties.next_cursor }, { additionalProperties: false });
const TeamsAnswer = Type.Object({ data: Type.Array(Team) }, { additionalProperties: false });
const MembersAnswer = Type.Object({ data: Type.Array(Member) }, { additionalProperties: false });

interface ToolDefinition<S extends TObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** What structuredContent holds: a v1 resource, or a v1 list answer. */
  output: TObject;
  scope: Scope;
  run: (tool: ToolContext, args: Static<S>) => Promise<CallToolResult>;
}

/** A tool's answer: the structured value, and as text the same JSON (or `text`: the guide's markdown). */
const answer = (value: object, text: string = JSON.stringify(value)): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: value as Record<string, unknown>,
});

const define = <S extends TObject>(definition: ToolDefinition<S>) => definition as unknown as ToolDefinition<TObject>;

const TOOLS = [
  define({
    name: 'search_guides',
    title: 'Search guides',
    description:
      'Find step-by-step guides (how-to documents) by the words of their title, in every team this key reaches or in one ' +
      'team. `query` may be words or a question ("how do I reset a password" finds "Reset a customer password"): its ' +
      'words are matched in any order, ignoring case and accents, each also as part of a longer word; common words ' +
      '(how, do, I, a, the…) are left out. Guides whose titles contain more of the words come first, then the newest. ' +
      'Without `query` it lists every guide, newest first. Each result has the id to pass to get_guide, the title, ' +
      "description, team, publish status (DRAFT or PUBLISHED) and `locked` (past the plan's guide limit: get_guide shows " +
      'only its start). When `next_cursor` is not null, pass it as `cursor` for more. Needs the guides:read scope.',
    input: SearchInput,
    output: GuidesAnswer,
    scope: 'guides:read',
    run: async ({ ctx, key }, args) => {
      const limit = args.limit ?? DEFAULT_SEARCH_LIMIT;
      if (args.query === undefined) return answer(await guideList(ctx, ctx, key, { teamId: args.team_id, q: undefined, limit, cursor: args.cursor }, 'query'));
      return answer(await guideSearch(ctx, key, { teamId: args.team_id, query: args.query, limit, cursor: args.cursor }));
    },
  }),
  define({
    name: 'get_guide',
    title: 'Read a guide',
    description:
      'Read one guide as markdown: its title, description and numbered steps, with screenshots as image links. On plans ' +
      'without full guides, and for a locked guide, only its first steps, closed by a notice that says why. Needs the ' +
      'guides:read scope. The structured answer has the whole guide as GET /v1/guides/{id} answers it.',
    input: GuideInput,
    output: Guide,
    scope: 'guides:read',
    run: async ({ ctx, key }, args) => {
      const guide = await guideForKey(ctx, ctx, key, args.guide_id);
      return answer(guide, guide.markdown_body);
    },
  }),
  define({
    name: 'list_teams',
    title: 'List teams',
    description:
      'The teams this key reaches (its own team, or every team of its organization) with their ids and names, ordered by ' +
      'name. Pass an id as team_id to search_guides or list_members. Needs the teams:read scope.',
    input: NoInput,
    output: TeamsAnswer,
    scope: 'teams:read',
    run: async ({ ctx, key }) => answer(await teamList(ctx, key)),
  }),
  define({
    name: 'list_members',
    title: 'List team members',
    description:
      'The people of one team: name, e-mail, role (ADMIN, EDITOR or VIEWER) and when they joined, in the order they joined. ' +
      'Needs the members:read scope.',
    input: TeamInput,
    output: MembersAnswer,
    scope: 'members:read',
    run: async ({ ctx, key }, args) => answer(await memberList(ctx, key, args.team_id)),
  }),
];

// Arguments are JSON and taken as they are ("5" is not a number), as management API bodies are.
const ajv = new Ajv({ allErrors: false, verbose: true, strict: false, keywords: [ACCEPTS] });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
const validators = new Map<string, ValidateFunction>(TOOLS.map((tool) => [tool.name, ajv.compile(tool.input)]));
const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** v1's shared schemas that its resources refer to by `$id`; a tool's schema has them in place. */
const REFERRED: Record<string, unknown> = { [TeamRole.$id!]: TeamRole };

/**
 * A TypeBox schema as plain JSON Schema: without TypeBox's symbols, the refusals' wording (ACCEPTS), which
 * is ours, and the ids that name v1's resources in its OpenAPI document (a client compiling every tool's
 * schema in one validator would find an id twice), with what they refer to in place.
 */
function plainSchema(schema: TObject): Record<string, unknown> {
  const inPlace = (value: unknown) => {
    const referred = (value as { $ref?: unknown } | null)?.$ref;
    if (typeof referred !== 'string' || !(referred in REFERRED)) return value;
    const { $ref: _ref, ...besides } = value as Record<string, unknown>;
    return { ...(REFERRED[referred] as object), ...besides };
  };
  return JSON.parse(JSON.stringify(schema, (name, value: unknown) => (name === ACCEPTS || name === '$id' ? undefined : inPlace(value)))) as Record<string, unknown>;
}

/** Each tool as tools/list shows it, with the scope that lets a key see it; made once. */
const LISTED = TOOLS.map((tool) => ({
  scope: tool.scope,
  tool: {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: plainSchema(tool.input) as Tool['inputSchema'],
    outputSchema: plainSchema(tool.output) as Tool['outputSchema'],
    annotations: { title: tool.title, ...READ_ONLY },
  } satisfies Tool,
}));

/** The tools a key may call: those of its scopes (a tool it could only be refused is not offered). */
function toolsFor(key: ApiKey): Tool[] {
  return LISTED.filter((listed) => key.scopes.includes(listed.scope)).map((listed) => listed.tool);
}

/** An argument outside its schema, in the words v1 uses for a parameter ("Parameter 'limit' must be <= 100"). */
function invalidArguments(errors: ErrorObject[]): ProblemError {
  const failure = Object.assign(new Error('invalid arguments'), { validation: errors, validationContext: 'querystring' }) as unknown as FastifyError;
  return toProblem(failure) ?? new ProblemError('invalid_request', 'The arguments are invalid');
}

async function callTool(tool: ToolContext, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const definition = byName.get(name);
  if (!definition) throw new McpError(ErrorCode.InvalidParams, `There is no tool named ${JSON.stringify(name)}; tools/list names them`);
  try {
    requireScope(tool.key, definition.scope, 'tool');
    const input = args ?? {};
    const validate = validators.get(name)!;
    if (!validate(input)) throw invalidArguments(validate.errors ?? []);
    return await definition.run(tool, input as Static<TObject>);
  } catch (error) {
    let problem: ProblemError;
    if (error instanceof ProblemError) problem = error;
    else if (isStoreUnavailable(error)) {
      tool.onStoreFault(error as Error);
      throw error;
    } else {
      tool.log.error({ err: error, tool: name }, 'an MCP tool failed with a server fault');
      problem = new ProblemError('internal_error', 'The service failed to answer this tool call; quote request_id to support');
    }
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(problemBody(tool.publicUrl, problem, tool.requestId)) }] };
  }
}

/** One MCP server for one request (stateless: nothing is kept between requests), its tools run for `tool.key`. */
export function mcpServer(tool: ToolContext, version: string): Server {
  const server = new Server({ name: 'guide-service', title: 'Guides', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsFor(tool.key) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(tool, request.params.name, request.params.arguments));
  return server;
}

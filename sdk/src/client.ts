// The v1 client: every operation of the OpenAPI document, typed in and out by the generated types.
//   const client = new GuideService({ apiKey: process.env.GUIDE_API_KEY!, baseUrl: 'https://guides.example.com' });
//   for await (const guide of client.guides.list({ q: 'password' })) console.log(guide.title);
import type { components, operations } from './generated/v1.js';
import { Paginated } from './pagination.js';
import { type Query, Requester, type RequestOptions } from './requester.js';
import type { RateLimitState } from './errors.js';

/** The v1 operations (the others in the document describe the webhooks the service sends). */
type Operation = Exclude<keyof operations, `on_${string}`>;
type Ok<Op extends Operation> = operations[Op]['responses'] extends { 200: { content: { 'application/json': infer Body } } } ? Body : never;
type Params<Op extends Operation> = NonNullable<operations[Op]['parameters']['query']>;

export type Key = components['schemas']['Key'];
export type Guide = components['schemas']['Guide'];
export type GuideListItem = components['schemas']['GuideListItem'];
export type Team = components['schemas']['Team'];
export type Member = components['schemas']['Member'];
/** An event of the feed: the very envelope its webhook deliveries carry. */
export type FeedEvent = components['schemas']['Event'];
export type EventType = FeedEvent['type'];

export type GuideListParams = Params<'listGuides'>;
export type MemberListParams = Params<'listMembers'>;
/** `types` as a list (sent comma-separated); `after` starts after an earlier page's next_cursor. */
export type EventListParams = Omit<Params<'listEvents'>, 'types' | 'wait'> & { types?: readonly EventType[] };

export interface GuideServiceOptions {
  /** The API key's secret (gsk_…). */
  apiKey: string;
  /** The service's public URL (its PUBLIC_URL), without /v1. */
  baseUrl: string;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt of a call (429, 503, network failures, time-outs); default 3. */
  maxRetries?: number;
  /** The longest wait before a retry; default 60 s. A Retry-After beyond it ends the call at once. */
  maxRetryDelayMs?: number;
  /** Instead of the global fetch. */
  fetch?: typeof fetch;
}

/** How long `events.tail()` asks the service to hold an empty page open (the most it allows). */
const TAIL_WAIT_SECONDS = 30;

export class GuideService {
  private readonly requester: Requester;
  private readonly timeoutMs: number;

  constructor(options: GuideServiceOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.requester = new Requester({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: this.timeoutMs,
      maxRetries: options.maxRetries ?? 3,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
      fetch: options.fetch ?? globalThis.fetch,
      random: Math.random,
    });
  }

  /** The rate limit as the last answer stated it; null before the first. */
  get rateLimit(): RateLimitState | null {
    return this.requester.rateLimit;
  }

  /** What the key is: its name, scopes and the team or organization it belongs to (GET /v1/auth/verify). */
  async verifyKey(options?: RequestOptions): Promise<Key> {
    return (await this.get<'verifyKey'>('/auth/verify', {}, options)).data;
  }

  readonly guides = {
    /** Guides newest first, every page in turn (GET /v1/guides); `q` searches titles, `team_id` narrows. */
    list: (params: GuideListParams = {}, options?: RequestOptions): Paginated<GuideListItem> =>
      new Paginated(params.cursor ?? null, async (cursor) => {
        const page = await this.get<'listGuides'>('/guides', { ...params, cursor: cursor ?? undefined }, options);
        return { items: page.data, next: page.next_cursor };
      }),
    /** One guide with its steps, by id or permalink (GET /v1/guides/{guideId}). */
    get: async (idOrPermalink: string, options?: RequestOptions): Promise<Guide> =>
      (await this.get<'getGuide'>(`/guides/${encodeURIComponent(idOrPermalink)}`, {}, options)).data,
  };

  readonly teams = {
    /** The teams the key reaches (GET /v1/teams). */
    list: async (options?: RequestOptions): Promise<Team[]> => (await this.get<'listTeams'>('/teams', {}, options)).data,
  };

  readonly members = {
    /** The members of one team the key reaches (GET /v1/members). */
    list: async (params: MemberListParams, options?: RequestOptions): Promise<Member[]> =>
      (await this.get<'listMembers'>('/members', params, options)).data,
  };

  readonly events = {
    /** The events the key reaches, oldest first, up to the newest (GET /v1/events). */
    list: (params: EventListParams = {}, options?: RequestOptions): Paginated<FeedEvent> =>
      new Paginated(params.after ?? null, async (after) => {
        const page = await this.get<'listEvents'>('/events', eventQuery(params, after, 0), options);
        // The feed's last page has a next_cursor too (to poll with): an empty page ends the walk.
        return { items: page.data, next: page.data.length > 0 ? page.next_cursor : null };
      }),
    /**
     * Every event from `after` (or the oldest kept) on, and then each new one as it happens, for as
     * long as the loop runs: the service holds each empty page open until an event arrives.
     * Stop it with `break` or the signal.
     */
    tail: (params: EventListParams = {}, options?: RequestOptions): AsyncGenerator<FeedEvent> => this.tailEvents(params, options),
  };

  private async *tailEvents(params: EventListParams, options: RequestOptions = {}): AsyncGenerator<FeedEvent> {
    // A held page answers within the wait; the time-out covers the wait and then the usual time.
    const timeoutMs = TAIL_WAIT_SECONDS * 1_000 + (options.timeoutMs ?? this.timeoutMs);
    let after = params.after ?? null;
    for (;;) {
      const page = await this.get<'listEvents'>('/events', eventQuery(params, after, TAIL_WAIT_SECONDS), { ...options, timeoutMs });
      yield* page.data;
      after = page.next_cursor ?? after;
    }
  }

  private get<Op extends Operation>(path: string, query: Params<Op> | Query, options?: RequestOptions): Promise<Ok<Op>> {
    return this.requester.get<Ok<Op>>(path, query as Query, options);
  }
}

function eventQuery(params: EventListParams, after: string | null, wait: number): Query {
  return { limit: params.limit, types: params.types?.join(','), after: after ?? undefined, wait: wait || undefined };
}

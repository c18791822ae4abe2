// The client: every operation of the v1 document, and the management API's operations a management key
// (webhooks:manage) may call, typed in and out by the generated types.
//   const client = new GuideService({ apiKey: process.env.GUIDE_API_KEY!, baseUrl: 'https://guides.example.com' });
//   for await (const guide of client.guides.list({ q: 'password' })) console.log(guide.title);
//   const endpoint = await client.webhookEndpoints.create({ home, url, events: ['guide.created'] });
import type { components as adminComponents, operations as adminOperations } from './generated/admin.js';
import type { components, operations } from './generated/v1.js';
import { Paginated } from './pagination.js';
import { type Query, Requester, type RequestOptions } from './requester.js';
import { GuideServiceError, type RateLimitState } from './errors.js';

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

type AdminOperation = keyof adminOperations;
type AdminBody<Op extends AdminOperation> = adminOperations[Op] extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
/** The JSON an operation answers on success (200, 201 or 202). */
type JsonOf<Answer> = Answer extends { content: { 'application/json': infer Body } } ? Body : never;
type AdminAnswer<Op extends AdminOperation> = adminOperations[Op]['responses'] extends infer Answers
  ? Answers extends { 200: infer Ok }
    ? JsonOf<Ok>
    : Answers extends { 201: infer Created }
      ? JsonOf<Created>
      : Answers extends { 202: infer Accepted }
        ? JsonOf<Accepted>
        : never
  : never;
type AdminParams<Op extends AdminOperation> = NonNullable<adminOperations[Op]['parameters']['query']>;

export type WebhookEndpoint = adminComponents['schemas']['AdminWebhookEndpoint'];
export type DeliveryAttempt = adminComponents['schemas']['AdminDeliveryAttempt'];
export type EndpointHealth = adminComponents['schemas']['AdminEndpointHealth'];
/** The team or organization an endpoint belongs to; a management key reaches its own home alone (an organization key: its teams' too). */
export type Home = AdminBody<'createWebhookEndpoint'>['home'];
export type NewWebhookEndpoint = AdminBody<'createWebhookEndpoint'>;
/** A new endpoint, with its signing key in both forms: this answer alone shows them without asking. */
export type CreatedWebhookEndpoint = AdminAnswer<'createWebhookEndpoint'>['data'];
export type WebhookEndpointChanges = AdminBody<'updateWebhookEndpoint'>;
export type SigningKey = AdminAnswer<'revealSigningKey'>['data'];
export type DeliveryListParams = Omit<AdminParams<'listDeliveries'>, 'cursor'> & { cursor?: string };

/** One page of `events.tail()`. */
export interface TailPage {
  events: FeedEvent[];
  /** Where the tail goes on from: save it once these events are handled, and pass it as `after` to resume. */
  cursor: string;
  /** The cursor given was from before what the service keeps: the tail started over from the oldest event kept. */
  restarted: boolean;
}

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
        // An empty page ends the walk; its next_cursor is where to go on from later (`.pages()` gives it).
        return { items: page.data, next: page.next_cursor, last: page.data.length === 0 };
      }),
    /**
     * Every event from `after` (or the oldest kept) on, and then each new one as it happens, a page at a
     * time, for as long as the loop runs: the service holds each empty page open until an event arrives.
     * Each page hands back the cursor to save once its events are handled, and to resume from (`after`)
     * after a restart. A cursor from before what the service keeps (`cursor_expired`) starts the tail over
     * from the oldest event kept, on a page marked `restarted`: events may come again (dedupe on `id`).
     * Stop it with `break` or the signal.
     */
    tail: (params: EventListParams = {}, options?: RequestOptions): AsyncGenerator<TailPage> => this.tailEvents(params, options),
  };

  /**
   * A management key's operations (an API key with webhooks:manage): its home's webhook endpoints and
   * their deliveries, on the management API. Every write carries an Idempotency-Key, the same on each of
   * its retries, so a retried call never registers an endpoint twice.
   */
  readonly webhookEndpoints = {
    /** Registers an endpoint (it gets a ping at once); the answer holds its signing key in both forms. */
    create: async (endpoint: NewWebhookEndpoint, options?: RequestOptions): Promise<CreatedWebhookEndpoint> =>
      (await this.admin<'createWebhookEndpoint'>('POST', '/webhook-endpoints', { body: endpoint }, options)).data,
    /** The endpoints of a home, oldest first. */
    list: async (home: Home, options?: RequestOptions): Promise<WebhookEndpoint[]> =>
      (await this.admin<'listWebhookEndpoints'>('GET', '/webhook-endpoints', { query: { home_type: home.type, home_id: home.id } }, options)).data,
    get: async (id: string, options?: RequestOptions): Promise<WebhookEndpoint> =>
      (await this.admin<'getWebhookEndpoint'>('GET', `/webhook-endpoints/${encodeURIComponent(id)}`, {}, options)).data,
    /** Its success rate and recent outcomes. */
    health: async (id: string, options?: RequestOptions): Promise<EndpointHealth> =>
      (await this.admin<'getWebhookEndpointHealth'>('GET', `/webhook-endpoints/${encodeURIComponent(id)}/health`, {}, options)).data,
    update: async (id: string, changes: WebhookEndpointChanges, options?: RequestOptions): Promise<WebhookEndpoint> =>
      (await this.admin<'updateWebhookEndpoint'>('PATCH', `/webhook-endpoints/${encodeURIComponent(id)}`, { body: changes }, options)).data,
    delete: async (id: string, options?: RequestOptions): Promise<void> => {
      await this.admin('DELETE', `/webhook-endpoints/${encodeURIComponent(id)}`, {}, options);
    },
    /** Stops deliveries; what happens meanwhile is kept as missed. */
    pause: async (id: string, options?: RequestOptions): Promise<WebhookEndpoint> =>
      (await this.admin<'pauseWebhookEndpoint'>('POST', `/webhook-endpoints/${encodeURIComponent(id)}/pause`, {}, options)).data,
    /** Makes it active again; with `redeliverMissed`, what it missed is sent again, oldest first. */
    resume: async (id: string, { redeliverMissed = false } = {}, options?: RequestOptions): Promise<WebhookEndpoint> =>
      (await this.admin<'resumeWebhookEndpoint'>('POST', `/webhook-endpoints/${encodeURIComponent(id)}/resume`, { body: { redeliver_missed: redeliverMissed } }, options)).data,
    /** A ping, or a test event of `eventType` with sample data, to this endpoint alone. */
    ping: async (id: string, { eventType }: { eventType?: AdminBody<'pingWebhookEndpoint'>['event_type'] } = {}, options?: RequestOptions): Promise<void> => {
      await this.admin('POST', `/webhook-endpoints/${encodeURIComponent(id)}/ping`, { body: eventType === undefined ? {} : { event_type: eventType } }, options);
    },
    /** The signing key in both forms: signing_key verifies X-Service-Signature, standard_webhooks_secret webhook-signature. */
    signingKey: async (id: string, options?: RequestOptions): Promise<SigningKey> =>
      (await this.admin<'revealSigningKey'>('GET', `/webhook-endpoints/${encodeURIComponent(id)}/signing-key`, {}, options)).data,
    /** A new signing key; with `keepOldForHours` the old one keeps signing beside it that long. */
    rotateSigningKey: async (id: string, { keepOldForHours = 0 } = {}, options?: RequestOptions): Promise<SigningKey> =>
      (await this.admin<'rotateSigningKey'>('POST', `/webhook-endpoints/${encodeURIComponent(id)}/signing-key/rotate`, { body: { keep_old_for_hours: keepOldForHours } }, options)).data,
    /** Every attempt to the endpoint, newest first, page after page. */
    deliveries: (id: string, params: DeliveryListParams = {}, options?: RequestOptions): Paginated<DeliveryAttempt> =>
      new Paginated(params.cursor ?? null, async (cursor) => {
        const query = { ...params, cursor: cursor ?? undefined } as Query;
        const page = await this.admin<'listDeliveries'>('GET', `/webhook-endpoints/${encodeURIComponent(id)}/deliveries`, { query }, options);
        return { items: page.data, next: page.next_cursor };
      }),
  };

  readonly deliveries = {
    /** Sends one attempt's event again, as a new attempt. */
    resend: async (deliveryId: string, options?: RequestOptions): Promise<DeliveryAttempt> =>
      (await this.admin<'resendDelivery'>('POST', `/deliveries/${encodeURIComponent(deliveryId)}/resend`, {}, options)).data,
  };

  private async *tailEvents(params: EventListParams, options: RequestOptions = {}): AsyncGenerator<TailPage> {
    // A held page answers within the wait; the time-out covers the wait and then the usual time.
    const timeoutMs = TAIL_WAIT_SECONDS * 1_000 + (options.timeoutMs ?? this.timeoutMs);
    let after = params.after ?? null;
    let restarted = false;
    for (;;) {
      let page: Ok<'listEvents'>;
      try {
        page = await this.get<'listEvents'>('/events', eventQuery(params, after, TAIL_WAIT_SECONDS), { ...options, timeoutMs });
      } catch (error) {
        if (!(error instanceof GuideServiceError && error.code === 'cursor_expired' && after !== null)) throw error;
        after = null;
        restarted = true;
        continue;
      }
      after = page.next_cursor ?? after;
      // An empty page (the wait ended with nothing new) moves nothing on: the loop asks again.
      if (page.data.length === 0 && !restarted) continue;
      yield { events: page.data, cursor: after!, restarted };
      restarted = false;
    }
  }

  private get<Op extends Operation>(path: string, query: Params<Op> | Query, options?: RequestOptions): Promise<Ok<Op>> {
    return this.requester.get<Ok<Op>>(path, query as Query, options);
  }

  private admin<Op extends AdminOperation>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, call: { query?: Query; body?: unknown }, options?: RequestOptions): Promise<AdminAnswer<Op>> {
    return this.requester.request<AdminAnswer<Op>>(path, { method, api: '/admin/v1', ...call }, options);
  }
}

function eventQuery(params: EventListParams, after: string | null, wait: number): Query {
  return { limit: params.limit, types: params.types?.join(','), after: after ?? undefined, wait: wait || undefined };
}

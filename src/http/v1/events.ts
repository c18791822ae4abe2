// GET /events (issue 17, docs/decisions.md "Events feed"): the events the key reaches, oldest first, in
// keyset pages (`after`), narrowed by `types`, each exactly a webhook delivery's body. With `wait`, an
// empty page is held open until an event may have arrived or the time is up; the request was counted
// against the rate limit once, at admission, and a key holds at most WAITS_PER_KEY such requests.
import { Type } from '@sinclair/typebox';
import type { ApiKey } from '../../domain/api-keys.js';
import { FALLBACK_MS, WAITS_PER_KEY } from '../../domain/event-feed-signal.js';
import { eventFeedPage, eventTypesFor, FEED_EVENT_TYPES, type FeedEventType, scopeOfEventType } from '../../domain/event-feed.js';
import { keysetList } from '../keyset-page.js';
import { invalidRequest, ProblemError } from '../problem.js';
import { CommaSeparated, Cursor, StringEnum } from '../schemas/common.js';
import { presentEventPage } from './event-feed-presenter.js';
import { EventPage } from './event-feed-schemas.js';
import { admittedKey, readmit } from './key-auth.js';
import type { V1Routes } from './v1-routes.js';

/** Looks again after a wake-up that found nothing: from this many ms, doubling up to the last. */
const RECHECK_FIRST_MS = 25;
const RECHECK_LAST_MS = 800;
/** A waiting request is admitted again at least this often (decisions §10). */
export const READMIT_EVERY_MS = 1000;

/** The longest a request may wait for an event, in seconds. */
export const MAX_WAIT_SECONDS = 30;

const EventFeedQuery = Type.Object(
  {
    after: Cursor({ description: 'The next_cursor of an earlier page: the events after it. Omitted: from the oldest event kept' }),
    types: CommaSeparated(
      StringEnum(FEED_EVENT_TYPES),
      { minItems: 1, maxItems: FEED_EVENT_TYPES.length, uniqueItems: true },
      {
        minLength: 1,
        maxLength: 500,
        description: "The event types to keep, separated by commas (`types=guide.created,guide.deleted`), each once; omitted: every type the key's scopes allow",
      },
    ),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Events per page' }),
    wait: Type.Integer({
      minimum: 0,
      maximum: MAX_WAIT_SECONDS,
      default: 0,
      description: 'Seconds (0 to 30) to hold an empty page open until an event arrives; the answer comes as soon as one does',
    }),
  },
  { additionalProperties: false },
);

/** The types a request reads: those it names (each known, once, allowed by the key's scopes), or all allowed. */
function typesOf(key: ApiKey, given: string | undefined): { types: FeedEventType[]; filter: string | null } {
  const allowed = eventTypesFor(key.scopes);
  // Decisions §4 checks scopes before parameters: a key that can see no event at all is refused first.
  if (allowed.length === 0) throw new ProblemError('scope_missing', 'This endpoint needs the guides:read or the members:read scope');
  if (given === undefined) return { types: allowed, filter: null };
  const names = given.split(',');
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '') throw invalidRequest("Parameter 'types' must be event types separated by single commas, without empty items");
    if (name === 'ping') throw invalidRequest("Parameter 'types' names 'ping', which is never in the feed: a ping only tests one endpoint");
    if (!(FEED_EVENT_TYPES as readonly string[]).includes(name)) {
      throw invalidRequest(`Parameter 'types' names an unknown event type '${name.slice(0, 60)}'; the feed's types are ${FEED_EVENT_TYPES.join(', ')}`);
    }
    if (seen.has(name)) throw invalidRequest(`Parameter 'types' names '${name}' more than once`);
    seen.add(name);
  }
  const types = FEED_EVENT_TYPES.filter((type) => seen.has(type));
  const missing = types.map(scopeOfEventType).find((scope) => !key.scopes.includes(scope));
  if (missing) throw new ProblemError('scope_missing', `Parameter 'types' asks for events that need the ${missing} scope, which this key lacks`);
  return { types, filter: types.join(',') };
}

export const registerEvents: V1Routes = (app, { ctx, respond }) => {
  app.get(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        summary: 'Read the events feed',
        description:
          'The events the key reaches, oldest first (in the order they were committed), in keyset pages: the same events, with the same ' +
          'JSON body, that webhook deliveries carry, for integrations that catch up without webhooks. A team key reaches its team\'s ' +
          'events, an organization key the events of every team while it is in the organization. `guide.*` events need `guides:read`, ' +
          '`member.*` events `members:read`; without `types` the key gets every kind its scopes allow. `ping` is never in the feed. ' +
          'Every answer carries `next_cursor`, the last page too: poll with it as `after` for what comes next, with `wait` to have an empty ' +
          'page held open until an event arrives. The cursor is bound to the key, not to `types`: a client may change the types it follows ' +
          'and go on from where it was. Events are kept `EVENTS_RETENTION_DAYS` ' +
          '(30 by default); a cursor older than that is 400 `cursor_expired`: start again without `after`.',
        tags: ['Events'],
        querystring: Type.Partial(EventFeedQuery, { additionalProperties: false }),
        response: respond(200, 'A page of events, oldest first', EventPage, ['invalid_request', 'cursor_expired', 'scope_missing', 'rate_limited', 'too_many_waits']),
      },
    },
    async (request, reply) => {
      const key = admittedKey(request);
      const { after, limit, wait } = request.query;
      const { types, filter } = typesOf(key, request.query.types);
      // Bound to the key alone (decisions §10): a client may change its types and go on from where it was.
      // A cursor made before, when the binding named the types too, is still taken with the same types.
      const binding = { holder: key.id, filters: ['events', null] };
      const earlier = filter === null ? [] : [{ holder: key.id, filters: ['events', filter] }];
      const refusal = "Parameter 'after' is not a cursor of this feed: pass next_cursor unchanged, with the same key";
      const view = { home: key.home, types };
      const read = () =>
        keysetList(ctx.cursorSecret, binding, after, refusal, async (position) => {
          const page = await eventFeedPage(ctx, view, position, limit!);
          if (page.outcome === 'expired') {
            throw new ProblemError(
              'cursor_expired',
              "Parameter 'after' points before the oldest event the feed still keeps, so events after it may be gone; start again from the oldest event kept by asking without 'after'",
            );
          }
          return { items: page.payloads, next: page.next };
        }, earlier);

      const signal = ctx.eventFeed;
      const since = signal?.generation ?? 0;
      let page = await read();
      if (page.data.length === 0 && wait! > 0 && signal) {
        const held = signal.hold(key.id, since);
        if (!held) {
          throw new ProblemError('too_many_waits', `This key already holds ${WAITS_PER_KEY} requests waiting on /v1/events; wait for one to answer, or ask with wait=0`, {
            'retry-after': '1',
          });
        }
        // A client that goes away stops its wait.
        let gone = false;
        const leave = () => {
          gone = true;
          held.release();
        };
        reply.raw.once('close', leave);
        try {
          const deadline = Date.now() + wait! * 1000;
          // After a wake-up that found nothing, look again soon, then less and less often: on PostgreSQL the
          // event may be waiting behind a transaction still running (decisions, "Events feed"). Between
          // looks, and after each, the request is admitted again: a key revoked, expired or refused by its
          // organization meanwhile ends the wait with the refusal a new request would get, checked after
          // the read and before any answer, so that nothing written after the change goes out.
          let soon = 0;
          let readAt = Date.now();
          for (let left = deadline - Date.now(); page.data.length === 0 && left > 0 && !gone; left = deadline - Date.now()) {
            const woken = await held.next(Math.min(left, soon > 0 ? soon : READMIT_EVERY_MS));
            if (gone) break;
            if (woken || soon > 0 || Date.now() - readAt >= FALLBACK_MS) {
              held.look();
              page = await read();
              readAt = Date.now();
            }
            await readmit(ctx, request, { fresh: page.data.length > 0 });
            // A stopping process answers what it has.
            if (signal.closing) break;
            soon = woken ? RECHECK_FIRST_MS : soon > 0 && soon < RECHECK_LAST_MS ? soon * 2 : 0;
          }
        } finally {
          reply.raw.off('close', leave);
          held.release();
        }
      }
      return reply.type('application/json; charset=utf-8').send(presentEventPage(page.data, page.next_cursor));
    },
  );
};

// What GET /v1/events answers: pages of the very envelopes webhook deliveries carry (the `webhooks`
// section's schemas), so one parser serves both.
import { Type } from '@sinclair/typebox';
import { FEED_EVENT_TYPES } from '../../domain/event-feed.js';
import { Nullable } from '../schemas/common.js';
import { eventEnvelope } from '../schemas/events.js';

export const FeedEvent = Type.Union(
  FEED_EVENT_TYPES.map((type) => eventEnvelope(type)),
  { $id: 'Event', description: 'One event, exactly the JSON body its webhook deliveries carry (same fields, same order)' },
);

export const EventPage = Type.Object(
  {
    data: Type.Array(Type.Ref(FeedEvent), { description: 'Events oldest first' }),
    next_cursor: Nullable(
      Type.String({
        description:
          'Pass as `after` for what comes next; present on the last page too, so a client polls with it. ' +
          'Null only when the key has no event yet and came without `after`: ask again without it',
      }),
    ),
  },
  { additionalProperties: false },
);

// Precise types for clients (issue 43, item 4): a client generated from the v1 document is told exactly
// what the service takes and answers. `types` of GET /v1/events is a comma-separated list of the feed's
// event types (an array of their enum, style form, explode false), each event's payload is a named schema
// that the Event envelope and the webhooks section both refer to, a member event's `role` is the one
// enum GET /v1/members answers, and every 401 declares the WWW-Authenticate challenge it carries.
import { beforeAll, describe, expect, it } from 'vitest';
import { FEED_EVENT_TYPES } from '../../src/domain/event-feed.js';
import { EVENT_TYPES, type EventType } from '../../src/domain/events.js';
import { ADMIN_TOKEN, useTestService } from '../support/service.js';

const t = useTestService();
let v1: any;
let admin: any;
beforeAll(async () => {
  v1 = (await t.service.app.inject({ url: '/v1/openapi.json' })).json();
  admin = (await t.service.app.inject({ url: '/admin/v1/openapi.json', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The named schema of each event's `data`. */
const PAYLOADS: Record<EventType, string> = {
  'guide.created': 'GuideEventData',
  'guide.updated': 'GuideEventData',
  'guide.ready': 'GuideEventData',
  'guide.failed': 'GuideEventData',
  'guide.deleted': 'GuideDeletedData',
  'member.joined': 'MemberEventData',
  'member.left': 'MemberEventData',
  'member.role_changed': 'MemberEventData',
  ping: 'PingData',
};

describe('the v1 document types what clients send and get (issue 43, item 4)', () => {
  it("types of GET /v1/events is a list of the feed's event types, sent comma-separated (style form, explode false)", () => {
    const types = v1.paths['/events'].get.parameters.find((parameter: any) => parameter.name === 'types');
    expect(types).toMatchObject({ in: 'query', required: false, style: 'form', explode: false });
    expect(types.schema).toEqual({ type: 'array', items: { type: 'string', enum: [...FEED_EVENT_TYPES] }, minItems: 1, maxItems: FEED_EVENT_TYPES.length, uniqueItems: true });
    expect(types.description).toMatch(/comma/i);
  });

  it("each event's payload is a named schema, referred to by the Event envelope and by the webhooks section", () => {
    const schemas = v1.components.schemas;
    for (const type of EVENT_TYPES) {
      const delivered = v1.webhooks[type].post.requestBody.content['application/json'].schema;
      expect(delivered.properties.data, type).toEqual(ref(PAYLOADS[type]));
    }
    const fed = schemas.Event.anyOf.map((envelope: any) => [envelope.properties.type.enum[0], envelope.properties.data]);
    expect(fed).toEqual(FEED_EVENT_TYPES.map((type) => [type, ref(PAYLOADS[type])]));
    for (const name of new Set(Object.values(PAYLOADS))) {
      expect(schemas[name], name).toMatchObject({ type: 'object', additionalProperties: false });
      expect(schemas[name].description, name).toBeTruthy();
    }
  });

  it('the role of a member event is the enum GET /v1/members answers: one shared schema', () => {
    const schemas = v1.components.schemas;
    expect(schemas.TeamRole).toMatchObject({ type: 'string', enum: ['EDITOR', 'VIEWER', 'ADMIN'] });
    expect(schemas.Member.properties.role).toEqual(ref('TeamRole'));
    expect(schemas.MemberEventData.properties.member.properties.role).toMatchObject(ref('TeamRole'));
  });

  it('every 401 of both documents declares the WWW-Authenticate challenge (RFC 6750), sent with every one', () => {
    for (const document of [v1, admin]) {
      let seen = 0;
      for (const [path, item] of Object.entries<any>(document.paths)) {
        for (const [method, operation] of Object.entries<any>(item)) {
          const refused = operation.responses['401'];
          if (!refused) continue;
          seen++;
          expect(refused.headers['WWW-Authenticate'], `${method} ${path}`).toMatchObject({ required: true, schema: { type: 'string' } });
          expect(refused.headers['WWW-Authenticate'].description, `${method} ${path}`).toContain('Bearer realm="guide-service"');
        }
      }
      expect(seen).toBeGreaterThan(5);
    }
  });
});

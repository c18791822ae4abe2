// The v1 document's `webhooks` section (issue 14, item 4): every event type with its envelope's schema
// and an example; the examples and the envelopes the service really records both satisfy the schemas.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/domain/events.js';
import { createGuide, useTestService } from '../support/service.js';
import { createUser, readEvents } from './admin/helpers.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
let webhooks: Record<string, any>;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
// Within the document: each payload is a schema of its components, which the envelopes refer to.
const schemaOf = (type: string) => ({ $ref: `openapi#/webhooks/${type.replaceAll('/', '~1')}/post/requestBody/content/application~1json/schema` });

beforeAll(async () => {
  const document = (await t.service.app.inject({ url: '/v1/openapi.json' })).json();
  ajv.addSchema(document, 'openapi');
  webhooks = document.webhooks;
});

describe('the webhooks section of the v1 document', () => {
  it('has every event type, each a signed POST with a schema and an example that satisfies it', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const post = webhooks[type].post;
      // The specification's headers, then the Standard Webhooks ones (shared decisions §9).
      expect(post.parameters.map((parameter: any) => parameter.name)).toEqual([
        'X-Service-Event',
        'X-Service-Delivery',
        'X-Service-Signature',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      const example = post.requestBody.content['application/json'].example;
      expect(example.type).toBe(type);
      expect(ajv.validate(schemaOf(type), example), `${type}: ${ajv.errorsText()}`).toBe(true);
    }
  });

  it('describes exactly what the service records for each event (guide, member and ping events)', async () => {
    const organization = await t.admin('POST', '/organizations', { name: 'Hooks', plan: 'growth' });
    const team = await t.admin('POST', '/teams', { name: 'Hooked', organization_id: organization.id });
    const user = await createUser(t, { name: 'Ana' });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' });
    await t.admin('DELETE', `/teams/${team.id}/members/${user.id}`);
    const guide = await createGuide(t, team.id, { title: 'Hooked guide' });
    await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Renamed', publish_status: 'PUBLISHED' });
    const processing = await createGuide(t, team.id, { processing: true, steps: [{ text: 'One' }] });
    await t.admin('POST', `/guides/${processing.id}/processing`, { outcome: 'finished' });
    const failing = await createGuide(t, team.id, { processing: true });
    await t.admin('POST', `/guides/${failing.id}/processing`, { outcome: 'failed', error: 'bad file' });
    await t.admin('DELETE', `/guides/${guide.id}`);
    await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
    const recorded = (await readEvents(t)).map((event) => event.envelope).filter((envelope) => envelope.team_id === team.id);
    expect(new Set(recorded.map((envelope) => envelope.type))).toEqual(new Set(EVENT_TYPES));
    for (const envelope of recorded) {
      expect(ajv.validate(schemaOf(envelope.type), envelope), `${envelope.type}: ${ajv.errorsText()}`).toBe(true);
    }
  });
});

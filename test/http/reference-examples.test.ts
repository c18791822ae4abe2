// The references' example requests and answers are taken from a real run (issue 14, item 3): this test
// makes a small world, calls every operation of both interfaces once, and checks that each recorded
// example still has the shape of the answer the service gives today and is the one the documents show.
// With RECORD_EXAMPLES=1 it writes the answers into src/http/docs/recorded/{v1,admin}.json instead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EXAMPLES, V1_EXAMPLES } from '../../src/http/docs/recorded-examples.js';
import { examplesAt, RECORDED_APP_URL, type RecordedExample } from '../../src/http/openapi-document.js';
import { startReceiver } from '../support/receiver.js';
import { projectRoot } from '../support/build.js';
import { ADMIN_TOKEN, PUBLIC_URL, useTestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });
const recorded = { v1: {} as Record<string, RecordedExample>, admin: {} as Record<string, RecordedExample> };
const RECORDING = process.env.RECORD_EXAMPLES === '1';

/** What a value looks like: its keys and their shapes, recursively; arrays by their first item. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shape(item)]));
  return value === null ? 'null' : typeof value;
}

// Secrets a real run hands out are shown elided: the examples live in the repository.
const elided = (body: unknown) =>
  JSON.parse(JSON.stringify(body).replace(/gsk_[0-9A-Za-z]+/g, 'gsk_…').replace(/whsec_[0-9A-Za-z_+/=-]+/g, 'whsec_…'));
// v1 answers name the application (a guide's url in an event) by a placeholder, which the document fills
// with the address it is served at.
const placeheld = (body: unknown) => JSON.parse(JSON.stringify(body).replaceAll(PUBLIC_URL, RECORDED_APP_URL));

async function call(operationId: string, method: string, path: string, requestBody?: unknown): Promise<any> {
  const response = await t.service.app.inject({
    method: method as 'GET',
    url: `/admin/v1${path}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(requestBody === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: requestBody === undefined ? undefined : JSON.stringify(requestBody),
  });
  expect(response.statusCode, `${operationId}: ${response.body}`).toBeLessThan(300);
  const body = response.body === '' ? null : response.json();
  recorded.admin[operationId] = { request: path, ...(requestBody === undefined ? {} : { requestBody }), status: response.statusCode, body: elided(body) };
  return body === null ? null : { ...body.data, secret: body.secret };
}

beforeAll(async () => {
  const receiver = await startReceiver();
  try {
    const organization = await call('createOrganization', 'POST', '/organizations', { name: 'Northwind Outfitters', plan: 'growth' });
    await call('getOrganization', 'GET', `/organizations/${organization.id}`);
    await call('updateOrganization', 'PATCH', `/organizations/${organization.id}`, { org_keys_only: false });
    const team = await call('createTeam', 'POST', '/teams', { name: 'Customer Support', organization_id: organization.id, brand_color: '#1A2B3C' });
    const other = await t.admin('POST', '/teams', { name: 'Onboarding', organization_id: organization.id });
    await call('getTeam', 'GET', `/teams/${team.id}`);
    await call('updateTeam', 'PATCH', `/teams/${team.id}`, { brand_color: '#0B5FFF' });
    const owner = await call('createUser', 'POST', '/users', { email: 'ana@example.com', name: 'Ana Lima' });
    await call('getUser', 'GET', `/users/${owner.id}`);
    await call('putTeamMember', 'PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    await call('listTeamMembers', 'GET', `/teams/${team.id}/members`);
    const admin = await t.admin('POST', '/users', { email: 'bo@example.com', name: 'Bo Berg' });
    await call('addOrganizationAdmin', 'PUT', `/organizations/${organization.id}/admins/${admin.id}`);
    await call('addOrganizationAdminByEmail', 'POST', `/organizations/${organization.id}/admins`, { email: 'ana@example.com' });
    await call('listOrganizationAdmins', 'GET', `/organizations/${organization.id}/admins`);
    await call('removeOrganizationAdmin', 'DELETE', `/organizations/${organization.id}/admins/${admin.id}`);
    await call('addTeamMemberByEmail', 'POST', `/teams/${team.id}/members`, { email: 'cy@example.com', name: 'Cy Chen', role: 'VIEWER' });
    await call('listTenants', 'GET', '/tenants?limit=2');
    await t.admin('PUT', `/teams/${team.id}/members/${admin.id}`, { role: 'VIEWER' });
    await call('removeTeamMember', 'DELETE', `/teams/${team.id}/members/${admin.id}`);
    await call('findUsers', 'GET', `/users?email=${encodeURIComponent('BO@example.com')}`);
    await call('eraseUser', 'POST', `/users/${admin.id}/erase`);

    const steps = [{ text: 'Open **Settings** → *Security*.' }, { text: 'Choose **Reset password** and confirm.', image_url: 'https://cdn.example.com/reset.png', image_alt: 'The reset button' }];
    await t.admin('POST', '/guides', { team_id: team.id, title: 'Invite a teammate', owner_id: owner.id, steps: [{ text: 'Open **Team** and choose *Invite*.' }], publish_status: 'PUBLISHED' });
    const guide = await call('createGuide', 'POST', '/guides', {
      team_id: team.id,
      title: 'Reset a customer password',
      description: 'For support agents.',
      owner_id: owner.id,
      steps,
      publish_status: 'PUBLISHED',
      permalink: 'reset-a-customer-password',
    });
    await call('getGuide', 'GET', `/guides/${guide.id}`);
    await call('updateGuide', 'PATCH', `/guides/${guide.id}`, { title: 'Reset a customer’s password', is_public: true });
    await call('listTeamGuides', 'GET', `/guides?team_id=${team.id}&limit=1`);
    const recording = await t.admin('POST', '/guides', { team_id: team.id, title: 'Imported recording', processing: true, steps });
    await call('settleGuideProcessing', 'POST', `/guides/${recording.id}/processing`, { outcome: 'finished' });
    await call('moveGuide', 'POST', `/guides/${recording.id}/move`, { team_id: other.id });
    await call('deleteGuide', 'DELETE', `/guides/${recording.id}`);

    const key = await call('createApiKey', 'POST', '/api-keys', { home: { type: 'organization', id: organization.id }, name: 'Help center sync', scopes: ['guides:read', 'teams:read', 'members:read'], expires_in_days: 90 });
    await call('listApiKeys', 'GET', `/api-keys?home_type=organization&home_id=${organization.id}`);
    const secret: string = key.secret;
    const spare = await t.admin('POST', '/api-keys', { home: { type: 'team', id: team.id }, name: 'Old sync', scopes: ['guides:read'], expires_in_days: 30 });
    await call('revokeApiKey', 'DELETE', `/api-keys/${spare.id}`);

    // No guide.updated: the edit above closes its window later, and its event would race the recording.
    const endpoint = await call('createWebhookEndpoint', 'POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created', 'guide.deleted'], description: 'Help center' });
    await receiver.waitFor(1);
    await call('listWebhookEndpoints', 'GET', `/webhook-endpoints?home_type=team&home_id=${team.id}`);
    await call('getWebhookEndpoint', 'GET', `/webhook-endpoints/${endpoint.id}`);
    await call('updateWebhookEndpoint', 'PATCH', `/webhook-endpoints/${endpoint.id}`, { events: ['guide.created'] });
    await call('revealSigningKey', 'GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
    await call('rotateSigningKey', 'POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`, { keep_old_for_hours: 24 });
    await call('pingWebhookEndpoint', 'POST', `/webhook-endpoints/${endpoint.id}/ping`);
    await receiver.waitFor(2);
    const attempts = await eventually('settled deliveries', async () => {
      const list = await t.admin('GET', `/webhook-endpoints/${endpoint.id}/deliveries`);
      return list.length >= 2 && list.every((attempt: { status: string }) => attempt.status === 'delivered') ? list : undefined;
    });
    await call('listDeliveries', 'GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=1`);
    await call('resendDelivery', 'POST', `/deliveries/${attempts[0].id}/resend`);
    await call('getWebhookEndpointHealth', 'GET', `/webhook-endpoints/${endpoint.id}/health`);
    await call('pauseWebhookEndpoint', 'POST', `/webhook-endpoints/${endpoint.id}/pause`);
    await call('resumeWebhookEndpoint', 'POST', `/webhook-endpoints/${endpoint.id}/resume`, { redeliver_missed: true });
    await call('recoverWebhookEndpoint', 'POST', `/webhook-endpoints/${endpoint.id}/recover`, { since: endpoint.created_at });
    const doomed = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: other.id }, url: receiver.url, events: ['guide.created'] });
    await call('deleteWebhookEndpoint', 'DELETE', `/webhook-endpoints/${doomed.id}`);
    await call('listMail', 'GET', '/mail?limit=1');
    await call('listAuditEvents', 'GET', `/audit-events?home_type=team&home_id=${team.id}&limit=1`);

    for (const [operationId, path] of Object.entries({
      verifyKey: '/auth/verify',
      listGuides: '/guides?limit=1',
      getGuide: `/guides/${guide.permalink}`,
      listTeams: '/teams',
      listMembers: `/members?team_id=${team.id}`,
      listEvents: '/events?types=guide.created&limit=1',
    })) {
      const response = await t.get(`/v1${path}`, secret);
      expect(response.statusCode, `${operationId}: ${response.body}`).toBe(200);
      recorded.v1[operationId] = { request: path, status: 200, body: placeheld(response.json()) };
    }
  } finally {
    await receiver.close();
  }
  if (RECORDING) {
    for (const [name, examples] of Object.entries({ v1: recorded.v1, admin: recorded.admin })) {
      writeFileSync(join(projectRoot, `src/http/docs/recorded/${name}.json`), `${JSON.stringify(examples, null, 2)}\n`);
    }
  }
});

describe.skipIf(RECORDING).each([
  ['v1', V1_EXAMPLES, '/v1/openapi.json'],
  ['management', ADMIN_EXAMPLES, '/admin/v1/openapi.json'],
] as const)('the %s reference examples are answers from a real run', (name, examples, documentPath) => {
  it('every operation has one, with the shape of today\'s answer, and the document shows it', async () => {
    const document = (await t.service.app.inject({ url: documentPath, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    const current = name === 'v1' ? recorded.v1 : recorded.admin;
    for (const item of Object.values<any>(document.paths)) {
      for (const operation of Object.values<any>(item)) {
        const example = examples[operation.operationId];
        expect(example, `${operation.operationId}: record the examples with RECORD_EXAMPLES=1 npx vitest run test/http/reference-examples.test.ts`).toBeDefined();
        expect(shape(example!.body), operation.operationId).toEqual(shape(current[operation.operationId]!.body));
        expect(operation['x-request-example']).toEqual({ path: example!.request, body: example!.requestBody, status: example!.status });
        if (example!.body !== null) expect(operation.responses[example!.status].content['application/json'].example).toEqual(examplesAt(examples, PUBLIC_URL)[operation.operationId]!.body);
      }
    }
  });
});

// Recording runs the world above (a file whose tests are all skipped runs no beforeAll).
it.runIf(RECORDING)('records the examples', () => {
  expect(Object.keys(recorded.admin).length).toBeGreaterThan(30);
});

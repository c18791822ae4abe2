// An operation that takes no body accepts an empty one whatever its content-type (shared decisions §9;
// issue 41, item 4 and its weak item): `curl -d ''` sends an empty form, a browser's fetch an empty
// text/plain, other clients odd or broken types. Only emptiness is let through: a body with content in a
// type the service does not read is still 415.
import { describe, expect, it } from 'vitest';
import { consolePost, sessionOf } from '../console/sessions.js';
import { ADMIN_TOKEN, createGuide, createKey, organizationWithTeams, useTestService } from '../support/service.js';
import { createUser, expectProblem, rawAdmin } from './admin/helpers.js';

const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

/** Types clients send with an empty body: curl -d '', fetch, forms, uploads, JSON, and types that do not parse. */
const TYPES = [
  'application/x-www-form-urlencoded',
  'text/plain;charset=UTF-8',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json',
  'application/xml',
  'garbage',
  'text/plain;;',
];

/** A management call with an empty body sent as `type`. */
const emptyAs = (type: string, method: string, path: string) => rawAdmin(t, method, path, '', { 'content-type': type });

async function endpointOf(teamId: string) {
  return t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: teamId }, url: 'http://127.0.0.1:9/hook', events: ['guide.created'] });
}

describe('an empty body is no body, whatever its content-type (decisions §9)', () => {
  it('every management operation that takes no body, or an optional one, accepts it; content in a type the service does not read is still 415', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const teamId = teams[0].id;
    const person = await createUser(t);
    // An admin who stays, so that the one added and removed below is never the organization's last.
    await t.admin('PUT', `/organizations/${organization.id}/admins/${(await createUser(t)).id}`);
    const endpoint = await endpointOf(teamId);
    for (const type of TYPES) {
      const answers: Array<[string, number, number]> = [];
      const expectAnswer = async (method: string, path: string, status: number) => {
        const response = await emptyAs(type, method, path);
        answers.push([`${method} ${path.replace(/[0-9a-f-]{36}/g, '{id}')}: ${response.body.slice(0, 120)}`, response.statusCode, status]);
      };
      await expectAnswer('PUT', `/organizations/${organization.id}/admins/${person.id}`, 204);
      await expectAnswer('DELETE', `/organizations/${organization.id}/admins/${person.id}`, 204);
      await expectAnswer('DELETE', `/api-keys/${(await createKey(t, { type: 'team', id: teamId })).id}`, 204);
      await expectAnswer('DELETE', `/guides/${(await createGuide(t, teamId)).id}`, 204);
      await expectAnswer('POST', `/users/${(await createUser(t)).id}/erase`, 204);
      await expectAnswer('POST', `/webhook-endpoints/${endpoint.id}/ping`, 202);
      await expectAnswer('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`, 200);
      await expectAnswer('POST', `/webhook-endpoints/${endpoint.id}/pause`, 200);
      await expectAnswer('DELETE', `/webhook-endpoints/${(await endpointOf(teamId)).id}`, 204);
      expect(answers.filter(([, got, wanted]) => got !== wanted), type).toEqual([]);
    }
    for (const [type, payload] of [
      ['application/x-www-form-urlencoded', 'a=1'],
      ['text/plain', 'x'],
      ['garbage', 'x'],
    ]) {
      expectProblem(await rawAdmin(t, 'PUT', `/organizations/${organization.id}/admins/${person.id}`, payload, { 'content-type': type! }), 415, 'unsupported_media_type');
      expectProblem(await rawAdmin(t, 'POST', '/teams', payload, { 'content-type': type! }), 415, 'unsupported_media_type');
    }
  });

  it('resume, whose body is optional, takes an empty one of any type as none: resumed without redelivery, never 415', async () => {
    const { teams } = await organizationWithTeams(t, 'growth', 1);
    const endpoint = await endpointOf(teams[0].id);
    const path = `/webhook-endpoints/${endpoint.id}/resume`;
    for (const type of [undefined, ...TYPES]) {
      await t.admin('POST', `/webhook-endpoints/${endpoint.id}/pause`);
      const resumed = type === undefined ? await t.adminRaw('POST', path) : await emptyAs(type, 'POST', path);
      expect(resumed.statusCode, `${type}: ${resumed.body}`).toBe(200);
      expect(resumed.json().data.status).toBe('active');
    }
    await t.admin('POST', `/webhook-endpoints/${endpoint.id}/pause`);
    expect((await t.admin('POST', path, { redeliver_missed: false })).status).toBe('active');
  });

  it('signing out of the console accepts it', async () => {
    for (const type of TYPES) {
      const session = sessionOf(await consolePost(t, '/session/operator', { admin_token: ADMIN_TOKEN }));
      const out = await t.service.app.inject({
        method: 'DELETE',
        url: '/console/api/session',
        headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': type },
        payload: '',
      });
      expect(out.statusCode, `${type}: ${out.body}`).toBe(204);
    }
  });

  it('DELETE /mcp is 405 with Allow: POST whatever body it carries: the method is refused before the body is read', async () => {
    const { key } = await organizationWithTeams(t, 'growth', 1);
    for (const [type, payload] of [
      ['application/json', ''],
      ['application/json', '{"jsonrpc":'],
      ['application/x-www-form-urlencoded', ''],
      ['text/plain', 'x'],
    ]) {
      const response = await t.service.app.inject({ method: 'DELETE', url: '/mcp', headers: { authorization: `Bearer ${key}`, 'content-type': type! }, payload });
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('POST');
    }
  });
});

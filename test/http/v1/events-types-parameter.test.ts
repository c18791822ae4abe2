// `types` of GET /v1/events (docs/decisions.md "Events feed"): documented as a list of the feed's event
// types (test/http/openapi-precise-types.test.ts), it stays comma-separated on the wire, and each wrong
// list keeps its refusal, word for word, in the order of decisions §4 (other parameters first, then a key
// that reaches no event, then the list itself, then the scopes it asks for).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../admin/helpers.js';
import { createGuide, createKey, soloTeam, startTestService, type TestService } from '../../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ WEBHOOK_COALESCE_MS: '0' });
});
afterAll(() => t?.close());

const FEED_TYPES = 'guide.created, guide.updated, guide.ready, guide.failed, guide.deleted, member.joined, member.left, member.role_changed';

describe('types of GET /v1/events: comma-separated on the wire, refused in the same words', () => {
  it('takes the types comma-separated, encoded or not, and answers only those', async () => {
    const { team, key } = await soloTeam(t);
    const guide = await createGuide(t, team.id, { title: 'Listed' });
    await t.admin('DELETE', `/guides/${guide.id}`);
    const user = await t.admin('POST', '/users', { email: `types-${Math.random()}@example.com` });
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'VIEWER' });
    for (const query of ['?types=guide.deleted,member.joined', '?types=member.joined%2Cguide.deleted']) {
      const response = await t.get(`/v1/events${query}`, key);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.map((event: { type: string }) => event.type)).toEqual(['guide.deleted', 'member.joined']);
    }
  });

  it('refuses each wrong list with the words it always had', async () => {
    const { team, key } = await soloTeam(t);
    const guidesOnly = (await createKey(t, { type: 'team', id: team.id }, { scopes: ['guides:read'] })).secret;
    const teamsOnly = (await createKey(t, { type: 'team', id: team.id }, { scopes: ['teams:read'] })).secret;
    const emptyItems = "Parameter 'types' must be event types separated by single commas, without empty items";
    const ping = "Parameter 'types' names 'ping', which is never in the feed: a ping only tests one endpoint";
    const unknown = (name: string) => `Parameter 'types' names an unknown event type '${name}'; the feed's types are ${FEED_TYPES}`;
    const cases: [string, string, number, string][] = [
      [key, '?types=', 400, "Parameter 'types' must not be empty"],
      [key, '?types=guide.created,', 400, emptyItems],
      [key, '?types=,guide.created', 400, emptyItems],
      [key, '?types=guide.created,,guide.updated', 400, emptyItems],
      [key, '?types=guide.created,guide.created', 400, "Parameter 'types' names 'guide.created' more than once"],
      [key, '?types=guide.exploded', 400, unknown('guide.exploded')],
      [key, '?types=GUIDE.CREATED', 400, unknown('GUIDE.CREATED')],
      [key, '?types=guide.created%20', 400, unknown('guide.created ')],
      [key, '?types=ping', 400, ping],
      [key, '?types=guide.created,ping', 400, ping],
      [key, `?types=${'x'.repeat(501)}`, 400, "Parameter 'types' must be at most 500 characters long"],
      [key, '?types=guide.created&types=guide.updated', 400, "Parameter 'types' is given more than once"],
      // Other parameters are looked at first, as before.
      [key, '?types=guide.exploded&limit=0', 400, "Parameter 'limit' must be >= 1"],
      [key, '?types=guide.exploded&foo=1', 400, "Unknown parameter 'foo'"],
      // The list before the scopes it asks for; a key that reaches no event before the list.
      [guidesOnly, '?types=member.joined', 403, "Parameter 'types' asks for events that need the members:read scope, which this key lacks"],
      [guidesOnly, '?types=member.joined,guide.exploded', 400, unknown('guide.exploded')],
      [teamsOnly, '?types=guide.exploded', 403, 'This endpoint needs the guides:read or the members:read scope'],
    ];
    for (const [asking, query, status, detail] of cases) {
      const body = expectProblem(await t.get(`/v1/events${query}`, asking), status, status === 400 ? 'invalid_request' : 'scope_missing');
      expect(body.detail, query.slice(0, 60)).toBe(detail);
    }
  });
});

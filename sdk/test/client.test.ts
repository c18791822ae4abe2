// The client against a live service: every v1 operation, paging through next_cursor by itself, search,
// and the service's problems as one typed error carrying code, status, detail, request id and rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, organizationWithTeams, soloTeam } from '../../test/support/service.js';
import { type ErrorCode, GuideService, GuideServiceError } from '../src/index.js';
import { type LiveService, startLiveService } from './live-service.js';

let live: LiveService;
let org: Awaited<ReturnType<typeof organizationWithTeams>>;
const titles = ['Reset a password', 'Close the month', 'Reset a token', 'Invite a colleague', 'Reset the router', 'Archive a report', 'Export invoices'];

beforeAll(async () => {
  live = await startLiveService();
  org = await organizationWithTeams(live.t, 'growth', 2);
  // Created one after another: newest first is the reverse of this order.
  for (const [index, title] of titles.entries()) await createGuide(live.t, org.teams[index % 2].id, { title });
});
afterAll(() => live.t.close());

const client = (apiKey = org.key, options: Partial<ConstructorParameters<typeof GuideService>[0]> = {}) =>
  new GuideService({ apiKey, baseUrl: live.baseUrl, ...options });

/** The error a call ends in. */
async function failure(call: Promise<unknown>): Promise<GuideServiceError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GuideServiceError);
  return error as GuideServiceError;
}

describe('GuideService', () => {
  it('says what the key is', async () => {
    const key = await client().verifyKey();
    expect(key.id).toBe(org.keyId);
    expect(key.scopes).toEqual(expect.arrayContaining(['guides:read', 'teams:read', 'members:read']));
  });

  it('pages through next_cursor by itself: every guide once, newest first, over more than one page', async () => {
    const listed: (string | null)[] = [];
    for await (const guide of client().guides.list({ limit: 3 })) listed.push(guide.title);
    expect(listed).toEqual([...titles].reverse());
    const pages = [];
    for await (const page of client().guides.list({ limit: 3 }).pages()) pages.push(page.items.length);
    expect(pages).toEqual([3, 3, 1]);
  });

  it('searches titles and narrows to a team', async () => {
    const found = await client().guides.list({ q: 'reset', limit: 2 }).toArray();
    expect(found.map((guide) => guide.title)).toEqual(['Reset the router', 'Reset a token', 'Reset a password']);
    const inTeam = await client().guides.list({ team_id: org.teams[1].id }).toArray();
    expect(inTeam.map((guide) => guide.title)).toEqual(['Archive a report', 'Invite a colleague', 'Close the month']);
  });

  it('reads one guide by id and by permalink, the teams and a team’s members', async () => {
    const [newest] = await client().guides.list({ limit: 1 }).pages().next().then((page) => page.value!.items);
    const guide = await client().guides.get(newest!.id);
    expect(guide.title).toBe('Export invoices');
    expect((await client().guides.get(guide.permalink!)).id).toBe(guide.id);
    const teams = await client().teams.list();
    expect(teams.map((team) => team.id).sort()).toEqual(org.teams.map((team: { id: string }) => team.id).sort());
    const user = await live.t.admin('POST', '/users', { email: `ana.${Date.now()}@example.com`, name: 'Ana Lima' });
    await live.t.admin('PUT', `/teams/${org.teams[0].id}/members/${user.id}`, { role: 'EDITOR' });
    const members = await client().members.list({ team_id: org.teams[0].id });
    expect(members.map((member) => member.name)).toContain('Ana Lima');
  });

  it('a problem is a GuideServiceError with its code, status, detail, request id and the rate limit', async () => {
    const unknown = await failure(client().guides.get('no-such-guide'));
    expect(unknown).toMatchObject({ code: 'not_found', status: 404 });
    expect(unknown.requestId).toMatch(/\S/);
    expect(unknown.problem?.request_id).toBe(unknown.requestId);
    expect(unknown.rateLimit).toMatchObject({ limit: expect.any(Number), remaining: expect.any(Number), resetSeconds: expect.any(Number) });

    const badKey = await failure(client('gsk_not_a_key_at_all').verifyKey());
    expect(badKey).toMatchObject({ code: 'invalid_key', status: 401 });

    const tooShort = await failure(client().guides.list({ q: 'x' }).toArray());
    expect(tooShort).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(tooShort.detail).toContain('q');

    const { key } = await soloTeam(live.t, 'free', ['guides:read']);
    const noScope = await failure(client(key).teams.list());
    expect(noScope).toMatchObject({ code: 'scope_missing', status: 403 });
  });

  it('error codes are a closed union: a switch over them can be exhaustive', () => {
    // Compiled by `npm run typecheck`: a code the union gains or loses breaks this function.
    const advice = (code: ErrorCode): string => {
      switch (code) {
        case 'rate_limited':
        case 'too_many_waits':
        case 'service_unavailable':
        case 'bad_gateway':
        case 'gateway_timeout':
        case 'idempotency_key_in_use':
        case 'network_error':
        case 'timeout':
          return 'retry later';
        case 'invalid_key':
        case 'key_expired':
        case 'scope_missing':
        case 'api_disabled':
        case 'team_keys_disabled':
        case 'forbidden':
          return 'fix the key';
        case 'invalid_request':
        case 'cursor_expired':
        case 'not_found':
        case 'method_not_allowed':
        case 'conflict':
        case 'idempotency_key_reused':
        case 'limit_reached':
        case 'payload_too_large':
        case 'unsupported_media_type':
        case 'expectation_failed':
        case 'request_timeout':
        case 'headers_too_large':
          return 'fix the request';
        case 'internal_error':
          return 'report it';
        default: {
          const unhandled: never = code;
          return unhandled;
        }
      }
    };
    expect(advice('cursor_expired')).toBe('fix the request');
  });

  it('a 429 the service answers ends the call at once when its Retry-After is beyond the cap, with the rate limit spent', async () => {
    const limited = await startLiveService({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const team = await soloTeam(limited.t);
      const sdk = new GuideService({ apiKey: team.key, baseUrl: limited.baseUrl, maxRetryDelayMs: 1_000 });
      await sdk.teams.list();
      await sdk.teams.list();
      const started = Date.now();
      const refused = await failure(sdk.teams.list());
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(refused).toMatchObject({ code: 'rate_limited', status: 429, rateLimit: { limit: 2, remaining: 0 } });
      expect(sdk.rateLimit).toEqual(refused.rateLimit);
    } finally {
      await limited.t.close();
    }
  });
});

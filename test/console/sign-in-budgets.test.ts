// Sign-in link budgets (decisions §10, issue 32): a person's links are counted per asking client address
// (five in 15 minutes), and all of a person's links together are capped (30 an hour), above what one
// address can reach, so that nobody can keep a person out of the console from one address. Links
// already sent stay valid. The answer is the same whatever happens; what became of a request is read from
// its log line (matched by request id), so a test knows a request was handled without waiting on a clock.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_WINDOW_MS, LINKS_PER_ADDRESS, LINKS_PER_PERSON, PERSON_WINDOW_MS } from '../../src/auth/sign-in-links.js';
import { createUser, uniqueEmail } from '../http/admin/helpers.js';
import { startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { consolePost, sessionOf } from './sessions.js';

interface Logged {
  s: TestService;
  lines: string[];
}

let main: Logged;
/** The one answer every request gets, whoever asks for whom. */
let theAnswer: string;

beforeAll(async () => {
  const lines: string[] = [];
  main = { s: await startTestService({}, { logLines: lines }), lines };
  theAnswer = (await post(main, uniqueEmail('nobody'), '192.0.2.250')).body;
});
afterAll(async () => main?.s.close());

type Outcome = 'sent' | 'unknown_address' | 'throttled: address' | 'throttled: person';

function post(on: Logged, email: string, remoteAddress: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return on.s.service.app.inject({
    method: 'POST',
    url: '/console/api/sign-in-links',
    remoteAddress,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ email }),
  });
}

/**
 * Asks for a link for `email` from the client `remoteAddress`; checks the answer is the usual 202, waits
 * until the service has handled the request (its log line) and says what became of it.
 */
async function ask(email: string, remoteAddress: string, options: { on?: Logged; headers?: Record<string, string> } = {}): Promise<Outcome> {
  const on = options.on ?? main;
  const response = await post(on, email, remoteAddress, options.headers);
  expect(response.statusCode, response.body).toBe(202);
  expect(response.body).toBe(theAnswer);
  const requestId = response.headers['x-request-id'];
  const line = await eventually(`the log line of request ${requestId}`, () =>
    on.lines.map((text) => JSON.parse(text)).find((entry) => entry.request_id === requestId && entry.sign_in_link_outcome !== undefined),
  );
  return (line.sign_in_link_outcome === 'throttled' ? `throttled: ${line.sign_in_link_budget}` : line.sign_in_link_outcome) as Outcome;
}

async function askTimes(times: number, email: string, remoteAddress: string, options: { on?: Logged; headers?: Record<string, string> } = {}) {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < times; i++) outcomes.push(await ask(email, remoteAddress, options));
  return outcomes;
}

/**
 * The tokens of every sign-in link mailed to `email`, oldest first: the outbox keeps the text to send, for
 * an hour at most (null after that).
 */
async function mailedTokens(s: TestService, email: string): Promise<(string | null)[]> {
  const rows = await s.service.ctx.db
    .selectFrom('mail_outbox')
    .select(['recipients', 'send_text'])
    .where('subject', '=', 'Your sign-in link')
    .orderBy('seq', 'asc')
    .execute();
  return rows
    .filter((row) => (JSON.parse(row.recipients) as string[]).includes(email))
    .map((row) => (row.send_text === null ? null : /\/console\/#\/sign-in\/([A-Za-z0-9_-]{43})/.exec(row.send_text)![1]!));
}

async function signsIn(s: TestService, token: string, userId: string): Promise<void> {
  const session = sessionOf(await consolePost(s, '/session', { token }));
  expect(session.whoami.user.id).toBe(userId);
}

const times = (n: number, outcome: Outcome) => Array<Outcome>(n).fill(outcome);

describe('the budget per asking address', () => {
  it("five links for a person spend that address's budget; another address still gets the person a link, which signs in", async () => {
    const bob = await createUser(main.s, { name: 'Bob' });
    expect(await askTimes(LINKS_PER_ADDRESS + 1, bob.email, '198.51.100.1')).toEqual([...times(5, 'sent'), 'throttled: address']);
    expect(await ask(bob.email, '198.51.100.2')).toBe('sent');
    const tokens = await mailedTokens(main.s, bob.email);
    expect(tokens).toHaveLength(6);
    await signsIn(main.s, tokens[5]!, bob.id);
    // The window slides: 15 minutes after its links, the first address may ask again.
    main.s.clock.advance(ADDRESS_WINDOW_MS);
    expect(await ask(bob.email, '198.51.100.1')).toBe('sent');
    expect(await mailedTokens(main.s, bob.email)).toHaveLength(7);
  });

  it("one address's budget is per person: it does not stop that address from getting links for somebody else", async () => {
    const bob = await createUser(main.s);
    const ann = await createUser(main.s);
    expect(await askTimes(6, bob.email, '198.51.100.3')).toEqual([...times(5, 'sent'), 'throttled: address']);
    expect(await ask(ann.email, '198.51.100.3')).toBe('sent');
  });

  it("an IPv6 client's budget is its /64's; an IPv4-mapped address is its IPv4 address", async () => {
    const bob = await createUser(main.s);
    const outcomes = [];
    for (let i = 1; i <= 6; i++) outcomes.push(await ask(bob.email, `2001:db8:5:6::${i}`));
    expect(outcomes).toEqual([...times(5, 'sent'), 'throttled: address']);
    expect(await ask(bob.email, '2001:db8:5:6:ffff:ffff:ffff:ffff')).toBe('throttled: address');
    expect(await ask(bob.email, '2001:db8:5:7::1')).toBe('sent');

    const ann = await createUser(main.s);
    expect(await askTimes(5, ann.email, '198.51.100.77')).toEqual(times(5, 'sent'));
    expect(await ask(ann.email, '::ffff:198.51.100.77')).toBe('throttled: address');
  });

  it("behind a trusted proxy the budget is the forwarded client's, not the proxy's; an untrusted X-Forwarded-For changes nothing", async () => {
    const lines: string[] = [];
    const proxied = { s: await startTestService({ TRUST_PROXY: 'true' }, { logLines: lines }), lines };
    try {
      const bob = await createUser(proxied.s);
      const from = (client: string) => ({ on: proxied, headers: { 'x-forwarded-for': client } });
      expect(await askTimes(6, bob.email, '10.0.0.1', from('203.0.113.5'))).toEqual([...times(5, 'sent'), 'throttled: address']);
      expect(await ask(bob.email, '10.0.0.1', from('203.0.113.6'))).toBe('sent');
    } finally {
      await proxied.s.close();
    }

    const ann = await createUser(main.s);
    const outcomes = [];
    for (let i = 1; i <= 6; i++) outcomes.push(await ask(ann.email, '198.51.100.4', { headers: { 'x-forwarded-for': `203.0.113.${i}` } }));
    expect(outcomes).toEqual([...times(5, 'sent'), 'throttled: address']);
  });
});

describe('the cap per person', () => {
  it("one address cannot spend a person's cap: asking from it as fast as it may for over an hour never stops links from other addresses", async () => {
    const bob = await createUser(main.s);
    const rounds = PERSON_WINDOW_MS / ADDRESS_WINDOW_MS + 2; // 0 to 75 minutes
    for (let round = 0; round < rounds; round++) {
      if (round > 0) main.s.clock.advance(ADDRESS_WINDOW_MS);
      expect(await askTimes(LINKS_PER_ADDRESS + 1, bob.email, '203.0.113.66'), `round ${round}`).toEqual([...times(5, 'sent'), 'throttled: address']);
      expect(await ask(bob.email, `198.51.100.${10 + round}`), `round ${round}`).toBe('sent');
    }
    const tokens = await mailedTokens(main.s, bob.email);
    expect(tokens).toHaveLength(rounds * (LINKS_PER_ADDRESS + 1));
    await signsIn(main.s, tokens.at(-1)!, bob.id);
  });

  it('many addresses together get a person at most 30 links an hour; the cap frees as the hour slides', async () => {
    const bob = await createUser(main.s);
    for (let i = 1; i <= LINKS_PER_PERSON; i++) {
      expect(await ask(bob.email, `10.20.0.${i}`), `link ${i}`).toBe('sent');
      main.s.clock.advance(60_000);
    }
    // Thirty links in the last 30 minutes: a new address, with its own budget whole, gets nothing.
    expect(await ask(bob.email, '10.20.1.1')).toBe('throttled: person');
    expect(await mailedTokens(main.s, bob.email)).toHaveLength(LINKS_PER_PERSON);
    // An hour after the first link, that one no longer counts: one more may be sent, not two.
    main.s.clock.advance(PERSON_WINDOW_MS - LINKS_PER_PERSON * 60_000);
    expect(await ask(bob.email, '10.20.1.2')).toBe('sent');
    expect(await ask(bob.email, '10.20.1.3')).toBe('throttled: person');
    // An hour later still, links are sent again.
    main.s.clock.advance(PERSON_WINDOW_MS);
    expect(await ask(bob.email, '10.20.1.3')).toBe('sent');
    const tokens = await mailedTokens(main.s, bob.email);
    expect(tokens).toHaveLength(LINKS_PER_PERSON + 2);
    await signsIn(main.s, tokens.at(-1)!, bob.id);
  });
});

describe('links already sent', () => {
  it('a link sent before its address and its person spent their budgets still signs in', async () => {
    const bob = await createUser(main.s);
    expect(await ask(bob.email, '192.0.2.1')).toBe('sent');
    const [first] = await mailedTokens(main.s, bob.email);
    expect(await askTimes(LINKS_PER_ADDRESS, bob.email, '192.0.2.1')).toEqual([...times(4, 'sent'), 'throttled: address']);
    for (let i = 1; i <= LINKS_PER_PERSON - LINKS_PER_ADDRESS; i++) expect(await ask(bob.email, `10.30.0.${i}`)).toBe('sent');
    expect(await ask(bob.email, '10.30.1.1')).toBe('throttled: person');
    await signsIn(main.s, first!, bob.id);
  });
});

// Signing people in to the console the way a browser does (an e-mailed link, a cookie, a CSRF token), and
// calling the management API as them.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';

export interface ConsoleSession {
  cookie: string;
  csrf: string;
  whoami: any;
}

// Per address, the newest outbox row when a link was last asked for: the link is recorded after the
// answer (its timing must not tell whether the address is known), so the mail is awaited past that row.
const askedAfter = new Map<string, number>();

async function newestMailSeq(t: TestService): Promise<number> {
  const row = await t.service.ctx.db.selectFrom('mail_outbox').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/**
 * The token of the sign-in link mailed to `email` since it was last asked for: the text the mail server
 * would get, which only the outbox row holds (the management API shows the link redacted).
 */
export async function mailedLinkToken(t: TestService, email: string): Promise<string> {
  const after = askedAfter.get(email.toLowerCase()) ?? 0;
  const latest = await eventually(`a sign-in link mailed to ${email}`, async () => {
    const rows = await t.service.ctx.db
      .selectFrom('mail_outbox')
      .select(['recipients', 'send_text'])
      .where('subject', '=', 'Your sign-in link')
      .where('seq', '>', after)
      .orderBy('seq', 'desc')
      .execute();
    return rows.find((row) => (JSON.parse(row.recipients) as string[]).some((to) => to.toLowerCase() === email.toLowerCase()));
  });
  const match = /\/console\/#\/sign-in\/([A-Za-z0-9_-]+)/.exec(latest.send_text ?? '');
  if (!match) throw new Error(`no link in: ${latest.send_text}`);
  return match[1]!;
}

export function consolePost(t: TestService, path: string, body: unknown, headers: Record<string, string> = {}) {
  return t.service.app.inject({
    method: 'POST',
    url: `/console/api${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
}

export async function requestLink(t: TestService, email: string) {
  askedAfter.set(email.toLowerCase(), await newestMailSeq(t));
  return consolePost(t, '/sign-in-links', { email });
}

export function sessionOf(response: LightMyRequestResponse): ConsoleSession {
  expect(response.statusCode, response.body).toBe(200);
  const setCookie = String(response.headers['set-cookie']);
  const cookie = setCookie.split(';')[0]!;
  return { cookie, csrf: response.json().data.csrf_token, whoami: response.json().data };
}

/** Signs the user with this address in by e-mail link. */
export async function signIn(t: TestService, email: string): Promise<ConsoleSession> {
  expect((await requestLink(t, email)).statusCode).toBe(202);
  return sessionOf(await consolePost(t, '/session', { token: await mailedLinkToken(t, email) }));
}

/** A management API call with the session's cookie, and its CSRF token unless told otherwise. */
export function asSession(
  t: TestService,
  session: ConsoleSession,
  method: string,
  path: string,
  body?: unknown,
  options: { csrf?: string | null } = {},
): Promise<LightMyRequestResponse> {
  const csrf = options.csrf === undefined ? session.csrf : options.csrf;
  return t.service.app.inject({
    method: method as 'GET',
    url: `/admin/v1${path}`,
    headers: {
      cookie: session.cookie,
      ...(csrf === null ? {} : { 'x-csrf-token': csrf }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
}

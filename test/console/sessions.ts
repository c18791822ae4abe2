// Signing people in to the console the way a browser does (an e-mailed link, a cookie, a CSRF token), and
// calling the management API as them.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestService } from '../support/service.js';

export interface ConsoleSession {
  cookie: string;
  csrf: string;
  whoami: any;
}

/** The token of the newest sign-in link mailed to `email`, read from the mail outbox. */
export async function mailedLinkToken(t: TestService, email: string): Promise<string> {
  const mail: any[] = await t.admin('GET', '/mail');
  const latest = mail.find((entry) => entry.to.includes(email) && entry.subject === 'Your sign-in link');
  if (!latest) throw new Error(`no sign-in link was mailed to ${email}`);
  const match = /\/console\/#\/sign-in\/([A-Za-z0-9_-]+)/.exec(latest.text);
  if (!match) throw new Error(`no link in: ${latest.text}`);
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

export function requestLink(t: TestService, email: string) {
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

// Sign-in to the console (issue 6): e-mailed links that work once and expire, an HttpOnly SameSite
// cookie (Secure over https), CSRF tokens on writes, the operator's sign-in with the admin token.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_LINK_TTL_MS } from '../../src/auth/sign-in-links.js';
import { pruneOldDeliveries } from '../../src/webhooks/pruning.js';
import { createUser, expectProblem, uniqueEmail } from '../http/admin/helpers.js';
import { ADMIN_TOKEN, startTestService, type TestService, useTestService } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';
import { eventually, sleep } from '../support/waiting.js';
import { asSession, consolePost, mailedLinkToken, requestLink, sessionOf, signIn } from './sessions.js';

const t = useTestService();

describe('sign-in links', () => {
  it('a link mailed to a user signs them in once; the second use is refused', async () => {
    const user = await createUser(t, { name: 'Ana' });
    expect((await requestLink(t, user.email)).statusCode).toBe(202);
    const token = await mailedLinkToken(t, user.email);
    const first = sessionOf(await consolePost(t, '/session', { token }));
    expect(first.whoami.user).toEqual({ id: user.id, email: user.email, name: 'Ana' });
    expect(first.whoami.operator).toBe(false);
    const again = await consolePost(t, '/session', { token });
    expectProblem(again, 400, 'invalid_request');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('the link points into the console at APP_URL and says how long it works', async () => {
    const user = await createUser(t);
    await requestLink(t, user.email);
    const rows = await t.service.ctx.db.selectFrom('mail_outbox').select('send_text').orderBy('seq', 'desc').limit(1).execute();
    expect(rows[0]!.send_text).toMatch(/^http:\/\/api\.test\/console\/#\/sign-in\/[A-Za-z0-9_-]{43}$/m);
    expect(rows[0]!.send_text).toContain('within 15 minutes');
  });

  it('the outbox API shows a sign-in link redacted, so the admin token cannot sign in as anyone', async () => {
    const user = await createUser(t);
    await requestLink(t, user.email);
    const token = await mailedLinkToken(t, user.email);
    const mail: any[] = await t.admin('GET', '/mail');
    expect(mail[0].to).toEqual([user.email]);
    expect(mail[0].text).toContain('http://api.test/console/#/sign-in/[redacted]');
    expect(JSON.stringify(mail)).not.toContain(token);
  });

  it("a sign-in mail's whole text is kept only until it is sent, or an hour when it cannot be", async () => {
    const user = await createUser(t);
    await requestLink(t, user.email);
    const token = await mailedLinkToken(t, user.email);
    t.clock.advance(61 * 60_000);
    await pruneOldDeliveries(t.service.ctx);
    const kept = await t.service.ctx.db.selectFrom('mail_outbox').selectAll().execute();
    expect(JSON.stringify(kept)).not.toContain(token);
  });

  it('a link expires after 15 minutes', async () => {
    const user = await createUser(t);
    await requestLink(t, user.email);
    const token = await mailedLinkToken(t, user.email);
    t.clock.advance(SIGN_IN_LINK_TTL_MS + 1000);
    expectProblem(await consolePost(t, '/session', { token }), 400, 'invalid_request');
  });

  it('an unknown address gets the same answer and no mail', async () => {
    const before = (await t.admin('GET', '/mail')).length;
    const unknown = await requestLink(t, uniqueEmail('nobody'));
    const email = (await createUser(t)).email;
    const known = await requestLink(t, email);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    await mailedLinkToken(t, email);
    expect((await t.admin('GET', '/mail')).length).toBe(before + 1);
  });

  it("a known address is answered without waiting for its link to be written, so timing tells nothing", async () => {
    // The store is kept busy by another connection: an answer that waited for the link's write could
    // not come (on SQLite until the busy time-out, then as a fault). Unknown addresses write nothing.
    const dir = mkdtempSync(join(tmpdir(), 'sign-in-busy-'));
    const s = usingPostgres ? t : await startTestService({ DATABASE_URL: `file:${join(dir, 'store.db')}` });
    const email = (await createUser(s)).email;
    const release = await holdWrites(s, join(dir, 'store.db'));
    try {
      const answer = await Promise.race([requestLink(s, email), sleep(3000).then(() => null)]);
      expect(answer?.statusCode, 'answered while the store was busy').toBe(202);
    } finally {
      await release();
    }
    expect(await mailedLinkToken(s, email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (s !== t) await s.close();
  });

  it('the address is matched ignoring case', async () => {
    const user = await createUser(t);
    await requestLink(t, user.email.toUpperCase());
    expect(await mailedLinkToken(t, user.email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('from one client address, a person gets at most five links in 15 minutes; the answer does not change', async () => {
    const user = await createUser(t);
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await requestLink(t, user.email));
    expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`)).size).toBe(1);
    const mailedTo = async () => ((await t.admin('GET', '/mail?limit=500')) as any[]).filter((entry) => entry.to.includes(user.email)).length;
    await eventually('five links mailed', async () => (await mailedTo()) >= 5);
    await sleep(200);
    expect(await mailedTo()).toBe(5);
  });

  it('an address with a NUL or another control character is a 400 naming the field, never a 500', async () => {
    for (const email of ['a\u0000b@example.com', 'a\nb@example.com']) {
      const response = await requestLink(t, email);
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toContain('email');
    }
  });

  it('a made-up token is refused', async () => {
    expectProblem(await consolePost(t, '/session', { token: 'x'.repeat(43) }), 400, 'invalid_request');
    expectProblem(await consolePost(t, '/session', { token: 'short' }), 400, 'invalid_request');
  });

  it('a sign-in from another origin is refused', async () => {
    const user = await createUser(t);
    await requestLink(t, user.email);
    const token = await mailedLinkToken(t, user.email);
    expectProblem(await consolePost(t, '/session', { token }, { origin: 'https://evil.example' }), 403, 'forbidden');
    sessionOf(await consolePost(t, '/session', { token }, { origin: 'http://localhost:80' }));
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict, Path=/, not Secure over http, and lasts 12 hours', async () => {
    const user = await createUser(t);
    await requestLink(t, user.email);
    const response = await consolePost(t, '/session', { token: await mailedLinkToken(t, user.email) });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Max-Age=${12 * 3600}`);
    expect(cookie).not.toContain('Secure');
  });

  it('is Secure behind a proxy that says https, when TRUST_PROXY believes it', async () => {
    const proxied = await startTestService({ TRUST_PROXY: 'true' });
    try {
      const response = await proxied.service.app.inject({
        method: 'POST',
        url: '/console/api/session/operator',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        payload: JSON.stringify({ admin_token: ADMIN_TOKEN }),
      });
      expect(String(response.headers['set-cookie'])).toMatch(/; Secure$/);
    } finally {
      await proxied.close();
    }
  });

  it('is not made Secure by an X-Forwarded-Proto that nobody trusts', async () => {
    const response = await consolePost(t, '/session/operator', { admin_token: ADMIN_TOKEN }, { 'x-forwarded-proto': 'https' });
    expect(String(response.headers['set-cookie'])).not.toContain('Secure');
  });

  it('who am I answers with the session and its CSRF token; without a cookie it is 401', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const response = await t.service.app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie: session.cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.csrf_token).toBe(session.csrf);
    expectProblem(await t.service.app.inject({ method: 'GET', url: '/console/api/session' }), 401, 'invalid_key');
  });

  it('expires after 12 hours', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    expect((await asSession(t, session, 'GET', `/users/${user.id}`)).statusCode).toBe(200);
    t.clock.advance(12 * 3_600_000 + 1000);
    expectProblem(await asSession(t, session, 'GET', `/users/${user.id}`), 401, 'invalid_key');
  });

  it('signing out ends the session and clears the cookie', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const out = await t.service.app.inject({
      method: 'DELETE',
      url: '/console/api/session',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
    });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^console_session=; .*Max-Age=0/);
    expectProblem(await asSession(t, session, 'GET', `/users/${user.id}`), 401, 'invalid_key');
  });

  it('signing out without the CSRF token is refused', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email);
    const out = await t.service.app.inject({ method: 'DELETE', url: '/console/api/session', headers: { cookie: session.cookie } });
    expectProblem(out, 403, 'forbidden');
    expect((await asSession(t, session, 'GET', `/users/${user.id}`)).statusCode).toBe(200);
  });
});

describe('CSRF', () => {
  it('a write with the session cookie but without the CSRF token is 403 forbidden and changes nothing', async () => {
    const { session, team } = await teamAdminSession();
    const response = await asSession(t, session, 'POST', '/api-keys', keyBody(team.id), { csrf: null });
    expectProblem(response, 403, 'forbidden');
    expect(response.json().detail).toContain('X-CSRF-Token');
    expect(await t.admin('GET', `/api-keys?home_type=team&home_id=${team.id}`)).toEqual([]);
  });

  it("another session's CSRF token is refused", async () => {
    const { session, team } = await teamAdminSession();
    const other = await signIn(t, (await createUser(t)).email);
    expectProblem(await asSession(t, session, 'POST', '/api-keys', keyBody(team.id), { csrf: other.csrf }), 403, 'forbidden');
  });

  it('with the token the same write succeeds; reads need no token', async () => {
    const { session, team } = await teamAdminSession();
    expect((await asSession(t, session, 'POST', '/api-keys', keyBody(team.id))).statusCode).toBe(201);
    expect((await asSession(t, session, 'GET', `/api-keys?home_type=team&home_id=${team.id}`, undefined, { csrf: null })).statusCode).toBe(200);
  });

  async function teamAdminSession() {
    const team = await t.admin('POST', '/teams', { name: 'CSRF team' });
    const user = await createUser(t);
    await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'ADMIN' });
    return { team, session: await signIn(t, user.email) };
  }
});

const keyBody = (teamId: string) => ({ home: { type: 'team', id: teamId }, name: 'k', scopes: ['guides:read'], expires_in_days: 30 });

describe('the operator', () => {
  it('signs in with the admin token and may then do everything, with the CSRF token', async () => {
    const session = sessionOf(await consolePost(t, '/session/operator', { admin_token: ADMIN_TOKEN }));
    expect(session.whoami.operator).toBe(true);
    expect(session.whoami.user).toBeNull();
    expect((await asSession(t, session, 'POST', '/organizations', { name: 'By console' })).statusCode).toBe(201);
    expectProblem(await asSession(t, session, 'POST', '/organizations', { name: 'No token' }, { csrf: null }), 403, 'forbidden');
    expect((await asSession(t, session, 'GET', '/mail')).statusCode).toBe(200);
  });

  it('once an address has spent its budget of wrong tokens, even the right one is refused until the window ends', async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const wrong = () => consolePost(limited, '/session/operator', { admin_token: 'a-guess' });
      for (let i = 0; i < 3; i++) expectProblem(await wrong(), 401, 'invalid_key');
      expectProblem(await wrong(), 429, 'rate_limited');
      const right = await consolePost(limited, '/session/operator', { admin_token: ADMIN_TOKEN });
      expectProblem(right, 429, 'rate_limited');
      expect(right.headers['set-cookie']).toBeUndefined();
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      // The management API's bearer shares the budget.
      expectProblem(await limited.adminRaw('GET', '/mail'), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it("guessing through the management API's bearer spends the same budget as the console's sign-in", async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      for (let i = 0; i < 3; i++) await limited.adminRaw('GET', '/mail', undefined, 'a-guess');
      expectProblem(await consolePost(limited, '/session/operator', { admin_token: ADMIN_TOKEN }), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it("changing ADMIN_TOKEN ends the operator's sessions; people's sessions go on", async () => {
    const env = { DATABASE_URL: `file:${join(mkdtempSync(join(tmpdir(), 'console-sessions-')), 'service.db')}` };
    const before = await startTestService(env);
    let operator;
    let person;
    let userId;
    try {
      operator = sessionOf(await consolePost(before, '/session/operator', { admin_token: ADMIN_TOKEN }));
      userId = (await createUser(before)).id;
      person = await signIn(before, (await before.admin('GET', `/users/${userId}`)).email);
    } finally {
      await before.close();
    }
    const after = await startTestService({ ...env, ADMIN_TOKEN: 'a-new-admin-token-after-a-leak' });
    try {
      expectProblem(await asSession(after, operator, 'GET', '/mail'), 401, 'invalid_key');
      expect((await asSession(after, person, 'GET', `/users/${userId}`)).statusCode).toBe(200);
    } finally {
      await after.close();
    }
    const same = await startTestService(env);
    try {
      expect((await asSession(same, operator, 'GET', '/mail')).statusCode).toBe(200);
    } finally {
      await same.close();
    }
  });

  it('a wrong admin token is 401 invalid_key and sets no cookie', async () => {
    const response = await consolePost(t, '/session/operator', { admin_token: 'not-the-token-at-all' });
    expectProblem(response, 401, 'invalid_key');
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

describe('the log', () => {
  it('without SMTP_URL the sign-in link is logged at info level; session tokens never are', async () => {
    const lines: string[] = [];
    const logged = await startTestService({}, { logLines: lines });
    try {
      const user = await logged.admin('POST', '/users', { email: uniqueEmail() });
      await requestLink(logged, user.email);
      const token = await mailedLinkToken(logged, user.email);
      const entry = lines.map((line) => JSON.parse(line)).find((line) => line.sign_in_link);
      expect(entry.level).toBe(30);
      expect(entry.sign_in_link).toBe(`http://api.test/console/#/sign-in/${token}`);
      const session = sessionOf(await consolePost(logged, '/session', { token }));
      await asSession(logged, session, 'GET', `/users/${user.id}`);
      const sessionToken = session.cookie.split('=')[1]!;
      expect(lines.join('\n')).not.toContain(sessionToken);
      expect(lines.join('\n')).not.toContain(session.csrf);
    } finally {
      await logged.close();
    }
  });

  it('with SMTP_URL the link is not logged', async () => {
    const lines: string[] = [];
    const logged = await startTestService({ SMTP_URL: 'smtp://127.0.0.1:1' }, { logLines: lines });
    try {
      const user = await logged.admin('POST', '/users', { email: uniqueEmail() });
      await requestLink(logged, user.email);
      const token = await mailedLinkToken(logged, user.email);
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      await logged.close();
    }
  });
});

/** Holds the sign-in links' table against writes from another connection until the returned release. */
async function holdWrites(s: TestService, sqliteFile: string): Promise<() => Promise<void>> {
  if (s.service.store.pool) {
    const client = await s.service.store.pool.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE sign_in_links IN EXCLUSIVE MODE');
    return async () => {
      await client.query('ROLLBACK');
      client.release();
    };
  }
  const other = new SQLite(sqliteFile);
  other.exec('BEGIN IMMEDIATE');
  return async () => {
    other.exec('ROLLBACK');
    other.close();
  };
}

// Console sessions: a random token in an HttpOnly cookie, stored as its hash, with a CSRF token the
// console sends back on every write. A session lasts SESSION_TTL_MS from sign-in; signing out ends it.
import { timestamp } from '../domain/clock.js';
import type { DomainContext } from '../domain/context.js';
import { hashConsoleToken, isConsoleTokenShaped, newConsoleToken, sameSecret } from './console-tokens.js';

export const SESSION_TTL_MS = 12 * 3_600_000;

export interface ConsoleSession {
  /** null for the operator, signed in with the admin token. */
  userId: string | null;
  csrfToken: string;
  expiresAt: string;
}

export async function startSession(ctx: DomainContext, userId: string | null): Promise<{ token: string; session: ConsoleSession }> {
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('console_sessions').where('expires_at', '<=', timestamp(now)).execute();
  const token = newConsoleToken();
  const session = { userId, csrfToken: newConsoleToken(), expiresAt: timestamp(new Date(now.getTime() + SESSION_TTL_MS)) };
  await ctx.db
    .insertInto('console_sessions')
    .values({ token_hash: hashConsoleToken(token), user_id: userId, csrf_token: session.csrfToken, created_at: timestamp(now), expires_at: session.expiresAt })
    .execute();
  return { token, session };
}

/** The live session a cookie token names, or null. */
export async function findSession(ctx: DomainContext, token: string): Promise<ConsoleSession | null> {
  if (!isConsoleTokenShaped(token)) return null;
  const row = await ctx.db
    .selectFrom('console_sessions')
    .select(['user_id', 'csrf_token', 'expires_at'])
    .where('token_hash', '=', hashConsoleToken(token))
    .where('expires_at', '>', timestamp(ctx.clock.now()))
    .executeTakeFirst();
  return row ? { userId: row.user_id, csrfToken: row.csrf_token, expiresAt: row.expires_at } : null;
}

export async function endSession(ctx: DomainContext, token: string): Promise<void> {
  if (!isConsoleTokenShaped(token)) return;
  await ctx.db.deleteFrom('console_sessions').where('token_hash', '=', hashConsoleToken(token)).execute();
}

/** Whether an X-CSRF-Token header carries the session's token. */
export function carriesCsrfToken(header: string | string[] | undefined, session: ConsoleSession): boolean {
  return typeof header === 'string' && sameSecret(header, session.csrfToken);
}

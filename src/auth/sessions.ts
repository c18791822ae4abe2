// Console sessions: a random token in an HttpOnly cookie, stored as its hash, with a CSRF token the
// console sends back on every write. A session lasts SESSION_TTL_MS from sign-in; signing out ends it.
// An operator session's token is stored as its HMAC under the admin token, so changing ADMIN_TOKEN (after
// a leak, say) ends every operator session at once; a person's is stored as its SHA-256.
import { createHmac } from 'node:crypto';
import { timestamp } from '../domain/clock.js';
import { recordAudit } from '../domain/audit.js';
import { type DomainContext, transact } from '../domain/context.js';
import { hashConsoleToken, isConsoleTokenShaped, newConsoleToken, sameSecret } from './tokens.js';

export const SESSION_TTL_MS = 12 * 3_600_000;

export interface ConsoleSession {
  /** null for the operator, signed in with the admin token. */
  userId: string | null;
  csrfToken: string;
  expiresAt: string;
}

/** The stored hash of a person's session token, and of an operator's (keyed with the admin token). */
function tokenHashes(token: string, adminToken: string): { person: string; operator: string } {
  return { person: hashConsoleToken(token), operator: createHmac('sha256', adminToken).update(token).digest('hex') };
}

export async function startSession(ctx: DomainContext, userId: string | null, adminToken: string): Promise<{ token: string; session: ConsoleSession }> {
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('console_sessions').where('expires_at', '<=', timestamp(now)).execute();
  const token = newConsoleToken();
  const session = { userId, csrfToken: newConsoleToken(), expiresAt: timestamp(new Date(now.getTime() + SESSION_TTL_MS)) };
  await transact(ctx, async (trx) => {
    await trx
      .insertInto('console_sessions')
      .values({ token_hash: tokenHashes(token, adminToken)[userId === null ? 'operator' : 'person'], user_id: userId, csrf_token: session.csrfToken, created_at: timestamp(now), expires_at: session.expiresAt })
      .execute();
    await recordAudit(ctx, trx, { action: 'session.signed_in', target: { type: 'session', id: null }, home: null });
  });
  return { token, session };
}

/** The live session a cookie token names, or null. */
export async function findSession(ctx: DomainContext, token: string, adminToken: string): Promise<ConsoleSession | null> {
  if (!isConsoleTokenShaped(token)) return null;
  const hashes = tokenHashes(token, adminToken);
  const rows = await ctx.db
    .selectFrom('console_sessions')
    .select(['token_hash', 'user_id', 'csrf_token', 'expires_at'])
    .where('token_hash', 'in', [hashes.person, hashes.operator])
    .where('expires_at', '>', timestamp(ctx.clock.now()))
    .execute();
  // An operator session counts only under its keyed hash, a person's only under the plain one.
  const row = rows.find((r) => r.token_hash === (r.user_id === null ? hashes.operator : hashes.person));
  return row ? { userId: row.user_id, csrfToken: row.csrf_token, expiresAt: row.expires_at } : null;
}

export async function endSession(ctx: DomainContext, token: string, adminToken: string): Promise<void> {
  if (!isConsoleTokenShaped(token)) return;
  const hashes = tokenHashes(token, adminToken);
  await ctx.db.deleteFrom('console_sessions').where('token_hash', 'in', [hashes.person, hashes.operator]).execute();
}

/** Whether an X-CSRF-Token header carries the session's token. */
export function carriesCsrfToken(header: string | string[] | undefined, session: ConsoleSession): boolean {
  return typeof header === 'string' && sameSecret(header, session.csrfToken);
}

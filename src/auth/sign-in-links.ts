// Sign-in by e-mail link: a person asks with their address, the service e-mails a link that works once,
// for SIGN_IN_LINK_TTL_MS. The answer never says whether the address belongs to anyone, and an address
// gets at most LINKS_PER_WINDOW links per window, so the form cannot be used to flood a mailbox.
import { timestamp } from '../domain/clock.js';
import { type DomainContext, transact } from '../domain/context.js';
import { queueMail } from '../mail/mail-outbox.js';
import { hashConsoleToken, isConsoleTokenShaped, newConsoleToken } from './tokens.js';

export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
const LINKS_PER_WINDOW = 5;
const THROTTLE_WINDOW_MS = 15 * 60_000;

/** Where a link token lands in the console: the fragment never reaches a server or a mail scanner's fetch. */
export function signInUrl(appUrl: string, token: string): string {
  return `${appUrl}/console/#/sign-in/${token}`;
}

export type LinkRequest = { outcome: 'sent'; link: string } | { outcome: 'unknown_address' } | { outcome: 'throttled' };

/** Queues a sign-in e-mail for the user with this address, in the transaction that records the link. */
export async function requestSignInLink(ctx: DomainContext, email: string): Promise<LinkRequest> {
  return transact(ctx, async (trx) => {
    const byEmail = trx.selectFrom('users').select(['id', 'email']).where('email_key', '=', email.trim().toLowerCase());
    // Requests for one address are recorded after their answers, side by side: the user's row is held
    // until commit so that they count each other's links (SQLite runs one writer at a time anyway).
    const user = await (ctx.dialect === 'postgres' ? byEmail.forUpdate() : byEmail).executeTakeFirst();
    if (!user) return { outcome: 'unknown_address' };
    const now = ctx.clock.now();
    await trx.deleteFrom('sign_in_links').where('expires_at', '<', timestamp(new Date(now.getTime() - THROTTLE_WINDOW_MS))).execute();
    const recent = await trx
      .selectFrom('sign_in_links')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id)
      .where('created_at', '>', timestamp(new Date(now.getTime() - THROTTLE_WINDOW_MS)))
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= LINKS_PER_WINDOW) return { outcome: 'throttled' };
    const token = newConsoleToken();
    await trx
      .insertInto('sign_in_links')
      .values({
        token_hash: hashConsoleToken(token),
        user_id: user.id,
        created_at: timestamp(now),
        expires_at: timestamp(new Date(now.getTime() + SIGN_IN_LINK_TTL_MS)),
        used_at: null,
      })
      .execute();
    const link = signInUrl(ctx.settings.appUrl, token);
    const minutes = SIGN_IN_LINK_TTL_MS / 60_000;
    await queueMail(
      trx,
      {
        to: [user.email],
        subject: 'Your sign-in link',
        text: `Sign in to the console with this link:\n\n${link}\n\nIt works once, within ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`,
        secrets: [token],
      },
      now,
    );
    return { outcome: 'sent', link };
  });
}

/** The user a link signs in, marking it used; null when it is unknown, used or expired. */
export async function consumeSignInLink(ctx: DomainContext, token: string): Promise<string | null> {
  if (!isConsoleTokenShaped(token)) return null;
  const now = timestamp(ctx.clock.now());
  // One conditional update: of two clicks racing, exactly one finds the link unused.
  const used = await ctx.db
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('token_hash', '=', hashConsoleToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return used?.user_id ?? null;
}

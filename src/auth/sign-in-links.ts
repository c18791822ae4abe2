// Sign-in by e-mail link: a person asks with their address, the service e-mails a link that works once,
// for SIGN_IN_LINK_TTL_MS. The answer never says whether the address belongs to anyone.
//
// Budgets (decisions §10, issue 32): the form must neither flood a mailbox nor let anybody keep a person
// out of the console by spending their links. So a person's links are counted per asking client address
// (LINKS_PER_ADDRESS per ADDRESS_WINDOW_MS), and all of a person's links together are capped
// (LINKS_PER_PERSON per PERSON_WINDOW_MS) above anything one address can reach. A link already sent stays
// valid whatever later requests do: using one never looks at budgets.
import { createHmac, hkdfSync } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { timestamp } from '../domain/clock.js';
import { type DomainContext, transact } from '../domain/context.js';
import { queueMail } from '../mail/mail-outbox.js';
import { hashConsoleToken, isConsoleTokenShaped, newConsoleToken } from './tokens.js';

export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** Links one asking address may get a person in any ADDRESS_WINDOW_MS (a sliding window). */
export const LINKS_PER_ADDRESS = 5;
export const ADDRESS_WINDOW_MS = 15 * 60_000;
/**
 * Links a person may get from all addresses together in any PERSON_WINDOW_MS (a sliding window).
 * It must stay above what one address can reach alone, or one address could still lock the person out:
 * in any hour one address gets at most LINKS_PER_ADDRESS × (hour / ADDRESS_WINDOW_MS) = 5 × 4 = 20 links,
 * so the cap is 30 (the specification asks for at least 20), which leaves at least 10 an hour to every
 * other address.
 */
export const LINKS_PER_PERSON = 30;
export const PERSON_WINDOW_MS = 60 * 60_000;

/** Where a link token lands in the console: the fragment never reaches a server or a mail scanner's fetch. */
export function signInUrl(appUrl: string, token: string): string {
  return `${appUrl}/console/#/sign-in/${token}`;
}

/** Which budget refused a link: the asking address's for this person, or the person's from all addresses. */
export type SpentBudget = 'address' | 'person';

export type LinkRequest = { outcome: 'sent'; link: string } | { outcome: 'unknown_address' } | { outcome: 'throttled'; budget: SpentBudget };

/**
 * Keeps a new link for the user, working for `ttlMs` from `now` (only its hash is kept), and answers its
 * token; `askedFrom` is the asker's hashed address, null for an invitation nobody asked for.
 */
export async function storeSignInLink(trx: Transaction<Database>, userId: string, now: Date, ttlMs: number, askedFrom: string | null): Promise<string> {
  const token = newConsoleToken();
  await trx
    .insertInto('sign_in_links')
    .values({
      token_hash: hashConsoleToken(token),
      user_id: userId,
      created_at: timestamp(now),
      expires_at: timestamp(new Date(now.getTime() + ttlMs)),
      used_at: null,
      asked_from_hash: askedFrom,
    })
    .execute();
  return token;
}

/**
 * The asker a client address stands for: an IPv4 address whole (an IPv4-mapped IPv6 one as IPv4), an IPv6
 * address by its /64, the network one subscriber gets and may pick addresses from at will; anything else
 * as it is.
 */
export function askerOf(clientAddress: string): string {
  const address = clientAddress.split('%')[0]!;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted
    ? `${address.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : address;
  const [head, tail] = hex.split('::') as [string, string | undefined];
  const before = head === '' ? [] : head.split(':');
  const after = tail === undefined || tail === '' ? [] : tail.split(':');
  const gap = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...gap, ...after].map((group) => parseInt(group, 16));
}

/**
 * What a link's row keeps of the address that asked for it: only equality matters, so a keyed hash
 * (HMAC-SHA256) of the asker, never the address. Keyed, because a plain SHA-256 of an IPv4 address is
 * undone by hashing all 2^32 of them; the key is derived from the service's cursor secret (kept in the
 * store, the same in every process) for this use only, so the sign-in links' rows alone name nobody's
 * address. The rows are deleted about an hour after they expire.
 */
function askerHash(ctx: DomainContext, clientAddress: string): string {
  let key = askerKeys.get(ctx.cursorSecret);
  if (key === undefined) {
    key = Buffer.from(hkdfSync('sha256', ctx.cursorSecret, Buffer.alloc(0), 'sign-in link asking address', 32));
    askerKeys.set(ctx.cursorSecret, key);
  }
  return createHmac('sha256', key).update(askerOf(clientAddress)).digest('hex');
}
const askerKeys = new WeakMap<Buffer, Buffer>();

/**
 * Queues a sign-in e-mail for the user with this address, in the transaction that records the link,
 * unless the budget of the client address asking (`request.ip`) for this person, or the person's own
 * budget, is spent.
 */
export async function requestSignInLink(ctx: DomainContext, email: string, clientAddress: string): Promise<LinkRequest> {
  const askedFrom = askerHash(ctx, clientAddress);
  return transact(ctx, async (trx) => {
    const byEmail = trx.selectFrom('users').select(['id', 'email']).where('email_key', '=', email.trim().toLowerCase());
    // Requests for one address are recorded after their answers, side by side: the user's row is held
    // until commit so that they count each other's links (SQLite runs one writer at a time anyway).
    const user = await (ctx.dialect === 'postgres' ? byEmail.forUpdate() : byEmail).executeTakeFirst();
    if (!user) return { outcome: 'unknown_address' };
    const now = ctx.clock.now();
    const ago = (ms: number) => timestamp(new Date(now.getTime() - ms));
    // A row is kept PERSON_WINDOW_MS past its expiry, so every link made within the person's window is
    // still counted (a link expires after it is made, whatever SIGN_IN_LINK_TTL_MS is).
    await trx.deleteFrom('sign_in_links').where('expires_at', '<', ago(PERSON_WINDOW_MS)).execute();
    // The person's links of the last hour: at most LINKS_PER_PERSON of them, since no more are made.
    const recent = await trx
      .selectFrom('sign_in_links')
      .select(['created_at', 'asked_from_hash'])
      .where('user_id', '=', user.id)
      .where('created_at', '>', ago(PERSON_WINDOW_MS))
      .execute();
    const addressWindowStart = ago(ADDRESS_WINDOW_MS);
    const fromThisAddress = recent.filter((link) => link.asked_from_hash === askedFrom && link.created_at > addressWindowStart).length;
    if (fromThisAddress >= LINKS_PER_ADDRESS) return { outcome: 'throttled', budget: 'address' };
    if (recent.length >= LINKS_PER_PERSON) return { outcome: 'throttled', budget: 'person' };
    const token = await storeSignInLink(trx, user.id, now, SIGN_IN_LINK_TTL_MS, askedFrom);
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

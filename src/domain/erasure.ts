// Erasure of a person (shared decisions §10, issue 33): they leave every team and every organization-admin
// role, with the usual member.left events naming no one, their sessions and sign-in links end, and
// afterwards no stored row holds their e-mail address or name. Their users row stays, blanked, so that
// the opaque id other rows refer to (guides' owner, events' user_id, the audit log) stays valid.
//
// What is stored where, and what erasure does to it:
// - users: e-mail and e-mail key become erasedEmail(id), name and avatar null. Guides keep owner_id;
//   their owner_name is read from the users row, so it is null from now on.
// - memberships, organization_admins, console_sessions, sign_in_links: their rows are deleted.
// - mail_outbox: mail to them alone is deleted; they are taken off the recipients of other mail; their
//   address and name are replaced wherever a subject or text holds them.
// - events (the feed, redelivery and the Deliveries list's request bodies all read events.payload): in
//   every payload, an object whose user_id is theirs gets erasedEmail(id) as email and null as name.
//   The delivery attempts of such an event get their address and name replaced in the answer the
//   receiver gave (a receiver may echo the body).
// Everything but the events is one transaction. The events are rewritten after it, in batches of their
// own, found by the user id that erasure keeps: a call that stops half-way (a restart, a store fault)
// leaves the person erased but some old payloads naming them, and the next call, which finds the person
// erased already, finishes the rewrite. So the call answers only once all of it is done, and calling it
// again is always safe. Last, the store leaves no older copy of what was deleted or rewritten (secure
// deletion and an emptied log on the embedded store, VACUUM on PostgreSQL: Store.purgeDeleted).
import { USER_COLUMNS } from '../db/columns.js';
import { holdsText } from '../db/sql-functions.js';
import { recordAudit } from './audit.js';
import { timestamp } from './clock.js';
import { type DomainContext, type Executor, transact } from './context.js';
import { NotFoundError } from './errors.js';
import { recordMemberEvent } from './members.js';
import { tag, touched } from './read-dependencies.js';

/**
 * The e-mail address an erased person is left with, in their users row and in every event that named
 * them: unique (the e-mail key is), holding nothing of theirs, and never deliverable (`.invalid` is
 * reserved for that, RFC 2606).
 */
export function erasedEmail(userId: string): string {
  return `erased-${userId}@invalid`;
}

/** What stands for an erased name inside free text (a mail, a receiver's answer). */
export const ERASED_TEXT = '[erased]';

/** Events read in one batch of the rewrite: a short transaction each, however large the store. */
export const EVENT_BATCH = 1000;

/**
 * How far before the person's creation events are read for them: none can name a person who did not
 * exist, but processes of one PostgreSQL store may disagree a little about the time.
 */
const CLOCK_MARGIN_MS = 3_600_000;

/**
 * Erases the person; answers when every part is done. NotFoundError for an id that never existed.
 * `eventBatch` is for tests, which need batch boundaries without thousands of events.
 */
export async function eraseUser(ctx: DomainContext, userId: string, { eventBatch = EVENT_BATCH } = {}): Promise<void> {
  const createdAt = await transact(ctx, async (trx) => {
    const byId = trx.selectFrom('users').select(USER_COLUMNS).where('id', '=', userId);
    // Held until commit, so that two erasures of one person take turns (SQLite has one writer anyway).
    const user = await (ctx.dialect === 'postgres' ? byId.forUpdate() : byId).executeTakeFirst();
    if (!user) throw new NotFoundError('User');
    const placeholder = erasedEmail(user.id);
    const now = ctx.clock.now();

    const memberships = await trx
      .selectFrom('memberships')
      .innerJoin('teams', 'teams.id', 'memberships.team_id')
      .select(['memberships.team_id', 'memberships.role', 'memberships.joined_at', 'teams.organization_id'])
      .where('memberships.user_id', '=', user.id)
      .orderBy('memberships.team_id')
      .execute();
    if (memberships.length > 0) {
      await trx.deleteFrom('memberships').where('user_id', '=', user.id).execute();
      touched(trx, 'memberships', memberships.map((membership) => tag.members(membership.team_id)));
      // The events every removal sends, built from the erased person: they name no one.
      for (const membership of memberships) {
        const member = { id: user.id, email: placeholder, name: null, avatar_url: null, role: membership.role, joined_at: membership.joined_at };
        await recordMemberEvent(trx, 'member.left', membership.team_id, membership.organization_id, member, now);
      }
    }
    await trx.deleteFrom('organization_admins').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('console_sessions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('sign_in_links').where('user_id', '=', user.id).execute();

    // Once the row is blanked, the address and name are known nowhere: what only they find goes now.
    if (user.email_key !== placeholder) {
      await eraseFromMail(trx, { email: user.email, name: user.name }, placeholder);
      await trx
        .updateTable('users')
        .set({ email: placeholder, email_key: placeholder, name: null, avatar_url: null, updated_at: timestamp(now) })
        .where('id', '=', user.id)
        .execute();
      // Names are one tag for every answer that shows one (members lists, guides' owner_name).
      touched(trx, 'users', [tag.users()]);
      // The audit log keeps the opaque id only; a call that finds the person erased already records nothing.
      await recordAudit(ctx, trx, { action: 'user.erased', target: { type: 'user', id: user.id }, home: null });
    }
    return user.created_at;
  });
  await eraseFromEvents(ctx, userId, timestamp(new Date(Date.parse(createdAt) - CLOCK_MARGIN_MS)), eventBatch);
  // The rows no longer hold them, but the store may still keep older versions of them: gone as well
  // before the call answers (on PostgreSQL, vacuumed; on the embedded store, the log emptied).
  await ctx.purgeDeleted(ERASED_TABLES);
}

/** Every table erasure deletes from or rewrites. */
const ERASED_TABLES = ['users', 'memberships', 'organization_admins', 'console_sessions', 'sign_in_links', 'mail_outbox', 'events', 'webhook_attempts'] as const;

// ---- free text ------------------------------------------------------------------------------------

interface Identity {
  email: string;
  name: string | null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with the address and the name replaced, in any letter case, each where it stands whole: an
 * address not inside a longer one (`ana@example.com` is not replaced in `joana@example.com` or
 * `ana@example.com.au`), a name not inside a longer word.
 */
export function withoutIdentity(text: string, who: Identity, placeholder: string): string {
  const address = new RegExp(`(?<![\\p{L}\\p{N}!#$%&'*+/=?^_\`{|}~.-])${escapeRegExp(who.email)}(?![\\p{L}\\p{N}_-]|\\.[\\p{L}\\p{N}])`, 'giu');
  let result = text.replace(address, placeholder);
  if (who.name !== null && who.name.trim() !== '') {
    result = result.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(who.name)}(?![\\p{L}\\p{N}])`, 'giu'), ERASED_TEXT);
  }
  return result;
}

async function eraseFromMail(trx: Executor, who: Identity, placeholder: string): Promise<void> {
  const texts = ['subject', 'text', 'send_text'];
  const mail = await trx
    .selectFrom('mail_outbox')
    .select(['id', 'recipients', 'subject', 'text', 'send_text'])
    .where((eb) =>
      eb.or([
        ...['recipients', ...texts].map((column) => holdsText(trx, column, who.email)),
        ...(who.name === null || who.name.trim() === '' ? [] : texts.map((column) => holdsText(trx, column, who.name!))),
      ]),
    )
    .execute();
  const address = who.email.toLowerCase();
  for (const row of mail) {
    const recipients = JSON.parse(row.recipients) as string[];
    const others = recipients.filter((to) => to.toLowerCase() !== address);
    // Mail to them alone is theirs: nobody else is owed it, and it was not (or will never be) sent to them.
    if (others.length === 0 && recipients.length > 0) {
      await trx.deleteFrom('mail_outbox').where('id', '=', row.id).execute();
      continue;
    }
    const changes = {
      recipients: others.length === recipients.length ? row.recipients : JSON.stringify(others),
      subject: withoutIdentity(row.subject, who, placeholder),
      text: withoutIdentity(row.text, who, placeholder),
      send_text: row.send_text === null ? null : withoutIdentity(row.send_text, who, placeholder),
    };
    if (changes.recipients !== row.recipients || changes.subject !== row.subject || changes.text !== row.text || changes.send_text !== row.send_text) {
      await trx.updateTable('mail_outbox').set(changes).where('id', '=', row.id).execute();
    }
  }
}

// ---- events ---------------------------------------------------------------------------------------

/**
 * `value` with every object that names the person by `user_id` erased (email: the placeholder, name and
 * avatar_url: null), and the identities it held; the same value and none when it names them nowhere.
 */
export function erasedPayload(value: unknown, userId: string, placeholder: string): { value: unknown; found: Identity[] } {
  const found: Identity[] = [];
  const walk = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(walk);
    if (item === null || typeof item !== 'object') return item;
    const record = item as Record<string, unknown>;
    const names = record.user_id === userId;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(record)) {
      if (names && key === 'email' && typeof inner === 'string') out[key] = placeholder;
      else if (names && (key === 'name' || key === 'avatar_url')) out[key] = null;
      else out[key] = walk(inner);
    }
    if (names && typeof record.email === 'string' && (record.email !== placeholder || (record.name ?? null) !== null)) {
      found.push({ email: record.email, name: typeof record.name === 'string' ? record.name : null });
    }
    return out;
  };
  const result = walk(value);
  return { value: found.length > 0 ? result : value, found };
}

/**
 * Rewrites every event from `since` on whose payload names the person, a batch of `batch` events (by
 * seq) per transaction, to the newest; with each, the answers its delivery attempts got.
 */
async function eraseFromEvents(ctx: DomainContext, userId: string, since: string, batch: number): Promise<void> {
  const placeholder = erasedEmail(userId);
  const first = await ctx.db.selectFrom('events').select((eb) => eb.fn.min('seq').as('seq')).where('created_at', '>=', since).executeTakeFirst();
  if (first?.seq == null) return;
  let after = Number(first.seq) - 1;
  for (;;) {
    // The batch ends at its `batch`-th event; the last batch has no end, so nothing is left behind.
    const end = await ctx.db
      .selectFrom('events')
      .select('seq')
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(1)
      .offset(batch - 1)
      .executeTakeFirst();
    const upTo = end === undefined ? null : Number(end.seq);
    await transact(ctx, async (trx) => {
      let candidates = trx
        .selectFrom('events')
        .select(['id', 'payload'])
        .where('seq', '>', after)
        // A user id is a lowercase UUID: nothing in it is a LIKE wildcard.
        .where('payload', 'like', `%${userId}%`);
      if (upTo !== null) candidates = candidates.where('seq', '<=', upTo);
      for (const event of await candidates.execute()) {
        const { value, found } = erasedPayload(JSON.parse(event.payload), userId, placeholder);
        if (found.length === 0) continue;
        await trx.updateTable('events').set({ payload: JSON.stringify(value) }).where('id', '=', event.id).execute();
        await eraseFromAttempts(trx, event.id, found, placeholder);
      }
    });
    if (upTo === null) return;
    after = upTo;
  }
}

/** The receiver's answers (and errors) of an event's attempts, without the identities the event held. */
async function eraseFromAttempts(trx: Executor, eventId: string, found: Identity[], placeholder: string): Promise<void> {
  const attempts = await trx.selectFrom('webhook_attempts').select(['id', 'response_body', 'error']).where('event_id', '=', eventId).execute();
  const scrub = (text: string | null) => (text === null ? null : found.reduce((result, who) => withoutIdentity(result, who, placeholder), text));
  for (const attempt of attempts) {
    const changes = { response_body: scrub(attempt.response_body), error: scrub(attempt.error) };
    if (changes.response_body !== attempt.response_body || changes.error !== attempt.error) {
      await trx.updateTable('webhook_attempts').set(changes).where('id', '=', attempt.id).execute();
    }
  }
}

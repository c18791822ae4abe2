// People: the members of teams and the admins of organizations.
import { recordAudit } from './audit.js';
import type { UsersTable } from '../db/schema.js';
import { timestamp } from './clock.js';
import { type DomainContext, type Executor, transact } from './context.js';
import { ConflictError, NotFoundError } from './errors.js';
import { newId } from './ids.js';
import { touched } from './read-dependencies.js';
import { USER_COLUMNS } from '../db/columns.js';

export type User = UsersTable;

export interface UserInput {
  email: string;
  name?: string | null;
  avatar_url?: string | null;
}

export async function createUser(ctx: DomainContext, input: UserInput): Promise<User> {
  const emailKey = input.email.toLowerCase();
  const taken = await ctx.db.selectFrom('users').select('id').where('email_key', '=', emailKey).executeTakeFirst();
  if (taken) throw new ConflictError(`A user with e-mail ${input.email} exists already`);
  const now = timestamp(ctx.clock.now());
  const row: User = {
    id: newId(),
    email: input.email,
    email_key: emailKey,
    name: input.name ?? null,
    avatar_url: input.avatar_url ?? null,
    created_at: now,
    updated_at: now,
  };
  await transact(ctx, async (trx) => {
    await trx.insertInto('users').values(row).execute();
    // A new user is in no answer until a membership or a guide names them, and those writes say so.
    touched(trx, 'users', []);
    await recordAudit(ctx, trx, { action: 'user.created', target: { type: 'user', id: row.id }, home: null });
  });
  return row;
}

export async function requireUser(db: Executor, id: string): Promise<User> {
  const user = await db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!user) throw new NotFoundError('User');
  return user;
}

/** The user with this e-mail address, in any letter case (the address is unique in that sense), if any. */
export async function findUserByEmail(db: Executor, email: string): Promise<User | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('email_key', '=', email.toLowerCase()).executeTakeFirst();
}

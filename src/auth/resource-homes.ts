// Where the resources that people manage live, for the policies: the team or organization of a key.
// (Endpoints, attempts and guides are found through their own modules.)
import type { Executor } from '../domain/context.js';
import { NotFoundError } from '../domain/errors.js';
import { type Home, homeOf } from '../domain/homes.js';

export async function apiKeyHome(db: Executor, id: string): Promise<Home> {
  const row = await db.selectFrom('api_keys').select(['home_type', 'home_id']).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  if (!row) throw new NotFoundError('API key');
  return homeOf(row);
}

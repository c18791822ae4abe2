// Secrets the service makes for itself once and keeps in the store, so that every process agrees.
import { randomBytes } from 'node:crypto';
import type { Executor } from './context.js';

export async function serviceSecret(db: Executor, name: string): Promise<Buffer> {
  await db
    .insertInto('service_settings')
    .values({ name, value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('service_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}

// A fixed statement is built once per store and run with each call's values: each value lands where its
// slot stands, in whatever order and however often the builder used it, beside the builder's constants.
import { describe, expect, it } from 'vitest';
import { FixedQuery } from '../../src/db/fixed-query.js';
import { suiteStore } from '../support/suite-store.js';

describe('fixed statements', () => {
  const store = suiteStore();

  const keep = new FixedQuery((db, v: { readonly [K in 'key' | 'at' | 'body']: never }) =>
    db.insertInto('idempotency_keys').values({ credential: 'operator', key: v.key, fingerprint: v.key, status: 201, content_type: null, location: null, body: v.body, created_at: v.at }),
  );
  // The slots in another order than the insert's, one of them twice, and a constant between them.
  const find = new FixedQuery((db, v: { readonly [K in 'since' | 'key']: never }) =>
    db.selectFrom('idempotency_keys').select(['key', 'body', 'fingerprint']).where('created_at', '>=', v.since).where('credential', '=', 'operator').where('key', '=', v.key).where('fingerprint', '=', v.key),
  );

  it('puts each call’s values in their slots, keeps the builder’s constants, and runs again with new values', async () => {
    for (const [key, body] of [['first', '{"a":1}'], ['second', 'two']] as const) {
      const result = await keep.run(store().db, { key, at: '2026-11-29T12:00:00.000Z', body });
      expect(Number(result.numAffectedRows)).toBe(1);
    }
    expect((await find.run(store().db, { since: '2026-11-29T00:00:00.000Z', key: 'second' })).rows).toEqual([{ key: 'second', body: 'two', fingerprint: 'second' }]);
    expect((await find.run(store().db, { since: '2026-11-29T00:00:00.000Z', key: 'first' })).rows).toEqual([{ key: 'first', body: '{"a":1}', fingerprint: 'first' }]);
    expect((await find.run(store().db, { since: '2026-11-30T00:00:00.000Z', key: 'first' })).rows).toEqual([]);
  });

  it('runs in a transaction given to it', async () => {
    await expect(
      store().db.transaction().execute(async (trx) => {
        await keep.run(trx, { key: 'rolled back', at: '2026-11-29T12:00:00.000Z', body: '' });
        expect((await find.run(trx, { since: '2026-11-29T00:00:00.000Z', key: 'rolled back' })).rows).toHaveLength(1);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await find.run(store().db, { since: '2026-11-29T00:00:00.000Z', key: 'rolled back' })).rows).toEqual([]);
  });
});

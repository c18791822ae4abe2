// A key's last use is written at most once a minute (decisions §2), and the requests that all find its
// minute passed at once write it once: they share the cached record, which is marked before the write
// (src/domain/api-keys.ts, touchApiKey). Before, each of them wrote the same row, and on PostgreSQL they
// queued on its lock, each holding a pooled connection.
import { TableNode, UpdateQueryNode } from 'kysely';
import { describe, expect, it } from 'vitest';
import { authenticateKey, touchApiKey } from '../../src/domain/api-keys.js';
import { QueryCounter } from '../support/query-counter.js';
import { createKey, soloTeam, useTestService } from '../support/service.js';

const t = useTestService();

/** The updates of api_keys. */
const keyWrites = () =>
  new QueryCounter((node) => UpdateQueryNode.is(node) && node.table !== undefined && TableNode.is(node.table) && node.table.table.identifier.name === 'api_keys');

describe("a key's last use (touchApiKey)", () => {
  it('requests that find its minute passed at once write it once; the next minute writes it again', async () => {
    const { team } = await soloTeam(t);
    const { secret, id } = await createKey(t, { type: 'team', id: team.id });
    const writes = keyWrites();
    const ctx = { ...t.service.ctx, db: t.service.ctx.db.withPlugin(writes) };
    const found = await authenticateKey(ctx, secret);
    if (found.outcome !== 'ok') throw new Error(`the key was ${found.outcome}`);

    const stored = async () => Date.parse((await t.service.ctx.db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at!);
    const touchedTogether = async () => {
      const before = t.clock.now().getTime();
      await Promise.all(Array.from({ length: 10 }, () => touchApiKey(ctx, found.key)));
      const at = await stored();
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(t.clock.now().getTime());
    };

    await touchedTogether();
    expect(writes.count).toBe(1);
    t.clock.advance(61_000);
    await touchedTogether();
    expect(writes.count).toBe(2);
  });
});

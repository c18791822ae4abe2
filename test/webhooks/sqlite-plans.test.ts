// The embedded store's plans for the worker's statements that find attempts by more than their seq. SQLite
// has no statistics until something analyzes, and left to itself takes an index that walks an endpoint's
// attempts for each delivery (a drain of 20,000 deliveries went from thousands a second to 440: the
// settled-event cancel of issue 42 on (endpoint_id, created_at); bench/CHANGES.md).
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CANCEL_ONE_SETTLED } from '../../src/domain/delivery-attempts.js';
import { useTestService } from '../support/service.js';
import { usingPostgres } from '../support/test-database.js';

const t = useTestService({ ROLE: 'api' });

describe.skipIf(usingPostgres)("the embedded store's plans", () => {
  it("a settled event's other attempts are found by (event_id, endpoint_id), never by walking the endpoint's attempts", async () => {
    const plan = await t.service.ctx.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${CANCEL_ONE_SETTLED}`, ['an-event', 'an-endpoint', '2026-11-29T00:00:00.000Z']),
    );
    const details = plan.rows.map((row) => row.detail);
    expect(details).toEqual([expect.stringContaining('USING INDEX webhook_attempts_event (event_id=? AND endpoint_id=?)')]);
  });
});

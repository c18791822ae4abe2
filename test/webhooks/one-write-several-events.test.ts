// Several domain writes that each record an event, made as one write (a keyed request, asOneWrite): every
// event gets its attempts, written after everything else, just before the one commit, which on PostgreSQL
// goes with the last of them alone (src/db/commit-with.ts): an earlier one committing would leave the
// later ones refused.
import { describe, expect, it } from 'vitest';
import { transact } from '../../src/domain/context.js';
import { recordEvent } from '../../src/domain/events.js';
import { asOneWrite } from '../../src/domain/request-transaction.js';
import { organizationWithTeams, useTestService } from '../support/service.js';

// ROLE=api: no worker sends while the test counts attempts.
const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

describe('one write of several domain writes, each with an event', () => {
  it('gives every event its attempts, one to each endpoint', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const team = teams[0];
    for (const n of [1, 2]) {
      await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `http://127.0.0.1:9/several-${n}`, events: ['guide.created'] });
    }
    const ctx = t.service.ctx;
    const event = (title: string) => ({ type: 'guide.created' as const, teamId: team.id, organizationId: organization.id, at: ctx.clock.now(), data: { title } });
    const ids = await asOneWrite(ctx.db, async () => [
      (await transact(ctx, (trx) => recordEvent(trx, event('first')))).id,
      (await transact(ctx, (trx) => recordEvent(trx, event('second')))).id,
    ]);
    const attempts = await ctx.db.selectFrom('webhook_attempts').select(['event_id', 'endpoint_id']).where('event_id', 'in', ids).execute();
    expect(attempts.filter((attempt) => attempt.event_id === ids[0])).toHaveLength(2);
    expect(attempts.filter((attempt) => attempt.event_id === ids[1])).toHaveLength(2);
  });
});

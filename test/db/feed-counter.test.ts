// A dump restored onto another PostgreSQL server whose transaction counter is behind the dump's leaves the
// events feed holding events of transactions the server has not reached: the feed hides them until the
// counter catches up (docs/deploy.md, "Restoring a dump onto another server"). The service says so at start.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, soloTeam, startTestService } from '../support/service.js';
import { type TestDatabase, testDatabase, usingPostgres } from '../support/test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  if (usingPostgres) database = await testDatabase();
});
afterAll(() => database?.drop());

describe.runIf(usingPostgres)("the events feed ahead of the server's transaction counter", () => {
  it('is logged as an error at start, naming what to do; a feed behind the counter is not', async () => {
    const quiet: string[] = [];
    const first = await startTestService({ DATABASE_URL: database.env.DATABASE_URL! }, { logLines: quiet });
    const { team } = await soloTeam(first);
    await createGuide(first, team.id);
    await first.close();
    expect(quiet.join('\n')).not.toContain('events feed holds events of transactions newer');

    const lines: string[] = [];
    const restored = await startTestService({ DATABASE_URL: database.env.DATABASE_URL! }, { logLines: lines });
    try {
      // What a dump from a server far ahead leaves: an event of a transaction this server has not reached.
      await sql`UPDATE events SET feed_txid = ((pg_current_xact_id()::text::bigint + 1000000)::text)::xid8`.execute(restored.service.store.db);
    } finally {
      await restored.close();
    }
    const again = await startTestService({ DATABASE_URL: database.env.DATABASE_URL! }, { logLines: lines });
    await again.close();
    const error = lines.map((line) => JSON.parse(line)).find((entry) => entry.level === 50 && String(entry.msg).includes('events feed holds events of transactions newer'));
    expect(error?.msg).toContain('docs/deploy.md');
  });
});

// `--only audit` (issue 33): what recording an audit event adds to a management write.
// - At the domain: the same write (a guide's title changed, through the domain function the management
//   API calls, in its transaction with its guide.updated window and its read-cache notice) is made in
//   short blocks side by side with and without an acting scope (paired-blocks.ts); with one it also
//   records its audit event in that transaction.
// - On the write path: the same edit as a PATCH /admin/v1/guides/{id} through the service's HTTP stack
//   (Fastify's inject: routing, admission, validation, the write, the answer), which always records its
//   event. Today's write path costs that less the difference, so the write path's ratio is
//   path / (path - difference).
// Run on the embedded store (a file, as deployed) and, with the bench's PostgreSQL, on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { actingAs } from '../../src/domain/audit.js';
import { updateGuide, createGuide } from '../../src/domain/guides/guide-writes.js';
import { createOrganization } from '../../src/domain/organizations.js';
import { createTeam } from '../../src/domain/teams.js';
import { createService } from '../../src/service.js';
import { pairedCost } from '../paired-blocks.js';
import { onEachStore } from '../write-cost-stores.js';
import type { AuditStoreResult } from '../results.js';


const BLOCK = 50;

async function measure(databaseUrl: string, store: AuditStoreResult['store'], rounds: number): Promise<AuditStoreResult> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-bench-'));
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dir, DEMO: 'false', LOG_LEVEL: 'fatal', ROLE: 'api', ADMIN_TOKEN: 'audit-bench-admin-token' });
  const service = await createService(config);
  try {
    const { ctx } = service;
    const organization = await createOrganization(ctx, { name: 'Audited', plan: 'growth' });
    const team = await createTeam(ctx, { name: 'Audited team', organization_id: organization.id });
    const guide = await createGuide(ctx, { team_id: team.id, title: 'Timed' });
    const scope = { actor: { type: 'operator', id: null } as const, address: '198.51.100.7', requestId: 'audit-bench' };
    let n = 0;
    const write = () => updateGuide(ctx, guide.id, { title: `Timed ${n++}` });
    const cost = await pairedCost(rounds * BLOCK, (audited) => (audited ? actingAs(scope, write) : write()));
    const patch = () =>
      service.app.inject({
        method: 'PATCH',
        url: `/admin/v1/guides/${guide.id}`,
        headers: { authorization: `Bearer ${config.adminToken}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ title: `Timed ${n++}` }),
      });
    for (let i = 0; i < BLOCK; i++) await patch();
    let path = 0;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      for (let i = 0; i < BLOCK; i++) {
        const answer = await patch();
        if (answer.statusCode !== 200) throw new Error(`PATCH answered ${answer.statusCode}: ${answer.body}`);
      }
      path += performance.now() - started;
    }
    const { withoutUs, withUs } = cost;
    const pathUs = (path / (rounds * BLOCK)) * 1000;
    return { store, writes: cost.operations, withoutUs, withUs, ratio: cost.ratio, pathUs, pathRatio: pathUs / (pathUs - (withUs - withoutUs)) };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runAuditBench(options: { rounds: number; postgresUrl?: string }, log: (line: string) => void): Promise<AuditStoreResult[]> {
  const results = await onEachStore(options.postgresUrl, (databaseUrl, store) => measure(databaseUrl, store, options.rounds));
  for (const result of results) {
    log(
      `  ${result.store}: a guide edit ${result.withoutUs.toFixed(0)} µs, with its audit event ${result.withUs.toFixed(0)} µs (${result.ratio.toFixed(3)}×); ` +
        `as a PATCH ${result.pathUs.toFixed(0)} µs (${result.pathRatio.toFixed(3)}× today's); ${result.writes} writes each`,
    );
  }
  return results;
}

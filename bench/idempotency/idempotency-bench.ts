// `--only idempotency` (issue 42): what an Idempotency-Key costs a management write. The same write (a
// guide made with POST /admin/v1/guides, through the service's HTTP stack: routing, admission,
// validation, the write with its event, the answer) is sent in short blocks side by side, without and
// with a key of its own (paired-blocks.ts); with one, the request looks its key up first, and its one
// transaction also keeps the answer (src/http/idempotency.ts). Run on the embedded store (a file, as deployed) and, with the bench's PostgreSQL, on
// PostgreSQL.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createOrganization } from '../../src/domain/organizations.js';
import { createTeam } from '../../src/domain/teams.js';
import { createService } from '../../src/service.js';
import { pairedCost } from '../paired-blocks.js';
import { onEachStore } from '../write-cost-stores.js';
import type { IdempotencyStoreResult } from '../results.js';

async function measure(databaseUrl: string, store: IdempotencyStoreResult['store'], rounds: number): Promise<IdempotencyStoreResult> {
  const dir = mkdtempSync(join(tmpdir(), 'idempotency-bench-'));
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dir, DEMO: 'false', LOG_LEVEL: 'fatal', ROLE: 'api', ADMIN_TOKEN: 'idempotency-bench-admin-token' });
  const service = await createService(config);
  try {
    const organization = await createOrganization(service.ctx, { name: 'Keyed', plan: 'growth' });
    const team = await createTeam(service.ctx, { name: 'Keyed team', organization_id: organization.id });
    let n = 0;
    const create = async (keyed: boolean) => {
      const answer = await service.app.inject({
        method: 'POST',
        url: '/admin/v1/guides',
        headers: { authorization: `Bearer ${config.adminToken}`, 'content-type': 'application/json', ...(keyed ? { 'idempotency-key': randomUUID() } : {}) },
        payload: JSON.stringify({ team_id: team.id, title: `Timed ${n++}` }),
      });
      if (answer.statusCode !== 201) throw new Error(`POST answered ${answer.statusCode}: ${answer.body}`);
    };
    const cost = await pairedCost(rounds * 50, create);
    return { store, writes: cost.operations, withoutUs: cost.withoutUs, withUs: cost.withUs, ratio: cost.ratio, quartiles: cost.quartiles };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runIdempotencyBench(options: { rounds: number; postgresUrl?: string }, log: (line: string) => void): Promise<IdempotencyStoreResult[]> {
  const results = await onEachStore(options.postgresUrl, (databaseUrl, store) => measure(databaseUrl, store, options.rounds));
  for (const result of results) {
    log(`  ${result.store}: POST /admin/v1/guides ${result.withoutUs.toFixed(0)} µs, with an Idempotency-Key ${result.withUs.toFixed(0)} µs (${result.ratio.toFixed(3)}×, the median of the blocks' pairs; quartiles ${(result.quartiles ?? []).map((q) => q.toFixed(3)).join('–')}); ${result.writes} writes each`);
  }
  return results;
}

// `npm run load -- --guides 1000000 --teams 1000 --organizations 50 --users 50000`: fills the store named
// by DATABASE_URL with a realistic data set and prints, as JSON, keys and ids to try it with. Meant for an
// empty store (the benchmark's, or a trial's); it refuses a store that has teams already.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { announceEverythingChanged } from '../domain/context.js';
import { createService } from '../service.js';
import { loadBulkData } from './bulk-data.js';

const { values } = parseArgs({
  options: {
    organizations: { type: 'string', default: '50' },
    teams: { type: 'string', default: '1000' },
    guides: { type: 'string', default: '1000000' },
    users: { type: 'string', default: '50000' },
    'big-team-members': { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
  },
});

function count(name: keyof typeof values): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`--${name} must be a whole number of at least 1\n`);
    process.exit(2);
  }
  return value;
}

const shape = {
  organizations: count('organizations'),
  teams: count('teams'),
  guides: count('guides'),
  users: count('users'),
  bigTeamMembers: count('big-team-members'),
  seed: count('seed'),
};
const service = await createService({ ...loadConfig(), role: 'api', demo: false, logLevel: 'warn' });
try {
  const existing = await service.ctx.db.selectFrom('teams').select('id').limit(1).executeTakeFirst();
  if (existing) {
    process.stderr.write('The store has data already; the bulk loader fills an empty store only.\n');
    process.exitCode = 1;
  } else {
    // Rows go in by the thousand, straight to the store rather than as declared changes; running
    // processes are then told that anything may have changed.
    const result = await loadBulkData({ ...service.ctx, db: service.store.db }, shape, (line) => process.stderr.write(`loaded ${line}\n`));
    await announceEverythingChanged(service.ctx);
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  }
} finally {
  await service.close();
}

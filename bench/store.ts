// The stores the read benchmark runs on, filled by the service's own bulk loader (src/cli/bulk-load.ts)
// in a child process. With --reuse a loaded store is kept under the system's temp directory and used
// again when the shape, the seed and the service's migrations are the same; otherwise each run loads a
// fresh store and deletes it at the end.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bulkLoader, repoRoot } from './paths.js';
import { runToEnd } from './processes.js';

/** What the bulk loader prints: keys and ids to run the scenarios with. */
export interface LoadedIds {
  organizationKey: string;
  teamKey: string;
  freeTeamKey: string;
  bigTeamId: string;
  longGuideId: string;
  freeGuideId: string;
  seconds: number;
}

export interface StoreShape {
  guides: number;
  teams: number;
  organizations: number;
  users: number;
  bigTeamMembers: number;
  seed: number;
}

export interface LoadedStore {
  shape: StoreShape;
  dir: string;
  databaseUrl: string;
  ids: LoadedIds;
  /** Seconds the loader took (for a reused store, when it was loaded). */
  loadSeconds: number;
  reused: boolean;
  /** Deletes the store unless it is kept for reuse. */
  release(): void;
}

export function shapeFor(guides: number): StoreShape {
  return { guides, teams: 1000, organizations: 50, users: 50_000, bigTeamMembers: 2000, seed: 1 };
}

/** Changes to the schema make a kept store stale: its key names the migrations it was loaded under. */
function migrationsFingerprint(): string {
  const dir = join(repoRoot, 'dist', 'db', 'migrations');
  const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.js')).sort() : [];
  return createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 12);
}

const MARKER = 'loaded.json';

export async function prepareStore(shape: StoreShape, reuse: boolean, log: (line: string) => void): Promise<LoadedStore> {
  const key = `${shape.guides}g-${shape.teams}t-${shape.organizations}o-${shape.users}u-${shape.bigTeamMembers}b-s${shape.seed}-${migrationsFingerprint()}`;
  const dir = reuse ? join(tmpdir(), 'guide-service-bench', key) : mkdtempSync(join(tmpdir(), 'guide-service-bench-'));
  const databaseUrl = `file:${join(dir, 'service.db')}`;
  const release = () => {
    if (!reuse) rmSync(dir, { recursive: true, force: true });
  };
  const marker = join(dir, MARKER);
  if (reuse && existsSync(marker)) {
    const ids = JSON.parse(readFileSync(marker, 'utf8')) as LoadedIds;
    log(`store of ${shape.guides.toLocaleString('en')} guides: reusing ${dir}`);
    return { shape, dir, databaseUrl, ids, loadSeconds: ids.seconds, reused: true, release };
  }
  // A half-loaded store from an interrupted run is thrown away: the loader fills empty stores only.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`store of ${shape.guides.toLocaleString('en')} guides: loading into ${dir}`);
  const started = performance.now();
  const args = [
    bulkLoader,
    '--guides', String(shape.guides),
    '--teams', String(shape.teams),
    '--organizations', String(shape.organizations),
    '--users', String(shape.users),
    '--big-team-members', String(shape.bigTeamMembers),
    '--seed', String(shape.seed),
  ];
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: dir, LOG_LEVEL: 'warn', DEMO: 'false' };
  let stdout: string;
  try {
    stdout = await runToEnd('bulk loader', process.execPath, args, env, (text) => {
      for (const line of text.split('\n').filter(Boolean)) log(`  ${line}`);
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const ids = JSON.parse(stdout) as LoadedIds;
  const loadSeconds = Math.round((performance.now() - started) / 100) / 10;
  if (reuse) writeFileSync(marker, JSON.stringify(ids, null, 2));
  log(`store of ${shape.guides.toLocaleString('en')} guides: loaded in ${loadSeconds} s`);
  return { shape, dir, databaseUrl, ids, loadSeconds, reused: false, release };
}

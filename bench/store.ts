// The stores the read benchmark runs on, filled by the service's own bulk loader (src/cli/bulk-load.ts)
// in a child process. With --reuse a loaded store is kept under the system's temp directory and used
// again when the shape, the seed and the service's migrations are the same; otherwise each run loads a
// fresh store and deletes it at the end. The mixed benchmark also loads the same data into PostgreSQL.
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

/** Runs the service's bulk loader on an empty store and answers the keys and ids it printed. */
async function runBulkLoader(shape: StoreShape, databaseUrl: string, dir: string, log: (line: string) => void): Promise<{ ids: LoadedIds; loadSeconds: number }> {
  log(`store of ${shape.guides.toLocaleString('en')} guides: loading into ${databaseUrl.startsWith('file:') ? dir : 'PostgreSQL'}`);
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
  const stdout = await runToEnd('bulk loader', process.execPath, args, env, (text) => {
    for (const line of text.split('\n').filter(Boolean)) log(`  ${line}`);
  });
  const loadSeconds = Math.round((performance.now() - started) / 100) / 10;
  log(`store of ${shape.guides.toLocaleString('en')} guides: loaded in ${loadSeconds} s`);
  return { ids: loaderAnswer(stdout), loadSeconds };
}

/** The loader's answer: the indented JSON object it prints. The service's log lines, one JSON object each, may come around it. */
function loaderAnswer(stdout: string): LoadedIds {
  const start = stdout.search(/^\{$/m);
  const end = start < 0 ? -1 : stdout.indexOf('\n}', start);
  if (end < 0) throw new Error(`the bulk loader printed no answer:\n${stdout.slice(0, 2000)}`);
  return JSON.parse(stdout.slice(start, end + 2)) as LoadedIds;
}

/**
 * The same data on PostgreSQL, in an empty database of the bench's server (see test-servers.ts). Never
 * kept for reuse: the server and its databases go when the run ends. Its DATA_DIR is a temp directory.
 */
export async function loadPostgresStore(shape: StoreShape, databaseUrl: string, log: (line: string) => void): Promise<LoadedStore> {
  const dir = mkdtempSync(join(tmpdir(), 'guide-service-bench-pg-'));
  const release = () => rmSync(dir, { recursive: true, force: true });
  try {
    const { ids, loadSeconds } = await runBulkLoader(shape, databaseUrl, dir, log);
    return { shape, dir, databaseUrl, ids, loadSeconds, reused: false, release };
  } catch (error) {
    release();
    throw error;
  }
}

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
  let loaded: { ids: LoadedIds; loadSeconds: number };
  try {
    loaded = await runBulkLoader(shape, databaseUrl, dir, log);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const { ids, loadSeconds } = loaded;
  if (reuse) writeFileSync(marker, JSON.stringify(ids, null, 2));
  return { shape, dir, databaseUrl, ids, loadSeconds, reused: false, release };
}

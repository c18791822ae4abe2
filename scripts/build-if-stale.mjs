// `npm start`'s prestart: builds dist/ only when it is missing or older than what it is built from (the
// sources, the TypeScript settings, the dependencies), so that a start with a current build runs at once;
// a full build takes over a minute on two busy cores. What "older" means is kept in a stamp: the time the
// last successful build started, so an edit made while it ran counts as newer. A folder's own time counts
// too: deleting or renaming a file changes it. Without src/ (a copy of the built service alone) it does
// nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const STAMP = join(root, 'dist', '.build-started');
const INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.console.json'];

/** The latest modification time under `path` (itself included), in ms; 0 when it does not exist. */
function newest(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

if (!existsSync(join(root, 'src'))) process.exit(0);
const built = existsSync(join(root, 'dist', 'main.js')) && existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
if (built > 0 && Math.max(...INPUTS.map((input) => newest(join(root, input)))) <= built) process.exit(0);

const started = new Date();
console.error(built > 0 ? 'The sources changed since the last build: building…' : 'No build yet: building…');
rmSync(STAMP, { force: true });
const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(STAMP, `${started.toISOString()}\n`);
utimesSync(STAMP, started, started);

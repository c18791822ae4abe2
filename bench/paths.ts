// Where things are, from the compiled bench (dist-bench/bench/…) back to the repository: the service's own
// build in dist/ is what the benchmark runs and what the ceilings call, so both measure the same code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const serviceMain = join(repoRoot, 'dist', 'main.js');
export const bulkLoader = join(repoRoot, 'dist', 'cli', 'bulk-load.js');
export const backupCommand = join(repoRoot, 'dist', 'cli', 'backup.js');
export const benchBuild = join(repoRoot, 'dist-bench', 'bench');
export const resultsDir = join(repoRoot, 'bench', 'results');
export const partialResultsDir = join(repoRoot, 'dist-bench', 'partial-results');
export const benchmarksMd = join(repoRoot, 'BENCHMARKS.md');
export const changesMd = join(repoRoot, 'bench', 'CHANGES.md');

/** A module of the service's build, for a dynamic import. */
export function serviceModule(relative: string): string {
  return new URL(`../../dist/${relative}`, import.meta.url).href;
}

/** A compiled bench script, for a child process. */
export function benchScript(relative: string): string {
  return join(benchBuild, relative);
}

/** Node's flags for the service, as `npm start` gives them (package.json owns them; see nodeFlagsOf). */
export function serviceNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return nodeFlagsOf(pkg.scripts.start);
}

/**
 * The flags between `node` and the script of a `start` script (the heap cap of docs/deploy.md), but for
 * source maps, which only change how stack traces print.
 */
export function nodeFlagsOf(startScript: string): string[] {
  const words = startScript.split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist/main.js') throw new Error(`package.json's start script is not "node [flags] dist/main.js": ${startScript}`);
  return words.slice(1, -1).filter((flag) => flag !== '--enable-source-maps');
}

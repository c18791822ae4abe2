// Where things are, from the compiled bench (dist-bench/bench/…) back to the repository: the service's own
// build in dist/ is what the benchmark runs and what the ceilings call, so both measure the same code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const serviceMain = join(repoRoot, 'dist', 'main.js');
/**
 * Node's flags for the service, as `npm start` gives them (package.json owns them: the heap cap of
 * docs/deploy.md), but for source maps, which only change how stack traces print.
 */
export function serviceNodeFlags(): string[] {
  return startScriptFlags().filter((flag) => flag !== '--enable-source-maps');
}
export const bulkLoader = join(repoRoot, 'dist', 'cli', 'bulk-load.js');
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

/** The flags between `node` and the script in package.json's `start`. */
function startScriptFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist/main.js') throw new Error(`package.json's start script is not "node [flags] dist/main.js": ${pkg.scripts.start}`);
  return words.slice(1, -1);
}

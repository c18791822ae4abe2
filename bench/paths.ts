// Where things are, from the compiled bench (dist-bench/bench/…) back to the repository: the service's own
// build in dist/ is what the benchmark runs and what the ceilings call, so both measure the same code.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const serviceMain = join(repoRoot, 'dist', 'main.js');
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

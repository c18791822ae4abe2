// Writes BENCHMARKS.md from bench/results/latest-full.json and latest-quick.json and bench/CHANGES.md.
// Run by `npm run bench` at the end of a complete run; by hand: `node dist-bench/bench/report/generate.js`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchmarksMd, changesMd, resultsDir } from '../paths.js';
import type { BenchResults } from '../results.js';
import { renderBenchmarks } from './markdown.js';

function latest(mode: 'full' | 'quick'): BenchResults | null {
  const path = join(resultsDir, `latest-${mode}.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as BenchResults) : null;
}

export function writeBenchmarks(): string {
  const changes = existsSync(changesMd) ? readFileSync(changesMd, 'utf8') : '_Not written yet (bench/CHANGES.md)._';
  writeFileSync(benchmarksMd, renderBenchmarks({ full: latest('full'), quick: latest('quick') }, changes));
  return benchmarksMd;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`wrote ${writeBenchmarks()}\n`);
}

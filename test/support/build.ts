// Builds the service into a directory of its own inside the project (so that its imports resolve), for
// tests that run it as real processes. Each test file builds its own copy: concurrent builds never share
// output files.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const projectRoot = join(import.meta.dirname, '../..');

export interface Build {
  main: string;
  remove(): Promise<void>;
}

export async function buildService(): Promise<Build> {
  const outDir = join(projectRoot, '.test-build', randomBytes(6).toString('hex'));
  await run('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: projectRoot });
  return { main: join(outDir, 'main.js'), remove: () => rm(outDir, { recursive: true, force: true }) };
}

// Issue 45: `npm start` compiles only when the build is missing or older than its sources
// (scripts/build-if-stale.mjs, the prestart script), here in a project of its own whose build only counts.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build.js';

const project = mkdtempSync(join(tmpdir(), 'guide-service-prestart-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs the prestart script in the project and answers how many builds have run so far. */
function prestart(): number {
  const result = spawnSync(process.execPath, [join(projectRoot, 'scripts/build-if-stale.mjs')], { cwd: project, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return readFileSync(join(project, 'builds'), 'utf8').length;
}

/** Sets a file's time `secondsAgo` in the past, as an edit made then would. */
function age(path: string, secondsAgo: number): void {
  const then = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(join(project, path), then, then);
}

describe('npm start builds only when the build is missing or stale', () => {
  it('builds when there is no build, not again while it is current, and again after an edit or a deletion', () => {
    const build = "require('fs').appendFileSync('builds', 'x'); require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/main.js', '')";
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'prestart-test', scripts: { build: `node -e "${build}"` } }));
    mkdirSync(join(project, 'src/http'), { recursive: true });
    cpSync(join(projectRoot, 'tsconfig.json'), join(project, 'tsconfig.json'));
    writeFileSync(join(project, 'src/http/a.ts'), 'export {};\n');
    writeFileSync(join(project, 'src/http/b.ts'), 'export {};\n');
    writeFileSync(join(project, 'builds'), '');
    for (const path of ['package.json', 'tsconfig.json', 'src/http/a.ts', 'src/http/b.ts', 'src/http', 'src']) age(path, 60);

    expect(prestart()).toBe(1);
    expect(prestart()).toBe(1);

    writeFileSync(join(project, 'src/http/a.ts'), 'export const edited = true;\n');
    expect(prestart()).toBe(2);
    expect(prestart()).toBe(2);

    rmSync(join(project, 'src/http/b.ts'));
    expect(prestart()).toBe(3);
    expect(prestart()).toBe(3);

    rmSync(join(project, 'dist/main.js'));
    expect(prestart()).toBe(4);
  });
});

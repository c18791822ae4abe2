// The SDK as a package (shared decisions §11, issue 43): `npm pack` makes a tarball that installs into an
// empty folder, with no access to this repository's sources, and works there: its types check a consumer
// written in TypeScript, and its ESM build runs against a live service.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, soloTeam } from '../../test/support/service.js';
import { type LiveService, startLiveService } from './live-service.js';

const run = promisify(execFile);
const sdkRoot = new URL('..', import.meta.url).pathname;
const repositoryModules = join(sdkRoot, '..', 'node_modules');

let live: LiveService;
let folder: string;
let tarball: string;

beforeAll(async () => {
  live = await startLiveService();
  folder = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', folder], { cwd: sdkRoot, maxBuffer: 16 * 1024 * 1024 });
  tarball = join(folder, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: folder });
}, 120_000);

afterAll(async () => {
  await live?.t.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the packed SDK', () => {
  it('holds the build, its types, the README and the licence, and nothing else of the repository', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').map((file) => file.replace(/^package\//, ''));
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/v1.d.ts']));
    expect(files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(file))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(folder, 'node_modules/@guide-service/sdk/package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(sdkRoot, 'LICENSE'), 'utf8')).toBe(readFileSync(join(sdkRoot, '..', 'LICENSE'), 'utf8'));
  });

  it('type-checks a consumer written in TypeScript against its types', async () => {
    writeFileSync(
      join(folder, 'consumer.ts'),
      `import { GuideService, GuideServiceError, type Guide, type TailPage, verifyWebhook } from '@guide-service/sdk';
const client = new GuideService({ apiKey: 'gsk_x', baseUrl: 'https://guides.example.com' });
export async function titles(): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for await (const guide of client.guides.list({ q: 'password' })) out.push(guide.title);
  return out;
}
export const read = (id: string): Promise<Guide> => client.guides.get(id);
export const first = async (): Promise<TailPage | undefined> => (await client.events.tail().next()).value ?? undefined;
export const isNotFound = (error: unknown): boolean => error instanceof GuideServiceError && error.code === 'not_found';
export const verify = verifyWebhook;
`,
    );
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: ['node'], typeRoots: [join(repositoryModules, '@types')], skipLibCheck: false }, files: ['consumer.ts'] }),
    );
    const tsc = join(repositoryModules, 'typescript', 'bin', 'tsc');
    await expect(run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: folder })).resolves.toBeDefined();
  }, 60_000);

  it('runs from the empty folder against a live service (ESM)', async () => {
    const { team, key } = await soloTeam(live.t);
    await createGuide(live.t, team.id, { title: 'Packed and read' });
    writeFileSync(
      join(folder, 'read.mjs'),
      `import { GuideService } from '@guide-service/sdk';
const client = new GuideService({ apiKey: process.env.KEY, baseUrl: process.env.BASE });
const key = await client.verifyKey();
const titles = [];
for await (const guide of client.guides.list()) titles.push(guide.title);
console.log(JSON.stringify({ key: key.id, titles }));
`,
    );
    const { stdout } = await run(process.execPath, ['read.mjs'], { cwd: folder, env: { ...process.env, KEY: key, BASE: live.baseUrl } });
    expect(JSON.parse(stdout)).toMatchObject({ titles: ['Packed and read'] });
  });
});

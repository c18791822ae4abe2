// The run contract (decisions §1): a fresh data directory and `node dist/main.js` (what `npm start`
// runs after building) start the service with the demo, print the keys, the admin token and a curl line
// that works as printed; a bad variable stops the start with a message naming it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFlagsOf } from '../bench/paths.js';
import { type Build, buildService, projectRoot } from './support/build.js';
import { freePort, type ServiceProcess, spawnService } from './support/processes.js';
import { eventually } from './support/waiting.js';

const run = promisify(execFile);
let build: Build;

/** The built service on the embedded store (whatever the environment says), as `npm start` runs it. */
function startService(env: Record<string, string>, cwd: string): ServiceProcess {
  return spawnService(build.main, { LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', ...env }, cwd);
}

beforeAll(async () => {
  build = await buildService();
}, 120_000);
afterAll(() => build.remove());

describe('run contract (decisions §1)', () => {
  let service: ServiceProcess | undefined;
  afterAll(() => {
    service?.child.kill('SIGTERM');
  });

  it('starts on an embedded store with the demo and prints keys, admin token and a curl line that works as printed', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'guide-service-run-'));
    const port = await freePort();
    service = startService({ PORT: String(port) }, cwd);
    await eventually('the curl line', () => service!.output().includes('curl '), 30_000);
    const output = service.output();
    expect(output).toMatch(/Admin token:\s+adm_\S+/);
    expect(output).toMatch(/Organization key .*:\s+gsk_\w+/);
    expect(output).toMatch(/Team key .*:\s+gsk_\w+/);
    const curlLine = output.split('\n').find((line) => line.trim().startsWith('curl '))!.trim();
    const { stdout } = await run('sh', ['-c', `${curlLine} --silent --show-error --fail`]);
    const body = JSON.parse(stdout);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body).toHaveProperty('next_cursor');

    const adminToken = /Admin token:\s+(\S+)/.exec(output)![1];
    const orgs = await fetch(`http://localhost:${port}/admin/v1/users/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(orgs.status).toBe(404);
    // The guides whose code is kept in docs/examples/ are served by the built service too.
    const verifying = await fetch(`http://localhost:${port}/docs/webhooks`);
    expect(verifying.status).toBe(200);
    expect(await verifying.text()).toContain('verify_webhook');
  }, 60_000);

  it('refuses a bad variable with a message that names it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'guide-service-run-'));
    const bad = startService({ PORT: 'not-a-port' }, cwd);
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain('PORT');
    const badRole = startService({ ROLE: 'everything' }, cwd);
    expect(await badRole.exited).toBe(2);
    expect(badRole.output()).toContain('ROLE');
  }, 30_000);

  it('a script that opens the embedded store and closes it ends by itself, with the checkpoint thread stopped', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'guide-service-run-'));
    const database = pathToFileURL(join(dirname(build.main), 'db/database.js')).href;
    const script = `import { openStore } from ${JSON.stringify(database)};
      const store = openStore('file:' + ${JSON.stringify(join(cwd, 'service.db'))});
      await store.close();
      console.log('closed');`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd, timeout: 20_000 });
    expect(stdout.trim()).toBe('closed');
  }, 30_000);

  it('npm start caps the JavaScript heap, and docs/deploy.md starts a process with the same flags', () => {
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
    const startFlags = nodeFlagsOf(pkg.scripts.start);
    expect(startFlags).toContainEqual(expect.stringMatching(/^--max-old-space-size=\d+$/));
    const deploy = readFileSync(join(projectRoot, 'docs/deploy.md'), 'utf8');
    const documented = /`node ((?:--\S+ )*)dist\/main\.js`/.exec(deploy);
    expect(documented, 'docs/deploy.md names the command a process runs').not.toBeNull();
    expect(documented![1]!.trim().split(' ')).toEqual(startFlags);
  });
});

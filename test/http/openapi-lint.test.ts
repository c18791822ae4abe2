// The OpenAPI documents pass the two linters integrators' tools are built on (issue 14, item 4):
// @redocly/cli's recommended rules (redocly.yaml) and Spectral's OpenAPI ruleset (.spectral.yaml), with no error and
// no warning, as the service serves them.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service.js';

const run = promisify(execFile);
let t: TestService;
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const documents = { v1: join(dir, 'v1.json'), admin: join(dir, 'admin.json') };

beforeAll(async () => {
  t = await startTestService();
  writeFileSync(documents.v1, (await t.service.app.inject({ url: '/v1/openapi.json' })).body);
  writeFileSync(documents.admin, (await t.service.app.inject({ url: '/admin/v1/openapi.json', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).body);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a linter; its findings, whatever its exit status (it exits 1 when it finds errors). */
async function lint(command: string, args: string[]): Promise<string> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const result = await run(join(projectRoot, 'node_modules/.bin', command), args, { cwd: projectRoot, env }).catch((error: { stdout: string; stderr: string }) => error);
  return `${result.stdout}\n${result.stderr}`;
}

describe.each(Object.entries(documents))('the %s document', (_name, file) => {
  it('passes redocly lint (recommended, redocly.yaml) with no errors or warnings', async () => {
    const output = await lint('redocly', ['lint', file, '--format=json']);
    const report = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string }>;
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('passes spectral lint (spectral:oas) with no problems', async () => {
    const output = await lint('spectral', ['lint', '-r', join(projectRoot, '.spectral.yaml'), '-f', 'json', file]);
    const findings = JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1)) as Array<{ code: string; message: string; path: string[] }>;
    expect(findings.map((finding) => `${finding.code}: ${finding.message} at ${finding.path.join('.')}`)).toEqual([]);
  }, 60_000);
});

// Every shell example of README.md and of docs/*.md runs as printed (issue 14), so that an example can
// never rot again. The examples of one file run in order in ONE bash session against a started service,
// so that the variables one example sets feed the next, and every curl must get a 2xx answer.
//
// What the documents follow, and what this test relies on:
// - ```sh, ```bash and ```shell blocks are examples. A block that cannot run here (installing, starting
//   the service, the test commands) has `<!-- not run: why -->` right above it; a marker above anything
//   else is an error, so that a stray marker cannot hide an example.
// - The service's address is set once: `PORT=3000` and `BASE=http://localhost:$PORT` in the README's first
//   example that calls it, and every other address is made from `$BASE` (`V1=$BASE/v1`, `A=$BASE/admin/v1`),
//   so a reader on another port changes one line. The test assigns its started service's port to PORT; a
//   test below refuses an example, run or not, that writes the address or the port any other way.
// - An assignment whose value is elided with `…` (`ADMIN=adm_…`, `KEY=gsk_…`) stands for a value the
//   service prints at start; the test assigns the one its service printed. Nothing else is rewritten.
//
// The service runs in the api role with the demo loaded, so the examples read the demo as a reader's
// first start would, and no worker sends anything to the examples' webhook URL.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Node, Parser } from 'commonmark';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Build, buildService, projectRoot } from '../support/build.js';
import { killAll, PROCESS_WAIT, type ServiceNode, startServiceNode } from '../support/processes.js';
import { type TestDatabase, testDatabase } from '../support/test-database.js';
import { eventually } from '../support/waiting.js';

interface Example {
  file: string;
  /** The line of the opening fence. */
  line: number;
  source: string;
  /** False for a block marked `<!-- not run: why -->`. */
  runs: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'shell']);
const NOT_RUN = /^<!--\s*not run:\s*\S/;
/** The one assignment of the port, and of the address made from it. */
const PORT_ASSIGNMENT = /^PORT=3000(?=[ \t]|$)/m;
const BASE_ASSIGNMENT = 'BASE=http://localhost:$PORT';
/** What would write the service's address or port by hand: a loopback host, or the documented port. */
const HARD_CODED_ADDRESS = /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)\b|\[::1?\]|\b3000\b/;
const ELIDED_ASSIGNMENT = /^([A-Z][A-Z0-9_]*)=\S*…\S*/gm;

/** What the examples' elided values stand for, read from the service's start-up output. */
const PRINTED_AT_START: Record<string, RegExp> = {
  ADMIN: /Admin token:\s+(adm_\S+)/,
  KEY: /Organization key \([^)]*\):\s+(gsk_\S+)/,
};

/** The line the session prints before each example (`[example] <index>`). */
const EXAMPLE_LINE = /^\[example\] (\d+)$/m;
/** A status line of a curl whose answer was not 2xx (see the curl function below). */
const REFUSED_CALL = /^\[curl\] (?!2\d\d )/m;

const SESSION_PROLOGUE = [
  'set -euo pipefail',
  // A command substitution that fails (ORG=$(curl … | jq …) and the like) fails the command around it.
  'shopt -s inherit_errexit',
  // One stream, so that what a failing example printed and its curl status lines stay in order.
  'exec 2>&1',
  // Every curl of the examples comes here: an answer of 400 or more fails the command, and the status line
  // (on stderr, so that `| jq` and `$(…)` never see it) lets the test refuse any other answer that is not 2xx.
  `curl() { command curl --silent --show-error --fail-with-body --max-time 10 --write-out '%{stderr}\\n[curl] %{http_code} %{method} %{url_effective}\\n' "$@"; }`,
].join('\n');

const SESSION_TIMEOUT_MS = 30_000;

function isShellExample(node: Node | null): boolean {
  return node?.type === 'code_block' && SHELLS.has((node.info ?? '').trim().split(/\s+/)[0]!);
}

function isNotRunMarker(node: Node | null): boolean {
  return node?.type === 'html_block' && NOT_RUN.test(node.literal ?? '');
}

/** The shell blocks of `file` (relative to the project), in order, those marked not run included. */
function shellBlocks(file: string): Example[] {
  const document = new Parser().parse(readFileSync(join(projectRoot, file), 'utf8'));
  const examples: Example[] = [];
  const walker = document.walker();
  for (let step = walker.next(); step; step = walker.next()) {
    const { node, entering } = step;
    if (!entering) continue;
    if (isNotRunMarker(node) && !isShellExample(node.next)) {
      throw new Error(`${file}:${node.sourcepos[0][0]}: a "not run" marker must stand right above a shell block`);
    }
    if (isShellExample(node)) examples.push({ file, line: node.sourcepos[0][0], source: node.literal ?? '', runs: !isNotRunMarker(node.prev) });
  }
  return examples;
}

/** The example as the session runs it: the started service's port, and the values it printed. */
function asRun(example: Example, port: string, printed: Record<string, string>): string {
  return example.source.replace(PORT_ASSIGNMENT, `PORT=${port}`).replace(ELIDED_ASSIGNMENT, (_assignment, name: string) => {
    const value = printed[name];
    if (value === undefined) throw new Error(`${example.file}:${example.line}: ${name}=… stands for nothing the service prints at start`);
    return `${name}='${value}'`;
  });
}

/**
 * Runs `script` in bash with nothing of this process's environment but PATH (HOME is the work directory),
 * so that an example cannot lean on a variable it never set; stopped after SESSION_TIMEOUT_MS.
 */
function runSession(script: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd }, timeout: SESSION_TIMEOUT_MS });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

interface ExampleOutput {
  example: Example;
  output: string;
}

/** Splits the session's output at the marks printed before each example. */
function outputByExample(output: string, examples: Example[]): ExampleOutput[] {
  const pieces = output.split(EXAMPLE_LINE);
  const parts: ExampleOutput[] = [];
  for (let i = 1; i < pieces.length; i += 2) parts.push({ example: examples[Number(pieces[i])]!, output: pieces[i + 1]! });
  return parts;
}

/** A failure message: where the example is, the example as printed, and what it wrote (an OpenAPI document is one long line, so lines are cut). */
function report({ example, output }: ExampleOutput, what: string): string {
  const lines = output.trim().split('\n').map((line) => (line.length > 400 ? `${line.slice(0, 400)}… (${line.length} characters)` : line));
  return [`${example.file}:${example.line}: ${what}. The example:`, example.source.trimEnd(), 'What it wrote:', lines.join('\n')].join('\n\n');
}

const documents = ['README.md', ...readdirSync(join(projectRoot, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
const blocks = documents.flatMap(shellBlocks);
// The README always has examples; a file of docs/ is tested once it has some.
const documentExamples = documents
  .map((file) => ({ file, examples: blocks.filter((block) => block.file === file && block.runs) }))
  .filter(({ file, examples }) => file === 'README.md' || examples.length > 0);

describe('the address in the documentation examples', () => {
  const where = (block: Example, index: number) => `${block.file}:${block.line + 1 + index}`;
  const lines = blocks.flatMap((block) => block.source.split('\n').map((text, index) => ({ at: where(block, index), block, text })));

  it('is written once, PORT=3000 and BASE made from it, in the README\'s first example that calls the service', () => {
    const first = blocks.find((block) => block.runs && block.source.includes('curl'))!;
    expect(first.file).toBe('README.md');
    const ports = lines.filter(({ text }) => /^\s*PORT=/.test(text));
    const bases = lines.filter(({ text }) => /^\s*BASE=/.test(text));
    expect(ports.map(({ block, text }) => [block, text])).toEqual([[first, expect.stringMatching(PORT_ASSIGNMENT)]]);
    expect(bases.map(({ block, text }) => [block, text.split(/\s/)[0]])).toEqual([[first, BASE_ASSIGNMENT]]);
  });

  it('is never written by hand elsewhere: no example, run or not, names a loopback host or the port but through $PORT and $BASE', () => {
    const handWritten = lines
      .filter(({ text }) => !PORT_ASSIGNMENT.test(text) && !text.startsWith(BASE_ASSIGNMENT))
      .filter(({ text }) => HARD_CODED_ADDRESS.test(text) || /^\s*[A-Z][A-Z0-9_]*=["']?https?:/.test(text));
    expect(handWritten.map(({ at, text }) => `${at}: ${text.trim()}`)).toEqual([]);
  });
});

describe('documentation examples', () => {
  let build: Build;
  let database: TestDatabase;
  let workDir: string;
  let service: ServiceNode;
  let printed: Record<string, string>;
  const nodes: ServiceNode[] = [];

  beforeAll(async () => {
    build = await buildService();
    database = await testDatabase();
    workDir = mkdtempSync(join(tmpdir(), 'guide-service-examples-'));
    service = await startServiceNode(
      build.main,
      'api',
      // A token of the service's own and the demo, as on a reader's first start; no settings of the
      // developer's shell that would change what the examples see.
      { ADMIN_TOKEN: '', DATA_DIR: '', APP_URL: '', SMTP_URL: '', REDIS_URL: '', ...database.env, DEMO: 'true', LOG_LEVEL: 'warn' },
      nodes,
      { publicUrl: true },
    );
    const banner = await eventually('the start-up banner', () => service.output().includes('Organization key') && service.output(), PROCESS_WAIT);
    printed = Object.fromEntries(
      Object.entries(PRINTED_AT_START).map(([name, pattern]) => {
        const match = pattern.exec(banner);
        if (!match) throw new Error(`the start-up output has no ${name} (${pattern}):\n${banner}`);
        return [name, match[1]!];
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await killAll(nodes);
    await database?.drop();
    await build?.remove();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  for (const { file, examples } of documentExamples) {
    it(`every shell example in ${file} runs as printed`, async () => {
      expect(examples.length).toBeGreaterThan(0);
      const script = [SESSION_PROLOGUE, ...examples.flatMap((example, i) => [`printf '\\n[example] ${i}\\n'`, asRun(example, new URL(service.url).port, printed)])].join('\n');
      const { code, output } = await runSession(script, workDir);
      const parts = outputByExample(output, examples);
      const refused = parts.find((part) => REFUSED_CALL.test(part.output));
      if (refused) expect.fail(report(refused, 'a curl got an answer other than 2xx'));
      if (code !== 0) {
        const how = code === null ? `the session did not finish within ${SESSION_TIMEOUT_MS / 1000} s` : `the session stopped with exit code ${code}`;
        const last = parts.at(-1);
        expect.fail(last ? report(last, how) : `${how} before the first example:\n${output}`);
      }
      expect(parts).toHaveLength(examples.length);
    }, SESSION_TIMEOUT_MS + 5_000);
  }
});

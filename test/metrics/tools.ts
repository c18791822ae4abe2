// Prometheus's own tools for the metrics tests: Debian's `prometheus` package (prometheus, promtool),
// which .ci/run installs. Without them the tests that need them are skipped, unless REQUIRE_TEST_SERVERS
// is set (CI), where a missing tool is a failure.
import { execFileSync, spawn } from 'node:child_process';

function found(command: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export const PROMTOOL = found('promtool');
export const PROMETHEUS = found('prometheus');

/** Whether a test needing `tool` runs; throws when CI requires it and it is missing. */
export function available(tool: string | null, name: string): boolean {
  if (tool) return true;
  if (process.env.REQUIRE_TEST_SERVERS) throw new Error(`REQUIRE_TEST_SERVERS is set but ${name} is not installed (apt-get install prometheus)`);
  return false;
}

/** Runs promtool with `args` (and `input` on stdin); answers its exit code and everything it printed. */
export function promtool(args: string[], input?: string, cwd?: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL!, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input ?? '');
  });
}

// Podman for the tests of the image and the compose stack (decisions §11, "Shipping"). SHIPPING_TESTS
// says whether they run: unset, when podman is installed; `require` (CI), always, so that a machine
// without podman fails instead of skipping; `skip`, never (CI runs them once, in a step of their own, on
// an otherwise idle machine: shipping.ts). This
// machine reaches no container registry: the base images are local stand-ins built under the official
// names (stand-ins/build.sh), and podman runs with this machine's settings (stand-ins/containers.conf).
// None of that touches the Containerfile or compose.yaml.
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../support/build.js';
import { shippingTests } from './shipping.js';

const run = promisify(execFile);
const STAND_INS = join(import.meta.dirname, 'stand-ins');

function installed(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Whether the container tests run here; with SHIPPING_TESTS=require they run, and fail without podman. */
export const containerTestsRun = shippingTests === 'require' || (shippingTests === 'run' && installed('podman'));

/** Fails a required run on a machine that lacks a tool, saying what to install. */
export function requireTool(command: string, debianPackage: string): void {
  if (!installed(command)) throw new Error(`SHIPPING_TESTS=require, but ${command} is not installed (Debian: apt-get install ${debianPackage})`);
}

/** The environment every podman command of the tests gets: this machine's settings. */
const podmanEnv = { ...process.env, CONTAINERS_CONF: join(STAND_INS, 'containers.conf') };

interface PodmanOptions {
  /** podman-compose, or a script that runs podman, instead of podman. */
  program?: string;
  timeoutMs?: number;
  /** Variables added to the environment (compose.yaml's, as .env would give them). */
  env?: Record<string, string>;
}

/** Runs podman (or `program`) in the project's folder and answers its stdout; fails with its stderr. */
export async function podman(args: string[], options: PodmanOptions = {}): Promise<string> {
  try {
    const { stdout } = await run(options.program ?? 'podman', args, {
      env: { ...podmanEnv, ...options.env },
      cwd: projectRoot,
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failure = error as Error & { stderr?: string; stdout?: string };
    throw new Error(`${options.program ?? 'podman'} ${args.join(' ')} failed: ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`);
  }
}

/** Builds the stand-in base images unless those present are current (a few minutes the first time). */
export async function ensureStandIns(): Promise<void> {
  requireTool('podman', 'podman runc');
  requireTool('debootstrap', 'debootstrap');
  await podman([], { program: join(STAND_INS, 'build.sh'), timeoutMs: 30 * 60_000 });
}

/**
 * Builds the project's Containerfile into `tag` as a user would, with two of this machine's needs: Docker's
 * format (podman's own drops HEALTHCHECK) and the host's network (the registry is reached through it).
 */
export async function buildServiceImage(tag: string): Promise<void> {
  await podman(['build', '--format', 'docker', '--network', 'host', '-t', tag, '.'], { timeoutMs: 30 * 60_000 });
}

/** Answers `podman inspect --format` of a container or image. */
export async function inspect(name: string, format: string, type: 'container' | 'image' = 'container'): Promise<string> {
  return (await podman([type === 'image' ? 'image' : 'container', 'inspect', '--format', format, name])).trim();
}

/** What a container printed so far, stdout and stderr. */
export async function containerLogs(name: string): Promise<string> {
  const { stdout, stderr } = await run('podman', ['logs', name], { env: podmanEnv, maxBuffer: 64 * 1024 * 1024 }).catch(() => ({ stdout: '', stderr: '' }));
  return `${stdout}${stderr}`;
}

// Child processes of the benchmark: each one is spawned through here so that a crash, an error or ctrl-c
// never leaves a service, a ceiling, a receiver or the benchmark's servers running after it ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  /** The last 64 KiB of what the process wrote, for error messages. */
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const running = new Set<Child>();
/** What else must be stopped when the benchmark ends, however it ends: servers started by a script. */
const alsoStopped = new Set<() => void>();
let hooked = false;

function killEverything(): void {
  for (const child of running) child.process.kill('SIGKILL');
  running.clear();
  for (const stop of alsoStopped) stop();
  alsoStopped.clear();
}

/**
 * Runs `stop` (synchronous) when the benchmark exits, on an error or a signal too, unless the answer is
 * called first, which runs it then: for what is not a child of this process, such as the PostgreSQL and
 * Redis the servers' script leaves running (a bench stopped by ctrl-c used to leave them).
 */
export function stopAtExit(stop: () => void): () => void {
  hookExit();
  const once = () => {
    if (alsoStopped.delete(once)) stop();
  };
  alsoStopped.add(once);
  return once;
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killEverything);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
      killEverything();
      process.exit(130);
    });
  }
}

const OUTPUT_KEPT = 64 * 1024;

export function spawnChild(name: string, command: string, args: string[], env: Record<string, string> = {}, cwd?: string): Child {
  hookExit();
  const child = spawn(command, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const handle: Child = {
    name,
    process: child,
    pid: child.pid,
    output: () => output,
    exited,
    stop: async () => {
      running.delete(handle);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/** Runs a command to its end and answers its stdout; a non-zero exit throws with its stderr. */
export async function runToEnd(name: string, command: string, args: string[], env: Record<string, string> = {}, onStderr?: (text: string) => void): Promise<string> {
  const child = spawnChild(name, command, args, env);
  let stdout = '';
  child.process.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  if (onStderr) child.process.stderr!.on('data', (chunk: Buffer) => onStderr(chunk.toString('utf8')));
  const code = await child.exited;
  if (code !== 0) throw new Error(`${name} exited with ${code}:\n${child.output()}`);
  return stdout;
}

/** A loopback port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 2xx; fails early if the child exits, with its output. */
export async function waitReady(child: Child, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void child.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${child.name} exited with ${exitCode} before it was ready:\n${child.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${child.name} was not ready at ${url} within ${timeoutMs} ms:\n${child.output()}`);
}

/** Memory of a process from /proc (Linux): resident now and its peak (high-water mark), in MiB. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Samples a process's resident memory every `everyMs` until stopped; answers the largest sample in MiB. */
export function sampleRss(pid: number, everyMs = 100): { stop(): number } {
  let peak = memoryOf(pid)?.rssMb ?? 0;
  const timer = setInterval(() => {
    const now = memoryOf(pid)?.rssMb;
    if (now !== undefined && now > peak) peak = now;
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      const now = memoryOf(pid)?.rssMb;
      return Math.max(peak, now ?? 0);
    },
  };
}

/** Open sockets of a process, from its file descriptors in /proc (Linux); null when it cannot be read. */
export function socketsOf(pid: number): number | null {
  try {
    return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
      } catch {
        return false; // closed meanwhile
      }
    }).length;
  } catch {
    return null;
  }
}

/** The whole machine's CPU time so far, from /proc/stat (Linux): busy and total jiffies over all cores. */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle and iowait
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Measures how busy the machine's cores are from now until `stop()`: 1 is every core busy all the time. */
function machineBusy(): { stop(): number } {
  const start = machineTicks();
  return {
    stop: () => {
      const end = machineTicks();
      if (!start || !end || end.total === start.total) return NaN;
      return (end.busy - start.busy) / (end.total - start.total);
    },
  };
}

/** CPU seconds (user and system) a process has used so far, from /proc (Linux); 0 when it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    // The fields after the command name, which is in parentheses and may itself hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in clock ticks of 1/100 s
  } catch {
    return 0;
  }
}

/** The processes whose command name is `name` (PostgreSQL's server processes are all `postgres`). */
export function pidsNamed(name: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * Where the time goes from now until `stop()`: how busy the machine's cores were (1 = all of them), the CPU
 * seconds each named group of processes used, and how many seconds passed.
 */
export function measureCpu(groups: Record<string, () => number[]>): { stop(): { machineBusy: number; cpuSeconds: Record<string, number>; seconds: number } } {
  const busy = machineBusy();
  const cpu = cpuUse(groups);
  const started = performance.now();
  return { stop: () => ({ machineBusy: busy.stop(), cpuSeconds: cpu.stop(), seconds: (performance.now() - started) / 1000 }) };
}

/** CPU seconds that each named group of processes uses from now until `stop()`. */
function cpuUse(groups: Record<string, () => number[]>): { stop(): Record<string, number> } {
  const total = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  const start = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, total(pids())]));
  return {
    stop: () => Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, Math.round((total(pids()) - start[name]!) * 100) / 100])),
  };
}

// The load generator: wrk (Debian's package) in a separate process on loopback. Its Lua done hook
// (wrk-report.lua) prints exact percentiles as JSON; this module runs it and parses that line.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths.js';
import { runToEnd } from './processes.js';

export interface WrkMeasurement {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Bytes read, headers included. */
  bytes: number;
  /** Answers with a status of 400 or more (wrk counts those as errors), and socket errors. */
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
}

export interface WrkLoad {
  url: string;
  headers: Record<string, string>;
  connections: number;
  threads: number;
  seconds: number;
  /** A Lua script in bench/ other than wrk-report.lua (it must load that one for the report), and its arguments. */
  script?: { name: string; args: string[] };
}

interface WrkJson {
  requests: number;
  duration_us: number;
  bytes: number;
  mean_us: number;
  p50_us: number;
  p90_us: number;
  p99_us: number;
  max_us: number;
  errors: WrkMeasurement['errors'];
}

const MARK = 'WRK_JSON ';

/** Reads the done hook's line out of wrk's output; throws when it is missing (wrk failed to run). */
export function parseWrkOutput(output: string): WrkMeasurement {
  const line = output.split('\n').find((candidate) => candidate.startsWith(MARK));
  if (!line) throw new Error(`wrk printed no ${MARK.trim()} line; its output was:\n${output}`);
  const raw = JSON.parse(line.slice(MARK.length)) as WrkJson;
  const seconds = raw.duration_us / 1e6;
  const ms = (us: number) => us / 1000;
  return {
    requests: raw.requests,
    seconds,
    requestsPerSecond: seconds > 0 ? raw.requests / seconds : 0,
    meanMs: ms(raw.mean_us),
    p50Ms: ms(raw.p50_us),
    p90Ms: ms(raw.p90_us),
    p99Ms: ms(raw.p99_us),
    maxMs: ms(raw.max_us),
    bytes: raw.bytes,
    errors: raw.errors,
  };
}

/**
 * Several wrk processes run side by side, as one: counts and rates added, percentiles and maximum the worse
 * of them (wrk's histograms cannot be merged from outside), the mean weighted by requests.
 */
export function combineWrk(parts: readonly WrkMeasurement[]): WrkMeasurement {
  if (parts.length === 1) return parts[0]!;
  const sum = (pick: (part: WrkMeasurement) => number) => parts.reduce((total, part) => total + pick(part), 0);
  const worst = (pick: (part: WrkMeasurement) => number) => Math.max(...parts.map(pick));
  const requests = sum((part) => part.requests);
  return {
    requests,
    seconds: worst((part) => part.seconds),
    requestsPerSecond: sum((part) => part.requestsPerSecond),
    meanMs: requests > 0 ? sum((part) => part.meanMs * part.requests) / requests : 0,
    p50Ms: worst((part) => part.p50Ms),
    p90Ms: worst((part) => part.p90Ms),
    p99Ms: worst((part) => part.p99Ms),
    maxMs: worst((part) => part.maxMs),
    bytes: sum((part) => part.bytes),
    errors: {
      connect: sum((part) => part.errors.connect),
      read: sum((part) => part.errors.read),
      write: sum((part) => part.errors.write),
      status: sum((part) => part.errors.status),
      timeout: sum((part) => part.errors.timeout),
    },
  };
}

export function failedRequests(measurement: WrkMeasurement): number {
  const { connect, read, write, status, timeout } = measurement.errors;
  return connect + read + write + status + timeout;
}

/** The installed wrk's version ("wrk debian/4.1.0-3+b2 [epoll]"), or null when wrk is missing. */
export function wrkVersion(): string | null {
  const first = (text: string) => text.split('\n')[0]!.replace(/\s*Copyright.*$/, '').trim();
  try {
    return first(execFileSync('wrk', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (error) {
    // `wrk -v` prints its version and exits 1; the output is still there.
    const stdout = (error as { stdout?: string }).stdout;
    if (typeof stdout === 'string' && stdout.startsWith('wrk')) return first(stdout);
    return null;
  }
}

/** Makes sure wrk is there: installs Debian's package when running as root, else says how. */
export function ensureWrk(log: (line: string) => void): string {
  const found = wrkVersion();
  if (found) return found;
  if (process.getuid?.() === 0) {
    log('wrk is missing; installing Debian\'s package (apt-get install -y wrk)');
    try {
      execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'ignore' });
    } catch {
      execFileSync('apt-get', ['update'], { stdio: 'ignore' });
      execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'ignore' });
    }
    const installed = wrkVersion();
    if (installed) return installed;
  }
  throw new Error('The benchmark needs wrk, the HTTP load generator: install it with `sudo apt-get install wrk` and run again.');
}

export async function runWrk(load: WrkLoad): Promise<WrkMeasurement> {
  const args = [
    `-t${load.threads}`,
    `-c${load.connections}`,
    `-d${load.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    join(repoRoot, 'bench', load.script?.name ?? 'wrk-report.lua'),
  ];
  for (const [name, value] of Object.entries(load.headers)) args.push('-H', `${name}: ${value}`);
  // wrk hands what follows the URL to the script's init(args).
  args.push(load.url, ...(load.script?.args ?? []));
  return parseWrkOutput(await runToEnd('wrk', 'wrk', args));
}

// The machine a run measured on, recorded with its results: ratios travel between machines, absolute
// figures do not.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';
import type { Machine } from './results.js';

export function describeMachine(wrk: string): Machine {
  let cpuCount = cpus().length;
  try {
    cpuCount = Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || cpuCount;
  } catch {
    // nproc missing: os.cpus() stands in
  }
  return {
    cpus: cpuCount,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryMb: Math.round(totalmem() / 1024 / 1024),
    node: process.version,
    wrk,
    kernel: release(),
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

export function gitState(cwd: string): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd, encoding: 'utf8' }).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: false };
  }
}

// Percentiles of a list of latencies, by the nearest-rank method (the value below which p % of them lie).
import type { LatencySummary } from '../results.js';

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return { count: sorted.length, p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)), maxMs: round(sorted[sorted.length - 1] ?? NaN) };
}

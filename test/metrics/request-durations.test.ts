// The request duration histogram counts in place of prom-client's own: what it exports must be exactly
// what a prom-client Histogram exports for the same observations.
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from '../../src/metrics/request-durations.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const OBSERVED: [string, string, number, number][] = [
  ['/v1/guides', 'GET', 200, 0.0004],
  ['/v1/guides', 'GET', 200, 0.001], // on a bound: counted in it (le)
  ['/v1/guides', 'GET', 304, 0.05],
  ['/v1/guides', 'GET', 429, 0.002],
  ['/v1/guides/:guideId', 'GET', 404, 3], // past every bound: +Inf only
  ['/v1/guides', 'HEAD', 200, 0.2],
];

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

describe('request durations', () => {
  it('exports the same text as a prom-client Histogram given the same observations', async () => {
    const ours = new Registry();
    const durations = new RequestDurations('t_seconds', 'Time.', BOUNDS, ours);
    const theirs = new Registry();
    const reference = new Histogram({ name: 't_seconds', help: 'Time.', labelNames: ['route', 'method', 'status_class'], buckets: BOUNDS, registers: [theirs] });
    const recorders = new Map<string, ReturnType<RequestDurations['recorder']>>();
    for (const [route, method, status, seconds] of OBSERVED) {
      if (!recorders.has(route)) recorders.set(route, durations.recorder(route));
      recorders.get(route)!(method, status, seconds);
      reference.observe({ route, method, status_class: statusClass(status) }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    // And the same values to prom-client's JSON (exemplars aside, which this histogram does not keep).
    const plain = ({ values }: Awaited<ReturnType<Histogram['get']>>) => values.map(({ labels, value, metricName }) => ({ labels, value, metricName }));
    expect(plain(await durations.get())).toEqual(plain(await reference.get()));
  });

  it('two recorders of one route count into one series; reset zeroes it and counting goes on', async () => {
    const registry = new Registry();
    const durations = new RequestDurations('t_seconds', 'Time.', BOUNDS, registry);
    durations.recorder('/v1/teams')('GET', 200, 0.005);
    durations.recorder('/v1/teams')('GET', 201, 0.005);
    expect(await registry.metrics()).toContain('t_seconds_count{route="/v1/teams",method="GET",status_class="2xx"} 2');
    const record = durations.recorder('/v1/teams');
    durations.reset();
    expect(await registry.metrics()).toContain('t_seconds_count{route="/v1/teams",method="GET",status_class="2xx"} 0');
    record('GET', 200, 0.005);
    expect(await registry.metrics()).toContain('t_seconds_count{route="/v1/teams",method="GET",status_class="2xx"} 1');
  });
});

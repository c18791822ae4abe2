// The request duration histogram, counted in place. prom-client's Histogram#observe builds, validates and
// hashes a label object on every call, which measured about 1.4 % of a cached read's CPU; here a request
// costs a map look-up, a scan of the bounds and three additions. prom-client still owns the registry and
// the text format: this is one of its histograms whose values are read from these counts when scraped.
import { Histogram, type Registry } from 'prom-client';

type Label = 'route' | 'method' | 'status_class';
type Labels = Record<Label, string>;

interface Series {
  labels: Labels;
  /** Observations per bucket (not cumulative), the last one past every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

export function statusClass(statusCode: number): StatusClass {
  if (statusCode >= 500) return '5xx';
  if (statusCode >= 400) return '4xx';
  if (statusCode >= 300) return '3xx';
  if (statusCode >= 200) return '2xx';
  return '1xx';
}

/** A value as prom-client's histograms give it: the series' labels shared, the bucket's bound its own. */
interface ExportedValue {
  labels: { le?: number | string };
  sharedLabels: Labels;
  value: number;
  metricName: string;
}

/** Records one answered request of a route: its method, status and time in seconds. */
export type RouteRecorder = (method: string, statusCode: number, seconds: number) => void;

export class RequestDurations extends Histogram<Label> {
  private readonly series: Series[] = [];

  constructor(
    private readonly metricName: string,
    private readonly metricHelp: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    super({ name: metricName, help: metricHelp, labelNames: ['route', 'method', 'status_class'], buckets: [...bounds], registers: [registry] });
  }

  /** The recorder of one route template; a series is made on the first request of each method and status. */
  recorder(route: string): RouteRecorder {
    const byMethodAndStatus = new Map<string, Series>();
    return (method, statusCode, seconds) => {
      const key = method + statusCode;
      let series = byMethodAndStatus.get(key);
      if (!series) {
        const labels = { route, method, status_class: statusClass(statusCode) };
        series = this.series.find((other) => sameLabels(other.labels, labels));
        if (!series) this.series.push((series = { labels, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 }));
        byMethodAndStatus.set(key, series);
      }
      let bucket = 0;
      while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket += 1;
      series.buckets[bucket]! += 1;
      series.sum += seconds;
      series.count += 1;
    };
  }

  /**
   * What the registry formats (it asks for this rather than get() when there is one; prom-client's get()
   * splays it): the series in the shape prom-client's own histograms give them.
   */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: ExportedValue[] }> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.metricName}_bucket`;
    for (const { labels, buckets, sum, count } of this.series) {
      let cumulative = 0;
      this.bounds.forEach((le, index) => {
        cumulative += buckets[index]!;
        values.push({ labels: { le }, sharedLabels: labels, value: cumulative, metricName: bucketName });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucketName });
      values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.metricName}_sum` });
      values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.metricName}_count` });
    }
    return { name: this.metricName, help: this.metricHelp, type: 'histogram', aggregator: 'sum', values };
  }

  /** Zeroes the counts; the recorders keep counting into the same series. */
  override reset(): void {
    // prom-client's constructor calls reset() before this class's fields exist.
    for (const series of (this.series as Series[] | undefined) ?? []) {
      series.buckets.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

function sameLabels(a: Labels, b: Labels): boolean {
  return a.route === b.route && a.method === b.method && a.status_class === b.status_class;
}

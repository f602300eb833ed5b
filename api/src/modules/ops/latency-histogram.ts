/**
 * The api's request latency histogram (shop_http_request_duration_seconds), a metric
 * prom-client's registry serves like its own (the same exposition: cumulative `_bucket`
 * lines with `le`, then `_sum` and `_count`).
 *
 * Why not prom-client's Histogram (docs/decisions.md): its `observe`, even on a series
 * bound with `labels()`, copies the label set, validates it and hashes it into a string
 * key on every call, which cost about 2.5 µs of the ~90 µs the api spends on a cached
 * catalogue read (the bench's GET /api/products/:id row). Here a series is looked up once
 * (the caller keeps it) and an observation is two additions and a bucket's increment.
 */
export type LatencySeries = { observe(seconds: number): void };

type Series = { labels: Readonly<Record<string, string>>; counts: number[]; sum: number; count: number };
type Value = { labels: Record<string, string | number>; value: number; metricName: string };

export class LatencyHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    /** Upper bounds, ascending (`le`: a value equal to a bound falls in it). */
    private readonly bounds: readonly number[],
  ) {}

  /** A new series for this label set: the caller keeps it, one per set. */
  series(labels: Readonly<Record<string, string>>): LatencySeries {
    const s: Series = { labels, counts: this.bounds.map(() => 0), sum: 0, count: 0 };
    this.all.push(s);
    const bounds = this.bounds;
    return {
      observe(seconds) {
        s.sum += seconds;
        s.count += 1;
        for (let i = 0; i < bounds.length; i++) {
          if (seconds <= (bounds[i] as number)) {
            (s.counts[i] as number)++;
            return;
          }
        }
      },
    };
  }

  /** What prom-client's registry reads at a scrape. */
  get(): { name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Value[] } {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.all) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.counts[i] as number;
        values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: bucket });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const s of this.all) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}

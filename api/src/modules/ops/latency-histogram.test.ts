import { describe, expect, it } from 'vitest';
import { Histogram, Registry, type Metric } from 'prom-client';
import { LatencyHistogram } from './latency-histogram.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

describe('latency histogram', () => {
  it("scrapes exactly as prom-client's own Histogram given the same observations, bounds and values on them included", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Histogram({ name: 'shop_http_request_duration_seconds', help: 'HTTP request latency', labelNames: ['method', 'route', 'status'], buckets: BUCKETS, registers: [theirs] });
    const histogram = new LatencyHistogram('shop_http_request_duration_seconds', 'HTTP request latency', BUCKETS);
    ours.registerMetric(histogram as unknown as Metric);
    const observations: [Record<string, string>, number][] = [
      [{ method: 'GET', route: '/api/products', status: '200' }, 0.0012],
      [{ method: 'GET', route: '/api/products', status: '200' }, 0.005],
      [{ method: 'GET', route: '/api/products', status: '200' }, 0.3],
      [{ method: 'GET', route: '/api/products/:id', status: '404' }, 7],
      [{ method: 'POST', route: '/api/orders', status: '201' }, 0.0999],
      [{ method: 'GET', route: '/api/products', status: '200' }, 2.5],
    ];
    const series = new Map<string, ReturnType<LatencyHistogram['series']>>();
    for (const [labels, value] of observations) {
      reference.observe(labels, value);
      const key = JSON.stringify(labels);
      if (!series.has(key)) series.set(key, histogram.series(labels));
      series.get(key)!.observe(value);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('shop_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/products",status="200"} 2');
    expect(text).toContain('shop_http_request_duration_seconds_count{method="GET",route="/api/products",status="200"} 4');

    histogram.reset();
    reference.reset();
    // prom-client forgets its series on reset; ours keeps them at zero (each is kept by a caller).
    expect(await ours.metrics()).toContain('shop_http_request_duration_seconds_count{method="GET",route="/api/products",status="200"} 0');
  });
});

// autocannon ships no types; this covers what the benchmarks use.
declare module 'autocannon' {
  export type Options = {
    url: string;
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    ignoreCoordinatedOmission?: boolean;
    pipelining?: number;
    timeout?: number;
    /** Called once per connection (client) as it is created. */
    setupClient?: (client: { setHeaders(headers: Record<string, string>): void }) => void;
    /** The requests each connection sends in turn; `setupRequest` may change each before it is sent. */
    requests?: { setupRequest?: (req: CannonRequest) => CannonRequest }[];
  };
  export type CannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  };
  export type Result = {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    latency: Histogram;
    requests: Histogram & { sent: number };
    statusCodeStats: Record<string, { count: number }>;
  };
  export default function autocannon(options: Options): PromiseLike<Result>;
}

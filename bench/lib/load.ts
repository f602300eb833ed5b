import http from 'node:http';
import autocannon, { type CannonRequest, type Result } from 'autocannon';
import { int, ms, percentile } from './stats.ts';

/**
 * Two ways to load a server from this process: autocannon flat out (throughput), and an
 * open-loop generator that starts one request every 1/rate seconds whatever the server
 * does (latency at a given rate).
 */
export type LoadResult = {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  /** Errors, timeouts and responses with an unexpected status. */
  failures: number;
  /** Answers with the target's `refusedStatus` (a cap saying no): neither throughput nor failures. */
  refusals?: number;
  /**
   * Open-loop runs only: how many distinct 100 ms windows (by scheduled start) the
   * slowest 1% of requests fall in. A handful means stalls, not a uniformly slow server.
   */
  slowestWindows?: number;
};

export type LoadTarget = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  expectStatus?: number;
  /** Headers per connection, handed out in turn (say, one buyer's session per connection). */
  headersByConnection?: Record<string, string>[];
  /** Headers per request, handed out in turn over all connections (say, many buyers' sessions). */
  headersByRequest?: Record<string, string>[];
  /** A status that is a refusal by design (a cap's 409): counted apart, not as a failure. */
  refusedStatus?: number;
};

/** autocannon with `connections` concurrent keep-alive connections for `seconds`. */
export async function maxLoad(target: LoadTarget, opts: { seconds: number; connections: number }): Promise<LoadResult> {
  return summarize(await autocannon({ ...cannonTarget(target), connections: opts.connections, duration: opts.seconds, timeout: 10 }), target);
}

/**
 * autocannon's fixed-rate mode (`overallRate`), for comparison only: each connection
 * sends its share of the second back to back at the top of every second, so the server
 * sees a burst of `rate` requests at `connections` concurrency each second rather than
 * a steady stream.
 */
export async function burstLoad(target: LoadTarget, opts: { seconds: number; connections: number; rate: number }): Promise<LoadResult> {
  const result = await autocannon({
    ...cannonTarget(target),
    connections: opts.connections,
    overallRate: opts.rate,
    // Its correction assumes evenly spaced requests, which this mode does not send.
    ignoreCoordinatedOmission: true,
    duration: opts.seconds,
    timeout: 10,
  });
  return summarize(result, target);
}

/**
 * maxLoad on several targets in `rounds` short turns, the order rotated each round, so
 * a slow spell of a shared machine falls on every target alike instead of on whichever
 * ran at that moment. Per target: the median round's throughput and latencies, and the
 * failures and requests of all rounds.
 */
export async function interleavedMaxLoad<K extends string>(
  targets: Record<K, LoadTarget>,
  opts: { rounds: number; seconds: number; connections: number },
): Promise<Record<K, LoadResult & { rounds: number[] }>> {
  const keys = Object.keys(targets) as K[];
  const runs = new Map<K, LoadResult[]>(keys.map((k) => [k, []]));
  for (let round = 0; round < opts.rounds; round++) {
    const order = [...keys.slice(round % keys.length), ...keys.slice(0, round % keys.length)];
    for (const key of order) runs.get(key)!.push(await maxLoad(targets[key], { seconds: opts.seconds, connections: opts.connections }));
  }
  const out = {} as Record<K, LoadResult & { rounds: number[] }>;
  for (const key of keys) {
    const results = runs.get(key)!;
    const byRps = [...results].sort((a, b) => a.rps - b.rps);
    const mid = byRps[Math.floor((byRps.length - 1) / 2)]!;
    out[key] = {
      ...mid,
      requests: results.reduce((n, r) => n + r.requests, 0),
      failures: results.reduce((n, r) => n + r.failures, 0),
      refusals: results.reduce((n, r) => n + (r.refusals ?? 0), 0),
      rounds: results.map((r) => r.rps),
    };
  }
  return out;
}

/** Where each list of per-request headers was left: the next run goes on from there (a buyer is not asked again each turn). */
const requestCursors = new WeakMap<Record<string, string>[], number>();

function cannonTarget(target: LoadTarget) {
  const perConnection = target.headersByConnection;
  const perRequest = target.headersByRequest;
  let next = 0;
  const nextHeaders = (list: Record<string, string>[]) => {
    const at = requestCursors.get(list) ?? 0;
    requestCursors.set(list, at + 1);
    return list[at % list.length];
  };
  return {
    ...(perRequest?.length ? { requests: [{ setupRequest: (req: CannonRequest) => ({ ...req, headers: { ...req.headers, ...nextHeaders(perRequest) } }) }] } : {}),
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    ...(perConnection?.length
      ? { setupClient: (client: { setHeaders(h: Record<string, string>): void }) => client.setHeaders({ ...target.headers, ...perConnection[next++ % perConnection.length] }) }
      : {}),
  };
}

function summarize(result: Result, target: LoadTarget): LoadResult {
  const expected = String(target.expectStatus ?? 200);
  const good = result.statusCodeStats[expected]?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  const refusals = target.refusedStatus ? (result.statusCodeStats[String(target.refusedStatus)]?.count ?? 0) : 0;
  return {
    rps: good / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: answered,
    failures: result.errors + result.timeouts + (answered - good - refusals),
    refusals,
  };
}

/**
 * Starts request i at t0 + i/rate (open loop), on keep-alive connections opened as
 * needed. Latency is measured from the scheduled start, so a server (or generator)
 * that falls behind is charged for the wait, as a user would be.
 */
export async function steadyLoad(target: LoadTarget, opts: { seconds: number; rate: number; timeoutMs?: number }): Promise<LoadResult> {
  const url = new URL(target.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const expected = target.expectStatus ?? 200;
  const latencies: number[] = [];
  const scheduledAt: number[] = [];
  let failures = 0;
  let settled = 0;
  let allSettled: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    allSettled = resolve;
  });

  const fire = (due: number) => {
    let done = false;
    const settle = (latency: number | null) => {
      if (done) return;
      done = true;
      if (latency === null) failures++;
      else {
        latencies.push(latency);
        scheduledAt.push(due - start);
      }
      if (++settled === total) allSettled();
    };
    const req = http.request(
      { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: target.method ?? 'GET', headers: target.headers },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => settle(res.statusCode === expected ? performance.now() - due : null));
        res.on('error', () => settle(null));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => settle(null));
    req.end(target.body);
  };

  const start = performance.now() + 5;
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        fire(start + next * interval);
        next++;
      }
      if (next >= total) return resolve();
      setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    tick();
  });
  const lastDue = start + (total - 1) * interval;
  await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, timeoutMs + 1_000))]);
  agent.destroy();
  failures += total - settled; // never answered
  const seconds = (lastDue - start + interval) / 1000;
  const p99 = percentile(latencies, 99);
  const windows = new Set(latencies.flatMap((l, i) => (l >= p99 ? [Math.floor((scheduledAt[i] as number) / 100)] : [])));
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99,
    max: latencies.length ? Math.max(...latencies) : Number.NaN,
    requests: total,
    failures,
    slowestWindows: windows.size,
  };
}

/** A result's latencies, as the tables show them. */
export const latencies = (r: LoadResult) => `p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`;
/** The throughput of each turn of an interleaved run. */
export const turns = (r: { rounds: number[] }) => r.rounds.map(int).join(' / ');


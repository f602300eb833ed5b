import { createDb } from '@shop/core';
import { seed } from '../prisma/seed.ts';
import { forkTs } from './lib/child.ts';
import { createBenchEnv } from './lib/env.ts';
import { burstLoad, interleavedMaxLoad, latencies, maxLoad, steadyLoad, turns, type LoadResult, type LoadTarget } from './lib/load.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';
import type { Row } from './lib/report.ts';
import { int, pct } from './lib/stats.ts';

/**
 * The api under load from this process: the real app (its own process, production
 * settings, seeded catalogue, Postgres, Redis) beside a bare
 * Express server answering the same JSON from memory (another process), measured one
 * after the other in the same run.
 */
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 8);
/** Throughput runs: SECONDS per server, in this many interleaved turns. */
const ROUNDS = 4;
const WARMUP_SECONDS = 2;
const CONNECTIONS = 50;
const RATE = 500;
const THROUGHPUT_TARGET = 0.9;
const P99_TARGET_MS = 25;

type Servers = { api: string; uncached: string; bare: string };
type Targets = { [K in keyof Servers]: LoadTarget };

async function getText(url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return res.text();
}

function failuresNote(label: string, r: LoadResult): string[] {
  return r.failures > 0 ? [`${label}: ${int(r.failures)} of ${int(r.requests)} requests failed or answered an unexpected status.`] : [];
}

export const apiBench: Bench = {
  id: 'api',
  title: 'API: throughput and latency (autocannon / open-loop load from a separate process, loopback)',
  async run(scope) {
    const env = await createBenchEnv();
    scope.defer('bench environment', env.close);
    const db = createDb({ url: env.config.databaseUrl, poolSize: 2 });
    scope.defer('database client', () => db.$disconnect());
    await seed(db, { email: 'admin@bench.local', password: 'bench-admin-password' });

    // The production log level: every request is logged except successful catalogue reads.
    const apiVars = { ...env.vars, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' };
    const apiChild = forkTs('bench/servers/api-server.ts', apiVars, 'api');
    scope.defer('api process', apiChild.stop);
    const uncachedChild = forkTs('bench/servers/api-server.ts', { ...apiVars, CATALOGUE_CACHE_MS: '0' }, 'api (no catalogue cache)');
    scope.defer('api (no catalogue cache) process', uncachedChild.stop);
    const bareChild = forkTs('bench/servers/bare-server.ts', { NODE_ENV: 'production' }, 'bare express');
    scope.defer('bare server process', bareChild.stop);
    const servers: Servers = {
      api: (await apiChild.next<{ type: string; url: string }>('listening', 60_000)).url,
      uncached: (await uncachedChild.next<{ type: string; url: string }>('listening', 60_000)).url,
      bare: (await bareChild.next<{ type: string; url: string }>('listening', 30_000)).url,
    };

    // The bare server answers exactly what the api answers.
    const catalogue = await getText(`${servers.api}/api/products`);
    const products = JSON.parse(catalogue) as { _id: string }[];
    const productId = products[0]?._id;
    if (!productId) throw new Error('the seeded catalogue is empty');
    bareChild.send({ type: 'fixture', products });
    await bareChild.next('fixture-loaded', 5_000);
    if ((await getText(`${servers.bare}/api/products`)) !== catalogue) throw new Error('the bare server does not serve the same catalogue JSON');

    const targets = (path: string): Targets => ({
      api: { url: `${servers.api}${path}` },
      uncached: { url: `${servers.uncached}${path}` },
      bare: { url: `${servers.bare}${path}` },
    });
    const list = targets('/api/products');
    const one = targets(`/api/products/${productId}`);

    console.log(`[bench] api: warming up, then ${SECONDS} s per run`);
    for (const t of [list.bare, list.api, list.uncached, one.bare, one.api, one.uncached]) await maxLoad(t, { seconds: WARMUP_SECONDS, connections: CONNECTIONS });

    const max = async (t: Targets) => {
      return interleavedMaxLoad(t, { rounds: ROUNDS, seconds: SECONDS / ROUNDS, connections: CONNECTIONS });
    };
    const steady = async (t: Pick<Targets, 'api' | 'bare'>) => {
      const bare = await steadyLoad(t.bare, { seconds: SECONDS, rate: RATE });
      const api = await steadyLoad(t.api, { seconds: SECONDS, rate: RATE });
      return { bare, api };
    };
    const listMax = await max(list);
    const oneMax = await max(one);
    const listSteady = await steady(list);
    const oneSteady = await steady(one);
    const listBurst = {
      bare: await burstLoad(list.bare, { seconds: SECONDS, connections: CONNECTIONS, rate: RATE }),
      api: await burstLoad(list.api, { seconds: SECONDS, connections: CONNECTIONS, rate: RATE }),
    };

    const throughputRow = (metric: string, r: { api: LoadResult; bare: LoadResult }): Row => {
      const ratio = r.api.rps / r.bare.rps;
      return {
        metric,
        target: `>= ${pct(THROUGHPUT_TARGET)} of bare`,
        figure: `${int(r.api.rps)} req/s (${pct(ratio)} of bare); ${latencies(r.api)}`,
        baseline: `${int(r.bare.rps)} req/s; ${latencies(r.bare)}`,
        pass: ratio >= THROUGHPUT_TARGET && r.api.failures === 0,
      };
    };
    const latencyRow = (metric: string, r: { api: LoadResult; bare: LoadResult }): Row => ({
      metric,
      target: `p99 < ${P99_TARGET_MS} ms`,
      figure: latencies(r.api),
      baseline: latencies(r.bare),
      pass: r.api.p99 < P99_TARGET_MS && r.api.failures === 0,
    });
    const ofBare = (r: { uncached: LoadResult; bare: LoadResult }) => `${int(r.uncached.rps)} req/s (${pct(r.uncached.rps / r.bare.rps)} of bare)`;
    const rows: Row[] = [
      throughputRow(`GET /api/products, max throughput (${CONNECTIONS} connections)`, listMax),
      throughputRow(`GET /api/products/:id, max throughput (${CONNECTIONS} connections)`, oneMax),
      {
        metric: 'Diagnostic: the same api with its catalogue cache off (CATALOGUE_CACHE_MS=0), max throughput',
        target: '-',
        figure: `/api/products ${ofBare(listMax)}; /api/products/:id ${ofBare(oneMax)}`,
        baseline: 'bare, as above',
      },
      latencyRow(`GET /api/products at a steady ${RATE} req/s`, listSteady),
      latencyRow(`GET /api/products/:id at a steady ${RATE} req/s`, oneSteady),
    ];
    const notes = [
      `A ${WARMUP_SECONDS} s warm-up per server and route, then ${SECONDS} s per server: throughput runs in ${ROUNDS} turns of ${SECONDS / ROUNDS} s interleaved between the servers (the order rotated each turn), the figure being the median turn; steady-rate runs ${SECONDS} s each, bare server first. ` +
        `Turns, req/s: /api/products api ${turns(listMax.api)}, bare ${turns(listMax.bare)}; /api/products/:id api ${turns(oneMax.api)}, bare ${turns(oneMax.bare)}. The api runs with NODE_ENV=production, LOG_LEVEL=info (a line per request, successful catalogue reads at debug), the seeded catalogue (${products.length} packages), its default pool of ${env.config.databasePoolSize} database connections and its default catalogue cache (${env.config.catalogueCacheMs} ms; api/src/modules/products/catalogue-cache.ts).`,
      `Steady rate: an open-loop generator starts one request every ${(1000 / RATE).toFixed(0)} ms on keep-alive connections and times each from its scheduled start. ` +
        `The slowest 1% of api requests fell in ${listSteady.api.slowestWindows} (/api/products) and ${oneSteady.api.slowestWindows} (/api/products/:id) distinct 100 ms windows of the ${SECONDS} s run: few windows mean the p99 is set by stalls (a GC pause, or the CPU taken by another process on this shared machine), not by every request being slow. ` +
        `For comparison, autocannon's overallRate=${RATE} on GET /api/products (it sends each connection's share of a second back to back at the top of the second, a burst at ${CONNECTIONS} concurrency): api ${latencies(listBurst.api)}, bare ${latencies(listBurst.bare)}.`,
      'Placing orders has a benchmark of its own (the flash sale, below).',
      'The diagnostic row is the same api process with the cache off, so every catalogue read goes to Postgres: what separates it from the api row is what the cache saves; what separates the api row from the bare server is the request log, the HTTP metrics and the routing.',
      ...failuresNote('GET /api/products (api, max)', listMax.api),
      ...failuresNote('GET /api/products/:id (api, max)', oneMax.api),
      ...failuresNote('GET /api/products (api, steady)', listSteady.api),
      ...failuresNote('GET /api/products/:id (api, steady)', oneSteady.api),
    ];
    return { rows, notes };
  },
};

if (isMain(import.meta.url)) await runStandalone(apiBench);

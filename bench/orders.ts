import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '@shop/core';
import { seed } from '../prisma/seed.ts';
import { forkTs } from './lib/child.ts';
import { createBenchEnv } from './lib/env.ts';
import { interleavedMaxLoad, latencies, maxLoad, turns, type LoadTarget } from './lib/load.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';
import type { Row } from './lib/report.ts';
import { createBenchProduct, createBuyers, orderBody } from './lib/shop.ts';
import { int, ms, pct } from './lib/stats.ts';

/**
 * A flash sale: POST /api/orders on one hot package at 50 connections, against the real
 * api (its own process, production settings) beside a bare server issuing the same SQL
 * writes with the `pg` driver (bench/servers/pg-orders-server.ts), in interleaved turns
 * against the same Postgres. The api reaches the node through a counting proxy: placing
 * an order must cost the node nothing (the worker's block watcher shares the head block
 * and the price through Redis).
 */
const SECONDS = Number(process.env.BENCH_ORDERS_SECONDS ?? 12);
const ROUNDS = 4;
const WARMUP_SECONDS = 3;
const CONNECTIONS = 50;
const THROUGHPUT_TARGET = 1.5;
/** A drop brings many buyers, each placing an order or two: the production caps hold for every one. */
const BUYERS = 10_000;
const P99_TARGET_MS = 150;

/** An HTTP proxy in front of the node that counts the JSON-RPC calls passing through. */
async function countingProxy(target: string): Promise<{ url: string; calls: () => number; methods: () => Map<string, number>; close(): Promise<void> }> {
  const methods = new Map<string, number>();
  let calls = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const parsed = JSON.parse(body.toString('utf8')) as { method?: string } | { method?: string }[];
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
          calls++;
          methods.set(String(call.method), (methods.get(String(call.method)) ?? 0) + 1);
        }
      } catch {
        calls++;
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => calls,
    methods: () => new Map(methods),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const ordersBench: Bench = {
  id: 'orders',
  title: 'Flash sale: POST /api/orders on one package (autocannon, 50 connections, loopback)',
  async run(scope) {
    const env = await createBenchEnv({ chain: true, caps: 'production' });
    scope.defer('bench environment', env.close);
    const anvilUrl = env.anvil!.rpcUrl;
    const db = createDb({ url: env.config.databaseUrl, poolSize: 2 });
    scope.defer('database client', () => db.$disconnect());
    await seed(db, { email: 'admin@bench.local', password: 'bench-admin-password' });
    const buyers = await createBuyers(db, env.config, BUYERS);
    const buyer = buyers[0]!;
    const product = await createBenchProduct(db, 1_000_000_000);

    const proxy = await countingProxy(anvilUrl);
    scope.defer('rpc proxy', proxy.close);
    const worker = forkTs('bench/servers/worker.ts', { ...env.vars, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? env.vars.LOG_LEVEL! }, 'worker');
    scope.defer('worker process', worker.stop);
    await worker.next('ready', 60_000);
    const apiChild = forkTs('bench/servers/api-server.ts', { ...env.vars, ETH_RPC_URL: proxy.url, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' }, 'api');
    scope.defer('api process', apiChild.stop);
    const baseChild = forkTs(
      'bench/servers/pg-orders-server.ts',
      { ...env.vars, BENCH_USER_ID: buyer.id, BENCH_PRODUCT_ID: product.id, DATABASE_POOL_SIZE: String(env.config.databasePoolSize) },
      'pg baseline',
    );
    scope.defer('pg baseline process', baseChild.stop);
    const apiUrl = (await apiChild.next<{ type: string; url: string }>('listening', 60_000)).url;
    const baseUrl = (await baseChild.next<{ type: string; url: string }>('listening', 30_000)).url;

    const body = orderBody(product.id, product.price);
    const headers = { 'content-type': 'application/json', cookie: buyer.cookie };
    // Each request the next buyer's (over all connections): a buyer places an order or two in the run.
    const headersByRequest = buyers.slice(1).map((b) => ({ cookie: b.cookie }));
    const targets = {
      api: { url: `${apiUrl}/api/orders`, method: 'POST', headers, body, headersByRequest, expectStatus: 201, refusedStatus: 409 } satisfies LoadTarget,
      pg: { url: `${baseUrl}/api/orders`, method: 'POST', headers, body, expectStatus: 201 } satisfies LoadTarget,
    };
    const first = await fetch(targets.api.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    if (first.status !== 201) throw new Error(`POST /api/orders answered ${first.status}: ${await first.text()}`);

    console.log(`[bench] orders: warming up, then ${SECONDS} s per server`);
    await maxLoad(targets.pg, { seconds: WARMUP_SECONDS, connections: CONNECTIONS });
    await maxLoad(targets.api, { seconds: WARMUP_SECONDS, connections: CONNECTIONS });
    const callsBefore = proxy.calls();
    const ordersBefore = await db.order.count();
    const methodsBefore = proxy.methods();
    const run = await interleavedMaxLoad(targets, { rounds: ROUNDS, seconds: SECONDS / ROUNDS, connections: CONNECTIONS });
    const placed = (await db.order.count()) - ordersBefore;
    const calls = proxy.calls() - callsBefore;
    const byMethod = [...proxy.methods()].map(([m, n]) => [m, n - (methodsBefore.get(m) ?? 0)] as const).filter(([, n]) => n > 0);
    const apiOrders = run.api.requests - run.api.failures - (run.api.refusals ?? 0);

    const ratio = run.api.rps / run.pg.rps;
    const rows: Row[] = [
      {
        metric: `POST /api/orders, max throughput (${CONNECTIONS} connections, one package)`,
        target: `>= ${pct(THROUGHPUT_TARGET)} of the pg baseline`,
        figure: `${int(run.api.rps)} req/s (${pct(ratio)} of the baseline); ${latencies(run.api)}`,
        baseline: `${int(run.pg.rps)} req/s; ${latencies(run.pg)}`,
        pass: ratio >= THROUGHPUT_TARGET && run.api.failures === 0,
      },
      {
        metric: 'POST /api/orders, p99 at max throughput',
        target: `< ${P99_TARGET_MS} ms`,
        figure: ms(run.api.p99),
        baseline: ms(run.pg.p99),
        pass: run.api.p99 < P99_TARGET_MS && run.api.failures === 0,
      },
      {
        metric: 'Node requests by the api while it placed the orders',
        target: '0 per order',
        figure: `${int(calls)} for ${int(apiOrders)} orders${byMethod.length ? ` (${byMethod.map(([m, n]) => `${m} ${int(n)}`).join(', ')})` : ''}`,
        baseline: '-',
        pass: calls === 0 && apiOrders > 0,
      },
    ];
    const notes = [
      `${ROUNDS} turns of ${SECONDS / ROUNDS} s per server, interleaved (the order rotated each turn), after a ${WARMUP_SECONDS} s warm-up each; the figure is the median turn. Turns, req/s: api ${turns(run.api)}; baseline ${turns(run.pg)}.`,
      `The api (NODE_ENV=production, LOG_LEVEL=info, the buyers' caps at their production values) places real orders for ${int(BUYERS)} buyers, each request the next buyer's: the sessions arriving together read in one query, then the orders that arrive together in one transaction (core/src/payments/place-orders.ts: the package rows locked and priced, the buyers' live orders counted for their caps, each order's stock and caps checked on its own, a free tag, the orders, items, quotes, stock and movements written), answered with the order as stored; ${int(placed)} orders placed in the measured turns (both servers). Only 201s count as throughput; refused by a cap (409): ${int(run.api.refusals ?? 0)} of ${int(run.api.requests)}.`,
      `The baseline (bench/servers/pg-orders-server.ts) reads the package, then writes the order, its item, its quote, the stock update and its movement in one transaction per request with the pg driver, with the same pool size as the api (${env.config.databasePoolSize} connections); no session, checks or response body beyond the id.`,
      'The api reaches the node only through a counting proxy; the worker (its own process, talking to anvil directly) runs beside it as in production and shares the head block and the ETH price through Redis.',
      ...(run.api.failures ? [`api: ${int(run.api.failures)} of ${int(run.api.requests)} requests failed or answered an unexpected status.`] : []),
      ...(run.pg.failures ? [`baseline: ${int(run.pg.failures)} of ${int(run.pg.requests)} requests failed.`] : []),
    ];
    return { rows, notes };
  },
};

if (isMain(import.meta.url)) await runStandalone(ordersBench);

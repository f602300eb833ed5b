import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { numberToHex as toHex } from 'viem';
import { createDb } from '@shop/core';
import { seed } from '../prisma/seed.ts';
import { REPO_ROOT } from '../scripts/lib/paths.ts';
import { ANVIL_ACCOUNTS } from '../scripts/testing/chain.ts';
import { processEnv, startApiProcess, startWorkerProcess } from '../scripts/testing/processes.ts';
import { startSmtpServer } from '../scripts/testing/smtp.ts';
import { createBenchEnv, RECEIVING_ADDRESS } from './lib/env.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';
import { lineChartSvg } from './lib/plot.ts';
import type { Row } from './lib/report.ts';
import { jsonRpc } from './lib/rpc.ts';
import { createBenchProduct, createBuyer, orderBody } from './lib/shop.ts';
import { int, ms, percentile } from './lib/stats.ts';

/**
 * Ten minutes of steady mixed traffic against the api and worker processes `npm start`
 * runs (api/src/server.ts, worker/src/main.ts; NODE_ENV=production, LOG_LEVEL=info,
 * receipts over SMTP to a local server): buyers browse the catalogue, place orders, watch
 * their pay page, pay on anvil (blocks every 2 s) and report half the hashes. Every 10 s
 * it samples both processes' resident memory and the window's latencies; the plot is
 * saved beside bench/RESULTS.md (bench/soak.svg).
 */
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const WARMUP_SECONDS = Math.min(120, Math.round(SECONDS / 5));
const SAMPLE_SECONDS = 10;
const COMPARE_SECONDS = Math.min(60, Math.round(SECONDS / 5));
const BROWSE_RATE = 40;
const ORDER_RATE = 4;
const PAGE_POLL_MS = 3_000;
const BLOCK_MS = 2_000;
const BUYERS = 120;
const OPEN_PER_BUYER = 3;
const SETTLE_WAIT_MS = 90_000;
const RSS_TARGET = 0.1;
const PLOT = 'soak.svg';

type Kind = 'browse' | 'order' | 'page' | 'report';
type Sample = { t: number; apiRss: number; workerRss: number; p50: number; p99: number; requests: number; errors: number };

async function rssMb(pid: number | undefined): Promise<number> {
  if (!pid) return Number.NaN;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

export const soakBench: Bench = {
  id: 'soak',
  title: `Soak: ${SECONDS / 60} minutes of mixed traffic against the api and worker processes`,
  async run(scope) {
    const env = await createBenchEnv({ chain: true, vars: { PAYMENT_CONFIRMATIONS: '2' } });
    scope.defer('bench environment', env.close);
    const smtp = await startSmtpServer();
    scope.defer('smtp server', () => smtp.stop());
    const db = createDb({ url: env.config.databaseUrl, poolSize: 2 });
    scope.defer('database client', () => db.$disconnect());
    await seed(db, { email: 'admin@bench.local', password: 'bench-admin-password' });
    const buyers: { id: string; cookie: string; open: number }[] = [];
    for (let i = 0; i < BUYERS; i += 10) buyers.push(...(await Promise.all(Array.from({ length: 10 }, async () => ({ ...(await createBuyer(db, env.config)), open: 0 })))));
    const product = await createBenchProduct(db, 10_000_000);
    const products = await db.product.findMany({ where: { deletedAt: null }, select: { id: true } });

    const vars = processEnv(env.config, { ...env.vars, NODE_ENV: 'production', LOG_LEVEL: 'info', SMTP_URL: smtp.url });
    const worker = await startWorkerProcess('worker', vars);
    scope.defer('worker process', () => worker.kill());
    const api = await startApiProcess('api', vars);
    scope.defer('api process', () => api.kill());
    const base = api.url!;

    const rpc = jsonRpc(env.anvil!.rpcUrl, 10_000);
    const payers = ANVIL_ACCOUNTS.slice(2);
    const nonces = new Map<string, bigint>();
    for (const a of payers) nonces.set(a, BigInt(await rpc.call<string>('eth_getTransactionCount', [a, 'pending'])));
    await rpc.call('evm_setAutomine', [false]);

    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;
    let window: { latency: number; status: number }[] = [];
    const counts: Record<Kind, { requests: number; errors5xx: number; other: number }> = {
      browse: { requests: 0, errors5xx: 0, other: 0 },
      order: { requests: 0, errors5xx: 0, other: 0 },
      page: { requests: 0, errors5xx: 0, other: 0 },
      report: { requests: 0, errors5xx: 0, other: 0 },
    };
    const failures: string[] = [];
    const request = (kind: Kind, method: string, url: string, opts: { cookie?: string; body?: string; expect: number }) =>
      new Promise<{ status: number; body: string }>((resolve) => {
        const t0 = performance.now();
        const req = http.request(url, { method, agent, headers: { 'content-type': 'application/json', ...(opts.cookie ? { cookie: opts.cookie } : {}) } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString('utf8')));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            window.push({ latency: performance.now() - t0, status });
            counts[kind].requests++;
            if (status >= 500) counts[kind].errors5xx++;
            else if (status !== opts.expect) counts[kind].other++;
            if (status !== opts.expect && failures.length < 5) failures.push(`${method} ${new URL(url).pathname}: ${status} ${body.slice(0, 120)}`);
            resolve({ status, body });
          });
        });
        req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
        req.on('error', (err) => {
          window.push({ latency: performance.now() - t0, status: 599 });
          counts[kind].requests++;
          counts[kind].errors5xx++;
          if (failures.length < 5) failures.push(`${method} ${new URL(url).pathname}: ${err.message}`);
          resolve({ status: 599, body: '' });
        });
        req.end(opts.body);
      });

    type Order = { id: string; buyer: (typeof buyers)[number]; amountWei: bigint; reported: boolean; paid: boolean };
    const orders: Order[] = [];
    const toPay: Order[] = [];
    let stop = false;
    const every = async (intervalMs: number, fn: () => void) => {
      const t0 = performance.now();
      for (let n = 1; !stop; n++) {
        fn();
        const wait = t0 + n * intervalMs - performance.now();
        if (wait > 0) await sleep(wait);
      }
    };
    let browseTurn = 0;
    const browse = every(1000 / BROWSE_RATE, () => {
      const n = browseTurn++;
      const url = n % 2 === 0 ? `${base}/api/products` : `${base}/api/products/${products[n % products.length]!.id}`;
      void request('browse', 'GET', url, { expect: 200 });
    });
    let turn = 0;
    const nextBuyer = () => {
      for (let k = 0; k < buyers.length; k++) {
        const b = buyers[(turn + k) % buyers.length]!;
        if (b.open < OPEN_PER_BUYER) {
          turn = (turn + k + 1) % buyers.length;
          return b;
        }
      }
      return undefined;
    };
    // Placements still answering when the traffic stops keep the payer going, or an
    // order placed in the last moment would never be paid.
    const placing = new Set<Promise<void>>();
    const place = every(1000 / ORDER_RATE, () => {
      const buyer = nextBuyer();
      if (!buyer) return;
      buyer.open++;
      const placement = (async () => {
        const placed = await request('order', 'POST', `${base}/api/orders`, { cookie: buyer.cookie, body: orderBody(product.id, product.price), expect: 201 });
        if (placed.status !== 201) return void buyer.open--;
        const id = (JSON.parse(placed.body) as { _id: string })._id;
        const page = await request('page', 'GET', `${base}/api/orders/${id}`, { cookie: buyer.cookie, expect: 200 });
        const quote = page.status === 200 ? (JSON.parse(page.body) as { quote: { amountWei: string } | null }).quote : null;
        if (!quote) return void buyer.open--;
        const order: Order = { id, buyer, amountWei: BigInt(quote.amountWei), reported: orders.length % 2 === 0, paid: false };
        orders.push(order);
        toPay.push(order);
      })();
      placing.add(placement);
      void placement.finally(() => placing.delete(placement));
    });
    const pay = (async () => {
      let k = 0;
      while (!stop || toPay.length > 0 || placing.size > 0) {
        const order = toPay.shift();
        if (!order) {
          await sleep(50);
          continue;
        }
        const from = payers[k++ % payers.length]!;
        const nonce = nonces.get(from)!;
        nonces.set(from, nonce + 1n);
        const hash = await rpc.call<string>('eth_sendTransaction', [{ from, to: RECEIVING_ADDRESS, value: toHex(order.amountWei), gas: toHex(21_000), nonce: toHex(nonce) }]);
        if (order.reported) void request('report', 'PUT', `${base}/api/orders/${order.id}/purchased`, { cookie: order.buyer.cookie, body: JSON.stringify({ txHash: hash }), expect: 202 });
      }
    })();
    let mining = true;
    const mine = (async () => {
      while (mining) {
        await sleep(BLOCK_MS);
        await rpc.call('evm_mine');
      }
    })();
    // The pay page: each waiting buyer's page asks for its order every few seconds; the
    // database is read (not part of the traffic) to know when an order is PAID.
    const watch = (async () => {
      while (mining) {
        await sleep(PAGE_POLL_MS);
        const waiting = orders.filter((o) => !o.paid);
        if (!stop) for (const o of waiting) void request('page', 'GET', `${base}/api/orders/${o.id}`, { cookie: o.buyer.cookie, expect: 200 });
        const paid = new Set((await db.order.findMany({ where: { id: { in: waiting.map((o) => o.id) }, status: 'PAID' }, select: { id: true } })).map((r) => r.id));
        for (const o of waiting) {
          if (paid.has(o.id)) {
            o.paid = true;
            o.buyer.open--;
          }
        }
      }
    })();
    const samples: Sample[] = [];
    const sampler = (async () => {
      while (!stop) {
        await sleep(SAMPLE_SECONDS * 1000);
        const w = window;
        window = [];
        const latencies = w.map((r) => r.latency);
        samples.push({
          t: elapsed(),
          apiRss: await rssMb(api.proc.pid),
          workerRss: await rssMb(worker.proc.pid),
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          requests: w.length,
          errors: w.filter((r) => r.status >= 500).length,
        });
        const last = samples[samples.length - 1]!;
        if (samples.length % 6 === 0) console.log(`[bench] soak: ${Math.round(last.t)} s, api ${last.apiRss.toFixed(0)} MB, worker ${last.workerRss.toFixed(0)} MB, p99 ${ms(last.p99)}, ${orders.length} orders`);
      }
    })();

    await sleep(SECONDS * 1000);
    stop = true;
    await Promise.all([browse, place, sampler]);
    await pay;
    const deadline = performance.now() + SETTLE_WAIT_MS;
    while (orders.some((o) => !o.paid) && performance.now() < deadline) await sleep(500);
    mining = false;
    await Promise.all([mine, watch]);
    agent.destroy();
    const alive = { api: api.alive(), worker: worker.alive() };

    const afterWarmup = samples.filter((s) => s.t > WARMUP_SECONDS && s.t <= WARMUP_SECONDS + COMPARE_SECONDS);
    const atEnd = samples.filter((s) => s.t > SECONDS - COMPARE_SECONDS);
    const growth = (pick: (s: Sample) => number) => {
      const from = mean(afterWarmup.map(pick));
      const to = mean(atEnd.map(pick));
      return { from, to, ratio: (to - from) / from };
    };
    const apiGrowth = growth((s) => s.apiRss);
    const workerGrowth = growth((s) => s.workerRss);
    const total = Object.values(counts).reduce((n, c) => n + c.requests, 0);
    const errors5xx = Object.values(counts).reduce((n, c) => n + c.errors5xx, 0);
    const other = Object.values(counts).reduce((n, c) => n + c.other, 0);
    const paid = orders.filter((o) => o.paid).length;
    const receipts = smtp.messages.length;
    const mb = (x: number) => `${x.toFixed(0)} MB`;
    const pctSigned = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    const p99Of = (ss: Sample[]) => Math.max(...ss.map((s) => s.p99));

    const svg = lineChartSvg(
      [
        {
          title: 'Resident memory',
          unit: 'MB',
          series: [
            { label: 'api', color: '#1f77b4', points: samples.map((s) => [s.t, s.apiRss]) },
            { label: 'worker', color: '#d62728', points: samples.map((s) => [s.t, s.workerRss]) },
          ],
        },
        {
          title: 'Latency of the requests in each 10 s window',
          unit: 'ms',
          series: [
            { label: 'p99', color: '#9467bd', points: samples.map((s) => [s.t, s.p99]) },
            { label: 'p50', color: '#2ca02c', points: samples.map((s) => [s.t, s.p50]) },
          ],
        },
      ],
      { title: `Soak: ${SECONDS / 60} min, api and worker processes (NODE_ENV=production)`, xLabel: 'seconds since the traffic started', markers: [{ x: WARMUP_SECONDS, label: 'warm-up ends' }] },
    );
    const plotPath = process.env.BENCH_WRITE_RESULTS === '1' ? path.join(REPO_ROOT, 'bench', PLOT) : path.join(os.tmpdir(), PLOT);
    await writeFile(plotPath, svg);

    const rows: Row[] = [
      {
        metric: '5xx answers (and requests that got no answer)',
        target: '0',
        figure: `${int(errors5xx)} of ${int(total)} requests`,
        baseline: '-',
        pass: errors5xx === 0,
      },
      {
        metric: 'Orders paid on anvil that became PAID',
        target: 'all',
        figure: `${int(paid)} of ${int(orders.length)} (${int(receipts)} receipts e-mailed)`,
        baseline: '-',
        pass: orders.length > 0 && paid === orders.length,
      },
      {
        metric: `api resident memory, last ${COMPARE_SECONDS} s vs the ${COMPARE_SECONDS} s after warm-up`,
        target: `growth < ${RSS_TARGET * 100}%`,
        figure: `${mb(apiGrowth.to)} (${pctSigned(apiGrowth.ratio)})`,
        baseline: `${mb(apiGrowth.from)} after warm-up`,
        pass: apiGrowth.ratio < RSS_TARGET && alive.api,
      },
      {
        metric: `worker resident memory, last ${COMPARE_SECONDS} s vs the ${COMPARE_SECONDS} s after warm-up`,
        target: `growth < ${RSS_TARGET * 100}%`,
        figure: `${mb(workerGrowth.to)} (${pctSigned(workerGrowth.ratio)})`,
        baseline: `${mb(workerGrowth.from)} after warm-up`,
        pass: workerGrowth.ratio < RSS_TARGET && alive.worker,
      },
      {
        metric: `p99 of all requests, worst 10 s window of the last ${COMPARE_SECONDS} s`,
        target: '-',
        figure: ms(p99Of(atEnd)),
        baseline: `${ms(p99Of(afterWarmup))} (after warm-up)`,
      },
    ];
    const notes = [
      `Command: \`npm run bench\` (this section alone: \`node --import tsx bench/soak.ts\`; BENCH_SOAK_SECONDS shortens it). ${int(total)} requests in ${Math.round(SECONDS)} s: ` +
        `browsing ${int(counts.browse.requests)} (GET /api/products and /api/products/:id, ${BROWSE_RATE}/s), orders ${int(counts.order.requests)} (${ORDER_RATE}/s, one package, ${BUYERS} buyers with at most ${OPEN_PER_BUYER} unpaid each), ` +
        `pay pages ${int(counts.page.requests)} (each waiting order every ${PAGE_POLL_MS / 1000} s), payment reports ${int(counts.report.requests)} (every other order; the indexer finds the rest). Answers other than the expected one: ${int(other)}${failures.length ? ` (first: ${failures.join('; ')})` : ''}.`,
      `Blocks mined every ${BLOCK_MS / 1000} s, PAYMENT_CONFIRMATIONS=2; the api and the worker are the entry points \`npm start\` runs, as separate processes (scripts/testing/processes.ts), with NODE_ENV=production, LOG_LEVEL=info (a log line per request, to a pipe), receipts sent over SMTP to a local server. Both were ${alive.api && alive.worker ? 'still up' : `not both up (api ${alive.api}, worker ${alive.worker})`} at the end.`,
      `Memory: resident set size read from /proc every ${SAMPLE_SECONDS} s; warm-up is the first ${WARMUP_SECONDS} s. The figure compares the mean of the last ${COMPARE_SECONDS} s with the mean of the ${COMPARE_SECONDS} s after warm-up; samples: api ${samples.map((s) => s.apiRss.toFixed(0)).join(' ')} MB; worker ${samples.map((s) => s.workerRss.toFixed(0)).join(' ')} MB.`,
      `![Resident memory and p99 over the soak](${PLOT})`,
    ];
    return { rows, notes };
  },
};

if (isMain(import.meta.url)) await runStandalone(soakBench);

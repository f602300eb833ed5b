import type { Server } from 'node:http';
import { createRuntime, loadConfig } from '@shop/core';
import { tokenBySymbol, type TokenSymbol } from '@shop/core/contract';
import { tokenTransferRequest } from '../core/src/rails/erc20/index.ts';
import { createApp } from '../api/src/app.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../scripts/testing/chain.ts';
import { forkTs } from './lib/child.ts';
import { createBenchEnv, RECEIVING_ADDRESS } from './lib/env.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';
import { numberToHex as toHex } from 'viem';
import { jsonRpc } from './lib/rpc.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBenchProduct, createBuyer, orderBody } from './lib/shop.ts';
import { int, median, ms, percentile } from './lib/stats.ts';

/**
 * Time from the block that gives a payment its last needed confirmation to its order
 * being PAID, for 100 payments on anvil, with the real worker (worker/src/main.ts, every
 * processor and recurring job at its default interval) in a process of its own.
 *
 * This process plays the chain and the buyers: it mines every block itself (automine
 * off, `evm_mine` at random intervals, each block's time taken when the call returns),
 * pays orders placed through the real api, and reports most hashes as the pay page
 * does; the rest are left for the indexer to find. Another DEPOSITS orders are paid the
 * exchange way: a round amount (no tag) to the order's own deposit address, reported by
 * nobody. Another TOKEN_DEPOSITS orders of each token (USDC, USDT) are paid their token
 * quote by a `transfer` to the order's deposit address, as a token is always paid: the
 * USDC hashes reported as the pay page reports a browser wallet's (which only tells the
 * buyer's page; the indexer finds the transfer), the USDT ones by nobody, as from an
 * exchange. It polls the database for PAID.
 */
const PAYMENTS = 100;
const DEPOSITS = 20;
/** Per token. */
const TOKEN_DEPOSITS = 20;
const TOKENS: readonly TokenSymbol[] = ['USDC', 'USDT'];
/** The gas limit of a token transfer sent by the benchmark (automine is off: nothing is estimated), above what the mocks' `transfer` to a new holder uses. */
const TOKEN_TRANSFER_GAS = 100_000;
const CONFIRMATIONS = 2;
/** One in this many buyers closes the tab: nothing is reported, the indexer finds it. */
const UNREPORTED_EVERY = 5;
const PAY_GAP_MS = 250;
const BLOCK_MIN_MS = 1_000;
const BLOCK_MAX_MS = 3_000;
const POLL_MS = 20;
const MISSED_AFTER_MS = 30_000;
const MEDIAN_TARGET_MS = 100;
const P99_TARGET_MS = 250;

type Payment = {
  orderId: string;
  /** What is sent: ETH, or a token's `transfer` to the deposit address. */
  asset: 'ETH' | TokenSymbol;
  /** In the asset's smallest units (wei for ETH). */
  amount: bigint;
  reported: boolean;
  /** Paid to this deposit address (an ETH round amount, unreported; or a token) instead of the receiving address. */
  depositAddress?: string;
  hash?: string;
  block?: bigint;
  /** performance.now() when the bare receipt poll saw the last needed confirmation. */
  bareSeenAt?: number;
  /** performance.now() when the database poll saw the order PAID. */
  paidAt?: number;
};

const between = (min: number, max: number) => min + Math.random() * (max - min);

export const paymentsBench: Bench = {
  id: 'payments',
  title: `Payments: last confirmation to PAID (${PAYMENTS} payments, ${DEPOSITS} deposits and ${TOKEN_DEPOSITS * TOKENS.length} token deposits (${TOKENS.join(', ')}) on anvil, ${CONFIRMATIONS} confirmations)`,
  async run(scope) {
    const env = await createBenchEnv({
      chain: true,
      deposits: true,
      // The worker writes mail to files under NODE_ENV=test; the payment settings it
      // would run with in production are the defaults, except the confirmations.
      vars: { NODE_ENV: 'test', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', PAYMENT_CONFIRMATIONS: String(CONFIRMATIONS), ACCEPTED_ASSETS: ['ETH', ...TOKENS].join(',') },
    });
    scope.defer('bench environment', env.close);
    const rpc = jsonRpc(env.anvil!.rpcUrl, 10_000);

    // The api, here: it places the orders and takes the reports; it is not what is timed.
    const runtime = createRuntime(loadConfig({ ...env.vars, LOG_LEVEL: 'silent' }), 'api');
    scope.defer('api runtime', () => runtime.close());
    // As api/src/server.ts does: the deposit factory's code checked before the first order.
    await runtime.depositFactory.start();
    const { db } = runtime;
    const server: Server = await new Promise((resolve, reject) => {
      const s = createApp(runtime).listen(0, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    scope.defer('api server', () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
    const address = server.address();
    const api = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    const worker = forkTs('bench/servers/worker.ts', env.vars, 'worker');
    scope.defer('worker process', worker.stop);
    await worker.next('ready', 60_000);
    // The first indexer tick sets the checkpoint: from then on the worker is watching.
    await waitFor('the first chain-index tick', () => db.chainCursor.findFirst(), 30_000, 50);

    const buyer = await createBuyer(db, env.config);
    const total = PAYMENTS + DEPOSITS + TOKEN_DEPOSITS * TOKENS.length;
    const product = await createBenchProduct(db, total * 2);
    const headers = { 'content-type': 'application/json', cookie: buyer.cookie };
    const payments: Payment[] = [];
    for (let i = 0; i < total; i++) {
      const placed = await fetch(`${api}/api/orders`, { method: 'POST', headers, body: orderBody(product.id, product.price), signal: AbortSignal.timeout(10_000) });
      if (placed.status !== 201) throw new Error(`POST /api/orders answered ${placed.status}: ${await placed.text()}`);
      const { _id: orderId } = (await placed.json()) as { _id: string };
      const detail = await fetch(`${api}/api/orders/${orderId}`, { headers, signal: AbortSignal.timeout(10_000) });
      const { quote, quotes, quotesNotOffered } = (await detail.json()) as {
        quote: { amountWei: string; depositAddress?: string | null } | null;
        quotes?: { asset: string; amount: string; payTo: string }[];
        quotesNotOffered?: unknown[];
      };
      if (!quote) throw new Error(`order ${orderId} has no quote`);
      if (i >= PAYMENTS + DEPOSITS) {
        const asset = TOKENS[Math.floor((i - PAYMENTS - DEPOSITS) / TOKEN_DEPOSITS)] as TokenSymbol;
        const offered = quotes?.find((q) => q.asset === asset);
        if (!offered) throw new Error(`order ${orderId} has no ${asset} quote (not offered: ${JSON.stringify(quotesNotOffered)})`);
        if (offered.payTo !== quote.depositAddress) throw new Error(`order ${orderId}'s ${asset} quote is paid to ${offered.payTo}, not its deposit address`);
        payments.push({ orderId, asset, amount: BigInt(offered.amount), reported: asset === 'USDC', depositAddress: offered.payTo });
      } else if (i >= PAYMENTS) {
        if (!quote.depositAddress) throw new Error(`order ${orderId} has no deposit address`);
        // What an exchange sends: the quote without its tag digits (a whole millionth of an ETH, rounded up).
        const amountWei = BigInt(quote.amountWei);
        payments.push({ orderId, asset: 'ETH', amount: amountWei - (amountWei % 10n ** 12n), reported: false, depositAddress: quote.depositAddress });
      } else payments.push({ orderId, asset: 'ETH', amount: BigInt(quote.amountWei), reported: i % UNREPORTED_EVERY !== UNREPORTED_EVERY - 1 });
    }
    // Deposits and tokens interleaved with the others, as they would arrive.
    payments.sort(() => Math.random() - 0.5);

    const payers = ANVIL_ACCOUNTS.slice(2);
    const nonces = new Map<string, bigint>();
    for (const a of payers) nonces.set(a, BigInt(await rpc.call<string>('eth_getTransactionCount', [a, 'pending'])));
    await rpc.call('evm_setAutomine', [false]);

    const minedAt = new Map<bigint, number>();
    const dbRoundTrips: number[] = [];
    let stop = false;
    const hardDeadline = performance.now() + total * PAY_GAP_MS * 1.5 + MISSED_AFTER_MS + 30_000;
    const running = () => !stop && performance.now() < hardDeadline;
    const confirmingBlock = (p: Payment) => (p.block === undefined ? undefined : p.block + BigInt(CONFIRMATIONS - 1));

    const miner = async () => {
      while (running()) {
        await sleep(between(BLOCK_MIN_MS, BLOCK_MAX_MS));
        await rpc.call('evm_mine');
        const at = performance.now();
        minedAt.set(BigInt(await rpc.call<string>('eth_blockNumber')), at);
      }
    };
    const payer = async () => {
      for (const [i, p] of payments.entries()) {
        if (!running()) return;
        await sleep(between(0.5, 1.5) * PAY_GAP_MS);
        const from = payers[i % payers.length] as string;
        const nonce = nonces.get(from) as bigint;
        nonces.set(from, nonce + 1n);
        if (p.asset === 'ETH') {
          p.hash = await rpc.call<string>('eth_sendTransaction', [{ from, to: p.depositAddress ?? RECEIVING_ADDRESS, value: toHex(p.amount), gas: toHex(21_000), nonce: toHex(nonce) }]);
        } else {
          const tx = tokenTransferRequest(tokenBySymbol(p.asset), p.depositAddress as string, p.amount);
          p.hash = await rpc.call<string>('eth_sendTransaction', [{ from, to: tx.to, data: tx.data, value: toHex(tx.value), gas: toHex(TOKEN_TRANSFER_GAS), nonce: toHex(nonce) }]);
        }
        if (p.reported) {
          const body = JSON.stringify(p.asset === 'ETH' ? { txHash: p.hash } : { txHash: p.hash, asset: p.asset });
          const res = await fetch(`${api}/api/orders/${p.orderId}/purchased`, { method: 'PUT', headers, body, signal: AbortSignal.timeout(10_000) });
          if (res.status !== 202) throw new Error(`reporting ${p.hash} answered ${res.status}: ${await res.text()}`);
        }
      }
    };
    // The baseline: the least a verifier must do to see the confirmation, a bare
    // eth_blockNumber + eth_getTransactionReceipt poll at the same interval.
    const barePoll = async () => {
      while (running()) {
        const head = BigInt(await rpc.call<string>('eth_blockNumber'));
        const unknown = payments.filter((p) => p.hash && p.block === undefined);
        if (unknown.length > 0) {
          const receipts = await rpc.batch<{ blockNumber: string; status: string } | null>(unknown.map((p) => ({ method: 'eth_getTransactionReceipt', params: [p.hash] })));
          receipts.forEach((r, i) => {
            const p = unknown[i] as Payment;
            if (r && r.status !== '0x1') throw new Error(`the ${p.asset} payment ${p.hash} reverted`);
            if (r) p.block = BigInt(r.blockNumber);
          });
        }
        const now = performance.now();
        for (const p of payments) {
          const confirming = confirmingBlock(p);
          if (p.bareSeenAt === undefined && confirming !== undefined && head >= confirming) p.bareSeenAt = now;
        }
        await sleep(POLL_MS);
      }
    };
    const paidPoll = async () => {
      while (running()) {
        const open = payments.filter((p) => p.paidAt === undefined);
        if (open.length === 0) return;
        const started = performance.now();
        const rows = await db.order.findMany({ where: { id: { in: open.map((p) => p.orderId) }, status: 'PAID' }, select: { id: true } });
        const now = performance.now();
        dbRoundTrips.push(now - started);
        const paid = new Set(rows.map((r) => r.id));
        for (const p of open) if (paid.has(p.orderId)) p.paidAt = now;
        await sleep(POLL_MS);
      }
    };
    // Finished when every order is PAID, or has had its confirmation for MISSED_AFTER_MS.
    const settled = async () => {
      while (running()) {
        const now = performance.now();
        const waiting = payments.some((p) => {
          if (p.paidAt !== undefined) return false;
          const at = minedAt.get(confirmingBlock(p) ?? -1n);
          return at === undefined || now - at < MISSED_AFTER_MS;
        });
        if (!waiting) break;
        await sleep(100);
      }
      stop = true;
    };

    const started = performance.now();
    const loops = [miner(), payer(), barePoll(), paidPoll(), settled()].map((loop) =>
      loop.catch((err: unknown) => {
        stop = true;
        throw err;
      }),
    );
    const outcomes = await Promise.allSettled(loops);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    const elapsed = (performance.now() - started) / 1000;

    const toPaid: number[] = [];
    const toPaidReported: number[] = [];
    const toPaidIndexed: number[] = [];
    const toPaidDeposit: number[] = [];
    const toPaidToken: number[] = [];
    const toPaidByToken = new Map<TokenSymbol, number[]>(TOKENS.map((t) => [t, []]));
    const bare: number[] = [];
    const bareDeposit: number[] = [];
    const bareToken: number[] = [];
    let missed = 0;
    for (const p of payments) {
      const at = minedAt.get(confirmingBlock(p) ?? -1n);
      if (at === undefined || p.paidAt === undefined || p.paidAt - at > MISSED_AFTER_MS) {
        missed++;
        continue;
      }
      if (p.asset !== 'ETH') {
        toPaidToken.push(p.paidAt - at);
        toPaidByToken.get(p.asset)?.push(p.paidAt - at);
        if (p.bareSeenAt !== undefined) bareToken.push(p.bareSeenAt - at);
        continue;
      }
      if (p.depositAddress) {
        toPaidDeposit.push(p.paidAt - at);
        if (p.bareSeenAt !== undefined) bareDeposit.push(p.bareSeenAt - at);
        continue;
      }
      toPaid.push(p.paidAt - at);
      (p.reported ? toPaidReported : toPaidIndexed).push(p.paidAt - at);
      if (p.bareSeenAt !== undefined) bare.push(p.bareSeenAt - at);
    }
    const perBlock = new Map<bigint, number>();
    for (const p of payments) if (p.block !== undefined) perBlock.set(p.block, (perBlock.get(p.block) ?? 0) + 1);

    const p50 = median(toPaid);
    const p99 = percentile(toPaid, 99);
    const rows = [
      {
        metric: 'Last confirmation -> PAID, median',
        target: `< ${ms(MEDIAN_TARGET_MS)}`,
        figure: ms(p50),
        baseline: `${ms(median(bare))} (bare receipt poll)`,
        pass: p50 < MEDIAN_TARGET_MS,
      },
      {
        metric: 'Last confirmation -> PAID, p99',
        target: `< ${ms(P99_TARGET_MS)}`,
        figure: ms(p99),
        baseline: `${ms(percentile(bare, 99))} (bare receipt poll)`,
        pass: p99 < P99_TARGET_MS,
      },
      {
        metric: 'Last confirmation -> PAID, max',
        target: '-',
        figure: ms(toPaid.length ? Math.max(...toPaid) : Number.NaN),
        baseline: `${ms(bare.length ? Math.max(...bare) : Number.NaN)} (bare receipt poll)`,
      },
      {
        metric: 'Deposit (exchange route, unreported) last confirmation -> PAID, median',
        target: `< ${ms(MEDIAN_TARGET_MS)}`,
        figure: ms(median(toPaidDeposit)),
        baseline: `${ms(median(toPaidReported))} (reported payments, this run); ${ms(median(bareDeposit))} (bare receipt poll)`,
        pass: median(toPaidDeposit) < MEDIAN_TARGET_MS,
      },
      {
        metric: 'Deposit (exchange route, unreported) last confirmation -> PAID, p99',
        target: `< ${ms(P99_TARGET_MS)}`,
        figure: ms(percentile(toPaidDeposit, 99)),
        baseline: `${ms(percentile(toPaidReported, 99))} (reported payments, this run); ${ms(percentile(bareDeposit, 99))} (bare receipt poll)`,
        pass: percentile(toPaidDeposit, 99) < P99_TARGET_MS,
      },
      {
        metric: `Token (${TOKENS.join('/')}) last confirmation -> PAID, median`,
        target: `< ${ms(MEDIAN_TARGET_MS)}`,
        figure: ms(median(toPaidToken)),
        baseline: `${ms(median(toPaidDeposit))} (ETH deposits, this run); ${ms(p50)} (tagged ETH payments, this run); ${ms(median(bareToken))} (bare receipt poll)`,
        pass: median(toPaidToken) < MEDIAN_TARGET_MS,
      },
      {
        metric: `Token (${TOKENS.join('/')}) last confirmation -> PAID, p99`,
        target: `< ${ms(P99_TARGET_MS)}`,
        figure: ms(percentile(toPaidToken, 99)),
        baseline: `${ms(percentile(toPaidDeposit, 99))} (ETH deposits, this run); ${ms(p99)} (tagged ETH payments, this run); ${ms(percentile(bareToken, 99))} (bare receipt poll)`,
        pass: percentile(toPaidToken, 99) < P99_TARGET_MS,
      },
      {
        metric: `Missed (not PAID ${MISSED_AFTER_MS / 1000} s after the confirmation)`,
        target: '0',
        figure: `${missed} of ${total}`,
        baseline: '-',
        pass: missed === 0,
      },
    ];
    const notes = [
      `Blocks mined by the benchmark every ${BLOCK_MIN_MS / 1000}-${BLOCK_MAX_MS / 1000} s (random; ${minedAt.size} blocks, up to ${Math.max(0, ...perBlock.values())} payments in one), a payment sent every ~${PAY_GAP_MS} ms from ${payers.length} dev accounts; ${int(elapsed)} s from the first payment to the last PAID.`,
      `${payments.filter((p) => p.reported).length} hashes reported through PUT /api/orders/:id/purchased as the pay page does (median ${ms(median(toPaidReported))}, p99 ${ms(percentile(toPaidReported, 99))}); ` +
        `${payments.filter((p) => !p.reported && !p.depositAddress).length} left for the indexer (median ${ms(median(toPaidIndexed))}, p99 ${ms(percentile(toPaidIndexed, 99))}); ` +
        `${toPaidDeposit.length} deposits of a round amount to their orders' deposit addresses, found by the indexer by recipient (the first three rows are the ${PAYMENTS} tagged payments only).`,
      `Token deposits: each order's token quote (GET /api/orders/:id, \`quotes\`) sent by a \`transfer\` to its deposit address from the same dev accounts, found by the indexer in the block's Transfer logs (core/src/rails/erc20/); ` +
        TOKENS.map((t) => `${t} ${toPaidByToken.get(t)?.length ?? 0} (median ${ms(median(toPaidByToken.get(t) ?? []))}, p99 ${ms(percentile(toPaidByToken.get(t) ?? [], 99))})`).join(', ') +
        `; the USDC hashes were also reported with PUT /api/orders/:id/purchased as the pay page does, which starts no check of its own for a token. The token rows hold the same targets as the ETH rows; their p99 is a nearest rank, so with ${TOKEN_DEPOSITS * TOKENS.length} transfers it is the slowest of them.`,
      `The worker (NODE_ENV=test, so receipts go to files instead of SMTP; PAYMENT_CONFIRMATIONS=2; ACCEPTED_ASSETS=${['ETH', ...TOKENS].join(',')}) otherwise runs with its defaults. It hears of each block by subscription (ETH_WS_URL, anvil's WebSocket endpoint; worker/src/block-watcher.ts): the block queues an index run at once and wakes the payment checks waiting for it, whose retry timers (2 s while a transaction is unmined, 1 s while it lacks confirmations; core/src/payments/verifier.ts) are only the fallback; chain-index also runs every ${env.config.indexerIntervalMs} ms. The PAID poll and the bare receipt poll both run every ${POLL_MS} ms; a database round trip of the poll took ${ms(median(dbRoundTrips))} (median).`,
    ];
    return { rows, notes };
  },
};

if (isMain(import.meta.url)) await runStandalone(paymentsBench);

import { createRuntime, followChain, indexBlocks, loadConfig, type Runtime } from '@shop/core';
import { createChainClient } from '@shop/core/chain/public-client';
import { depositAddressesAmong, watchedDepositAddresses } from '@shop/core/payments/deposits';
import { createTokenRail } from '@shop/core/rails/erc20/index';
import { chainRails, railDeliveries, railsReader, type Rail } from '@shop/core/rails/index';
import { tokenBySymbol } from '../core/src/contract/tokens.ts';
import { installTokenMocks } from '../scripts/lib/token-mocks.ts';
import { createBenchEnv, RECEIVING_ADDRESS } from './lib/env.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';
import { createBuyer } from './lib/shop.ts';
import { encodeFunctionData, erc20Abi, numberToHex as toHex, type Address } from 'viem';
import { jsonRpc, type JsonRpc, type RpcCall } from './lib/rpc.ts';
import { int } from './lib/stats.ts';

/**
 * The indexer catching up: 1,000 blocks of 50 transfers each are built on anvil, then
 * one `indexBlocks` call (core/src/payments/indexer.ts) reads them from the checkpoint
 * to the head. The baseline makes the indexer's requests for the same blocks (16 in
 * flight) and nothing else.
 */
const BLOCKS = 1_000;
const TXS_PER_BLOCK = 50;
/** Every this many blocks, one of the transfers pays the shop. */
const SHOP_TRANSFER_EVERY = 5;
const FETCH_CONCURRENCY = 16; // as in core/src/payments/indexer.ts
const TARGET_BLOCKS_PER_S = 100;
/** Live orders' deposit addresses the second pass watches (their balances read at every block). */
const WATCHED_DEPOSITS = 500;
/** Of each block's transactions, the last this many are token transfers (USDC and USDT in turn), as on mainnet, where most blocks carry both. */
const TOKEN_TXS_PER_BLOCK = 10;
/** The token logs pass reads at least this share of the blocks per second it reads without them. */
const TOKEN_PASS_TARGET = 0.9;
const USDC = tokenBySymbol('USDC');
const USDT = tokenBySymbol('USDT');
const TOKEN_TRANSFER_GAS = toHex(100_000);
/** An order's deposit address in the watching passes (the rows inserted below). */
const depositAddress = (i: number) => `0xde${i.toString(16).padStart(38, '0')}`;

const TRANSFER_GAS = toHex(21_000);
const MAX_FEE = toHex(100_000_000_000n); // 100 gwei: far above anvil's base fee, no estimation
const PRIORITY_FEE = toHex(1_000_000_000n);

/**
 * Addresses nobody else uses (not precompiles, not dev accounts). A few hundred of them:
 * tens of thousands of new accounts would slow anvil's mining, not the indexer.
 */
const stranger = (i: number) => `0xbe${(i % 499).toString(16).padStart(38, '0')}`;

async function buildBlocks(rpc: JsonRpc): Promise<{ first: bigint; last: bigint; shopTransfers: number; tokenDeposits: number }> {
  const accounts = (await rpc.call<string[]>('eth_accounts')).filter((a) => a.toLowerCase() !== RECEIVING_ADDRESS.toLowerCase());
  const nonces = await rpc.batch<string>(accounts.map((a) => ({ method: 'eth_getTransactionCount', params: [a, 'pending'] })));
  const next = accounts.map((_, i) => BigInt(nonces[i] as string));
  await rpc.call('evm_setAutomine', [false]);
  const first = BigInt(await rpc.call<string>('eth_blockNumber')) + 1n;
  let shopTransfers = 0;
  let tokenDeposits = 0;
  for (let b = 0; b < BLOCKS; b++) {
    const calls: RpcCall[] = [];
    for (let t = 0; t < TXS_PER_BLOCK; t++) {
      const a = (b * TXS_PER_BLOCK + t) % accounts.length;
      const toShop = t === 0 && b % SHOP_TRANSFER_EVERY === 0;
      if (toShop) shopTransfers++;
      const nonce = next[a] as bigint;
      next[a] = nonce + 1n;
      if (t >= TXS_PER_BLOCK - TOKEN_TXS_PER_BLOCK) {
        // A token transfer: to an order's deposit address once every SHOP_TRANSFER_EVERY blocks (USDC), else to a stranger.
        const toDeposit = t === TXS_PER_BLOCK - TOKEN_TXS_PER_BLOCK && b % SHOP_TRANSFER_EVERY === 0;
        if (toDeposit) tokenDeposits++;
        const token = t % 2 === 0 ? USDC : USDT;
        const to = (toDeposit ? depositAddress(1 + (b % WATCHED_DEPOSITS)) : stranger(b * TXS_PER_BLOCK + t)) as Address;
        const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 1n + BigInt(b)] });
        calls.push({
          method: 'eth_sendTransaction',
          params: [{ from: accounts[a], to: token.address, data, gas: TOKEN_TRANSFER_GAS, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: PRIORITY_FEE, nonce: toHex(nonce) }],
        });
        continue;
      }
      calls.push({
        method: 'eth_sendTransaction',
        params: [{
          from: accounts[a],
          to: toShop ? RECEIVING_ADDRESS : stranger(b * TXS_PER_BLOCK + t),
          value: toHex(1_000_000_000_000n + BigInt(b * TXS_PER_BLOCK + t)),
          gas: TRANSFER_GAS,
          maxFeePerGas: MAX_FEE,
          maxPriorityFeePerGas: PRIORITY_FEE,
          nonce: toHex(nonce),
        }],
      });
    }
    await rpc.batch(calls);
    await rpc.call('evm_mine');
  }
  const last = BigInt(await rpc.call<string>('eth_blockNumber'));
  if (last - first + 1n !== BigInt(BLOCKS)) throw new Error(`built ${last - first + 1n} blocks, expected ${BLOCKS}`);
  for (const n of [first, last]) {
    const count = Number(BigInt(await rpc.call<string>('eth_getBlockTransactionCountByNumber', [toHex(n)])));
    if (count !== TXS_PER_BLOCK) throw new Error(`block ${n} holds ${count} transactions, expected ${TXS_PER_BLOCK}`);
  }
  return { first, last, shopTransfers, tokenDeposits };
}

/**
 * The follower over `rails` from a new checkpoint at `first` to the head, the rails' deliveries
 * read in each commit as the indexer reads them (its writes of payments left out: the
 * same in both passes it compares), watching the live orders' deposit addresses.
 */
async function followWith(runtime: Runtime, rails: Rail[], first: bigint): Promise<{ seconds: number; found: number; to: bigint }> {
  const { db } = runtime;
  await db.$transaction([db.indexedBlock.deleteMany(), db.chainCursor.deleteMany()]);
  const receiving = runtime.config.receivingAddress.toLowerCase();
  const reader = railsReader(rails, async () => ({ receiving, watched: [...new Set((await watchedDepositAddresses(db, runtime.config.latePaymentHours)).map((a) => a.toLowerCase()))] }));
  let found = 0;
  const started = performance.now();
  const outcome = await followChain(
    runtime,
    reader,
    {
      async blocks(tx, linked) {
        const read = await railDeliveries(rails, linked, { receiving, depositAddressesAmong: (addresses) => depositAddressesAmong(tx, addresses) });
        found += read.found.length;
      },
    },
    { startBlock: first, maxBlocks: 100_000 },
  );
  if (outcome.state !== 'followed') throw new Error(`the follower ${outcome.state}`);
  return { seconds: (performance.now() - started) / 1000, found, to: outcome.to };
}

export const indexerBench: Bench = {
  id: 'indexer',
  title: `Indexer: catching up ${int(BLOCKS)} blocks of ${TXS_PER_BLOCK} transactions on anvil`,
  async run(scope) {
    const env = await createBenchEnv({ chain: true, priceFeed: false });
    scope.defer('bench environment', env.close);
    const rpcUrl = env.anvil!.rpcUrl;
    const rpc = jsonRpc(rpcUrl);
    // Mock USDC and USDT at their mainnet addresses (no block mined, no nonce moved).
    await installTokenMocks(rpcUrl);

    const buildStarted = performance.now();
    const { first, last, shopTransfers, tokenDeposits } = await buildBlocks(rpc);
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    const numbers: bigint[] = [];
    for (let n = first; n <= last; n++) numbers.push(n);

    const runtime = createRuntime(loadConfig({ ...env.vars, LOG_LEVEL: 'silent' }), 'script');
    scope.defer('runtime', () => runtime.close());

    // Baseline: the indexer's own requests (eth_getBlockByNumber with transactions and
    // eth_getBalance of the receiving address at that block, FETCH_CONCURRENCY blocks in
    // flight, a new one as each answers) through the same viem client, and nothing else.
    // A short fetch first warms both paths.
    const bareClient = createChainClient(rpcUrl);
    const sliding = async (blocks: bigint[], fetchOne: (n: bigint) => Promise<{ transactions: unknown[] }>) => {
      let transactions = 0;
      let i = 0;
      const lane = async () => {
        while (i < blocks.length) {
          const block = await fetchOne(blocks[i++] as bigint);
          transactions += block.transactions.length;
        }
      };
      await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, lane));
      return transactions;
    };
    const fetchAll = (blocks: bigint[]) =>
      sliding(blocks, async (n) => {
        const [block] = await Promise.all([
          bareClient.request({ method: 'eth_getBlockByNumber', params: [toHex(n), true] }),
          bareClient.request({ method: 'eth_getBalance', params: [RECEIVING_ADDRESS, toHex(n)] }),
        ]);
        return block!;
      });
    // The node's own ceiling: the same requests without viem (plain fetch and JSON).
    const fetchRaw = (blocks: bigint[]) =>
      sliding(blocks, async (n) => {
        const [block] = await Promise.all([
          rpc.call<{ transactions: unknown[] }>('eth_getBlockByNumber', [toHex(n), true]),
          rpc.call<string>('eth_getBalance', [RECEIVING_ADDRESS, toHex(n)]),
        ]);
        return block;
      });
    const timed = async (fetch: (blocks: bigint[]) => Promise<number>) => {
      const started = performance.now();
      const transactions = await fetch(numbers);
      if (transactions !== BLOCKS * TXS_PER_BLOCK) throw new Error(`fetched ${transactions} transactions, expected ${BLOCKS * TXS_PER_BLOCK}`);
      return (performance.now() - started) / 1000;
    };
    await fetchAll(numbers.slice(0, 64));
    await fetchRaw(numbers.slice(0, 64));
    const bareSeconds = await timed(fetchAll);

    // The indexer: a new checkpoint just before the first built block, then one call.
    const indexStarted = performance.now();
    const result = await indexBlocks({ ...runtime }, { startBlock: first, maxBlocks: 100_000 });
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    if (result.from !== first || result.to !== last) throw new Error(`indexed ${result.from}..${result.to}, expected ${first}..${last}`);
    if (result.transfers.length !== shopTransfers) throw new Error(`found ${result.transfers.length} transfers to the shop, expected ${shopTransfers}`);

    const rawSeconds = await timed(fetchRaw);

    // The same blocks again, now with live orders whose deposit addresses the indexer
    // watches: one more eth_call per block (their balances) and the lookup of each block's
    // recipients among the orders' deposit addresses.
    await runtime.db.$transaction([runtime.db.payment.deleteMany(), runtime.db.indexedBlock.deleteMany(), runtime.db.chainCursor.deleteMany()]);
    const buyer = await createBuyer(runtime.db, env.config);
    await runtime.db.$executeRaw`
      INSERT INTO "Order" ("id", "userId", "itemsPrice", "totalPrice", "depositAddress", "paymentDeadline", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), ${buyer.id}::uuid, 25, 25, '0xde' || lpad(to_hex(g), 38, '0'), now() + interval '1 hour', now(), now()
      FROM generate_series(1, ${WATCHED_DEPOSITS}) AS g`;
    const watchStarted = performance.now();
    const watching = await indexBlocks({ ...runtime }, { startBlock: first, maxBlocks: 100_000 });
    const watchSeconds = (performance.now() - watchStarted) / 1000;
    if (watching.to !== last || watching.transfers.length !== shopTransfers) throw new Error(`the watching pass indexed ${watching.from}..${watching.to} with ${watching.transfers.length} transfers`);

    // The follower over the ETH rail alone, then over it and the USDC and USDT rails (each
    // block's token Transfer logs read by its hash too), watching the same orders; the
    // better of two runs each, alternating.
    const ethOnly = chainRails(runtime);
    const withTokens = [...ethOnly, createTokenRail(runtime, USDC) as Rail, createTokenRail(runtime, USDT) as Rail];
    const plain1 = await followWith(runtime, ethOnly, first);
    const tokens1 = await followWith(runtime, withTokens, first);
    const plain2 = await followWith(runtime, ethOnly, first);
    const tokens2 = await followWith(runtime, withTokens, first);
    for (const pass of [plain1, plain2, tokens1, tokens2]) if (pass.to !== last) throw new Error(`a rails pass followed to ${pass.to}, expected ${last}`);
    if (tokens1.found - plain1.found !== tokenDeposits) throw new Error(`the token rails found ${tokens1.found - plain1.found} deliveries, expected ${tokenDeposits}`);
    const plainSeconds = Math.min(plain1.seconds, plain2.seconds);
    const tokenSeconds = Math.min(tokens1.seconds, tokens2.seconds);

    const indexRate = BLOCKS / indexSeconds;
    const bareRate = BLOCKS / bareSeconds;
    return {
      rows: [
        {
          metric: 'Blocks per second, one indexBlocks call from the checkpoint to the head',
          target: `>= ${TARGET_BLOCKS_PER_S} blocks/s`,
          figure: `${int(indexRate)} blocks/s (${int(indexRate * TXS_PER_BLOCK)} tx/s; ${indexSeconds.toFixed(1)} s)`,
          baseline: `${int(bareRate)} blocks/s (${bareSeconds.toFixed(1)} s; the indexer's requests only); node ceiling ${int(BLOCKS / rawSeconds)} blocks/s (the same without viem)`,
          pass: indexRate >= TARGET_BLOCKS_PER_S,
        },
        {
          metric: `The same, watching ${int(WATCHED_DEPOSITS)} live orders' deposit addresses`,
          target: `>= ${TARGET_BLOCKS_PER_S} blocks/s`,
          figure: `${int(BLOCKS / watchSeconds)} blocks/s (${watchSeconds.toFixed(1)} s)`,
          baseline: `${int(indexRate)} blocks/s (the pass above, no deposit addresses)`,
          pass: BLOCKS / watchSeconds >= TARGET_BLOCKS_PER_S,
        },
        {
          metric: `Blocks per second with the USDC and USDT rails' token logs read, beside without (the follower over the rails, watching ${int(WATCHED_DEPOSITS)} deposit addresses)`,
          target: `>= ${Math.round(TOKEN_PASS_TARGET * 100)}% of without`,
          figure: `${int(BLOCKS / tokenSeconds)} blocks/s (${tokenSeconds.toFixed(1)} s; ${Math.round((plainSeconds / tokenSeconds) * 100)}%)`,
          baseline: `${int(BLOCKS / plainSeconds)} blocks/s (${plainSeconds.toFixed(1)} s; the ETH rail alone)`,
          pass: plainSeconds / tokenSeconds >= TOKEN_PASS_TARGET,
        },
      ],
      notes: [
        `${int(BLOCKS * TXS_PER_BLOCK)} ETH transfers from anvil's dev accounts to a few hundred addresses, ${shopTransfers} of them to the receiving address (recorded as payments by the indexer); built in ${buildSeconds.toFixed(1)} s (automine off, ${TXS_PER_BLOCK} eth_sendTransaction in one JSON-RPC batch, then evm_mine).`,
        `The indexer and the baseline both request eth_getBlockByNumber with transactions and eth_getBalance of the receiving address at each block through viem's client, ${FETCH_CONCURRENCY} blocks in flight over HTTP, reading only the fields they need; the indexer fetches up to 256 blocks ahead while it links them by parent hash and compares each block's balance change with its transfers to the shop (all add up here, so no block is traced), writes the payments, the block window and the checkpoint, 200 blocks per transaction. The baseline's time is ${pctOf(bareSeconds, indexSeconds)} of the indexer's. ` +
          `The node ceiling is the same requests with plain fetch and JSON, no viem: what anvil itself serves here.`,
        `Of each block's ${TXS_PER_BLOCK} transactions, ${TOKEN_TXS_PER_BLOCK} are token transfers (USDC and USDT in turn, the mocks at their mainnet addresses), ${tokenDeposits} of them to an order's deposit address; the ETH rail reads nothing in them (no value).`,
        `The token logs row follows the same blocks with the follower (core/src/chain/follower.ts) over railsReader, first over the ETH rail alone, then over it and the USDC and USDT rails (core/src/rails/erc20/: one eth_getLogs by block hash per token per block, fetched ahead with the block, then the recipients looked up among the orders' deposit addresses), the deliveries read in each commit as the indexer reads them but no payment written (the token rails are not in the indexer yet); the better of two runs each, alternating. The token rails found the ${tokenDeposits} token deposits.`,
        `The second pass indexes the same blocks from a new checkpoint with ${int(WATCHED_DEPOSITS)} orders whose payment window is open: their deposit addresses' balances are read after every block in one eth_call (core/src/chain/BalanceReader.sol, run at the block's hash) and each block's recipients are looked up among all orders' deposit addresses; nothing reaches them here, so no block is traced.`,
      ],
    };
  },
};

const pctOf = (part: number, whole: number) => `~${Math.min(100, Math.round((part / whole) * 100))}%`;

if (isMain(import.meta.url)) await runStandalone(indexerBench);

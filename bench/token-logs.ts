import { encodeFunctionData, erc20Abi, numberToHex as toHex, type Hash, type PublicClient } from 'viem';
import { createChainClient } from '@shop/core/chain/public-client';
import { transferLogsInBlock } from '../core/src/rails/erc20/logs.ts';
import { tokenBySymbol } from '../core/src/contract/tokens.ts';
import { startAnvil } from '../scripts/lib/anvil.ts';
import { installTokenMocks } from '../scripts/lib/token-mocks.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';
import { jsonRpc, type JsonRpc, type RpcCall } from './lib/rpc.ts';
import { int } from './lib/stats.ts';

/**
 * How the token rail reads a block (core/src/rails/erc20/blocks.ts): one eth_getLogs by
 * the block's hash for all of the token's Transfer events, filtered in memory, beside the
 * same call with the `to` topic set to the watched addresses (the receiving address and
 * the live orders' deposit addresses). Blocks of USDC transfers are built on anvil, then
 * read both ways, FETCH_CONCURRENCY blocks in flight as the follower fetches them.
 */
const BLOCKS = 300;
const TRANSFERS_PER_BLOCK = 100;
/** Every this many transfers, one reaches a watched address. */
const WATCHED_EVERY = 20;
const WATCH_LISTS = [50, 500, 5_000];
const FETCH_CONCURRENCY = 16;
const USDC = tokenBySymbol('USDC');

const watchedAddress = (i: number) => `0xde${i.toString(16).padStart(38, '0')}`;
const stranger = (i: number) => `0xbe${(i % 997).toString(16).padStart(38, '0')}`;

async function buildBlocks(rpc: JsonRpc, accounts: string[]): Promise<Hash[]> {
  await rpc.call('evm_setAutomine', [false]);
  const nonces = await rpc.batch<string>(accounts.map((a) => ({ method: 'eth_getTransactionCount', params: [a, 'pending'] })));
  const next = accounts.map((_, i) => BigInt(nonces[i] as string));
  const hashes: Hash[] = [];
  for (let b = 0; b < BLOCKS; b++) {
    const calls: RpcCall[] = [];
    for (let t = 0; t < TRANSFERS_PER_BLOCK; t++) {
      const n = b * TRANSFERS_PER_BLOCK + t;
      const a = n % accounts.length;
      const to = n % WATCHED_EVERY === 0 ? watchedAddress(n % 50) : stranger(n);
      const nonce = next[a] as bigint;
      next[a] = nonce + 1n;
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as `0x${string}`, 1n + BigInt(n)] });
      calls.push({ method: 'eth_sendTransaction', params: [{ from: accounts[a], to: USDC.address, data, gas: toHex(100_000), maxFeePerGas: toHex(100_000_000_000n), maxPriorityFeePerGas: toHex(1_000_000_000n), nonce: toHex(nonce) }] });
    }
    await rpc.batch(calls);
    await rpc.call('evm_mine');
    const block = await rpc.call<{ hash: Hash; transactions: unknown[] }>('eth_getBlockByNumber', ['latest', false]);
    if (block.transactions.length !== TRANSFERS_PER_BLOCK) throw new Error(`a block holds ${block.transactions.length} transfers, expected ${TRANSFERS_PER_BLOCK}`);
    hashes.push(block.hash);
  }
  return hashes;
}

async function sliding(hashes: Hash[], readOne: (hash: Hash) => Promise<number>): Promise<{ seconds: number; found: number }> {
  let i = 0;
  let found = 0;
  const started = performance.now();
  const lane = async () => {
    while (i < hashes.length) {
      const n = await readOne(hashes[i++] as Hash);
      found += n;
    }
  };
  await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, lane));
  return { seconds: (performance.now() - started) / 1000, found };
}

export const tokenLogsBench: Bench = {
  id: 'token-logs',
  title: `Token rail: reading ${int(BLOCKS)} blocks of ${TRANSFERS_PER_BLOCK} USDC transfers by their Transfer logs on anvil`,
  async run(scope) {
    const anvil = await startAnvil();
    scope.defer('anvil', () => anvil.stop());
    await installTokenMocks(anvil.rpcUrl);
    const rpc = jsonRpc(anvil.rpcUrl);
    const accounts = await rpc.call<string[]>('eth_accounts');
    const hashes = await buildBlocks(rpc, accounts);
    const chain = createChainClient(anvil.rpcUrl) as unknown as PublicClient;
    const receiving = accounts[1] as string;
    const all = (watch: Set<string>) => (hash: Hash) => transferLogsInBlock(chain, USDC.address, hash).then((logs) => logs.filter((l) => watch.has(l.to)).length);
    const byTopic = (list: string[]) => (hash: Hash) => transferLogsInBlock(chain, USDC.address, hash, list).then((logs) => logs.length);
    await sliding(hashes.slice(0, 32), all(new Set()));
    const rows = [];
    for (const size of WATCH_LISTS) {
      const list = [receiving.toLowerCase(), ...Array.from({ length: size }, (_, i) => watchedAddress(i))];
      const set = new Set(list);
      // Each way twice, alternating; the better of two.
      const a1 = await sliding(hashes, all(set));
      const b1 = await sliding(hashes, byTopic(list));
      const a2 = await sliding(hashes, all(set));
      const b2 = await sliding(hashes, byTopic(list));
      if (a1.found !== b1.found) throw new Error(`the two ways found ${a1.found} and ${b1.found} transfers`);
      const a = Math.min(a1.seconds, a2.seconds);
      const b = Math.min(b1.seconds, b2.seconds);
      rows.push({
        metric: `${int(size)} watched addresses: all the token's Transfer logs, filtered in memory`,
        target: size >= 500 ? 'at least as fast as by topic' : 'none (a short list, for comparison)',
        figure: `${int(BLOCKS / a)} blocks/s (${a.toFixed(2)} s)`,
        baseline: `${int(BLOCKS / b)} blocks/s (${b.toFixed(2)} s) with the ${int(size + 1)} addresses as the \`to\` topic`,
        pass: size >= 500 ? a <= b : true,
      });
    }
    return {
      rows,
      notes: [
        'The rail reads all of the token\'s Transfer logs of a block and filters them in memory (docs/decisions.md, "The token rail"): its cost does not grow with the watch list, and it finds a late payment to an older order\'s deposit address by its recipient. By topic is faster only for a short list, and slows as the list grows (the node matches each log against every address).',
        `${int(BLOCKS * TRANSFERS_PER_BLOCK)} USDC transfers (the mock at the mainnet address) from anvil's dev accounts, one in ${WATCHED_EVERY} to one of 50 watched deposit addresses, the rest to ~1,000 others; each block read by eth_getLogs with its hash, ${FETCH_CONCURRENCY} in flight, the answer checked (rails/erc20/logs.ts).`,
      ],
    };
  },
};

if (isMain(import.meta.url)) await runStandalone(tokenLogsBench);

import { createPublicClient, custom, http, hexToBigInt, type Address, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../../scripts/lib/anvil.ts';
import { deployDepositFactory } from '../../../scripts/lib/deposit-factory.ts';
import { ANVIL_ACCOUNTS, anvilDriver } from '../../../scripts/testing/chain.ts';
import { depositFactoryAbi } from '../deposits/abi.ts';
import { depositAddressOf, depositSalt } from '../deposits/addresses.ts';
import { flushLogs } from './sweeper-found.ts';

/**
 * The search for a deposit address's Flushed events (sweeper-found.ts) starts at its oldest
 * unswept deposit, which may be months old: a provider that caps eth_getLogs' range (10,000
 * blocks is common) must not turn it into an error on every run, which would keep a sweep
 * waiting, and its addresses out of every batch, for good.
 */
const [deployer, receiving, buyer, stranger] = [ANVIL_ACCOUNTS[0], ANVIL_ACCOUNTS[1], ANVIL_ACCOUNTS[2], ANVIL_ACCOUNTS[6]];
const ORDER = '5b0b0c2e-8d8f-4a53-9f3e-3d1b7c1e2a44';

let anvil: AnvilInstance;
/** The cap of this test's node, and the window asked: small, so that the test mines few blocks (the shop asks LOG_WINDOW). */
const CAP = 100n;

/** A node that refuses eth_getLogs over more than CAP blocks, as many providers do (10,000 is common). */
function cappedNode(): PublicClient {
  const node = createPublicClient({ chain: mainnet, transport: http(anvil.rpcUrl) });
  return createPublicClient({
    chain: mainnet,
    transport: custom({
      async request({ method, params }) {
        if (method === 'eth_getLogs') {
          const [filter] = params as [{ fromBlock: `0x${string}`; toBlock: `0x${string}` | 'latest' }];
          const to = filter.toBlock === 'latest' ? await node.getBlockNumber({ cacheTime: 0 }) : hexToBigInt(filter.toBlock);
          if (to - hexToBigInt(filter.fromBlock) + 1n > CAP) throw new Error(`query exceeds max block range ${CAP}`);
        }
        return node.request({ method, params } as never);
      },
    }, { retryCount: 0 }),
  }) as PublicClient;
}

beforeAll(async () => {
  anvil = await startAnvil();
});
afterAll(async () => {
  await anvil?.stop();
});

describe("a deposit address's Flushed events", () => {
  it('are found from a block far behind the head on a node that caps the range of one request', async () => {
    const chain = anvilDriver(anvil.rpcUrl);
    const factory = (await deployDepositFactory({ rpcUrl: anvil.rpcUrl, account: deployer, receiver: receiving })).address;
    const address = depositAddressOf(factory, ORDER);
    await chain.sendAndWait(buyer, address, 10n ** 16n);
    const hash = await chain.wallet.writeContract({ account: stranger, address: factory as Address, abi: depositFactoryAbi, functionName: 'sweep', args: [[depositSalt(ORDER)]], chain: null });
    await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await chain.mine(Number(CAP) * 2 + 50);
    const capped = cappedNode();
    // One request over the whole span is refused by such a node.
    await expect(capped.getLogs({ address, fromBlock: 0n, toBlock: 'latest' })).rejects.toThrow(/max block range/);
    const logs = await flushLogs(capped, address, 0n, 'latest', CAP);
    expect(logs.map((l) => l.transactionHash?.toLowerCase())).toEqual([hash.toLowerCase()]);
  });
});

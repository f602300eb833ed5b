import { join } from 'node:path';
import { createTestClient, http, numberToHex, publicActions, walletActions, type Address, type Hash } from 'viem';
import { mainnet } from 'viem/chains';
import { latestRoundDataAbi } from '../../core/src/chain/price-feed.ts';
import { REPO_ROOT } from './paths.ts';
import { compileSolidity } from './solidity.ts';

/**
 * The local chain's prices: a mock Chainlink aggregator compiled from
 * mock-aggregator.sol, placed at the real mainnet feed addresses (ETH/USD here; USDC/USD
 * and USDT/USD by token-mocks.ts) so the app reads the price with exactly the code it
 * uses in production.
 */

/** Chainlink ETH/USD on Ethereum mainnet (the proxy the app reads). */
export const MAINNET_ETH_USD_FEED: Address = '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419';
export const FEED_DECIMALS = 8;
const SET_ROUND_DATA_GAS = 200_000n;

const SOURCE_PATH = join(REPO_ROOT, 'scripts/lib/mock-aggregator.sol');
const CONTRACT_NAME = 'MockAggregatorV3';

export const mockAggregatorAbi = [
  {
    type: 'function',
    name: 'setRoundData',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'answer', type: 'int256' },
      { name: 'updatedAt', type: 'uint256' },
    ],
    outputs: [],
  },
  ...latestRoundDataAbi,
  {
    type: 'function',
    name: 'decimals',
    stateMutability: 'pure',
    inputs: [],
    outputs: [{ name: '', type: 'uint8' }],
  },
] as const;

export type PriceUpdate = {
  txHash: Hash;
  roundId: bigint;
  answer: bigint;
  updatedAt: bigint;
};

/** The mock's build (cached by compileSolidity). */
export const compileMockAggregator = () => compileSolidity(SOURCE_PATH, CONTRACT_NAME);

/**
 * Puts the mock's runtime code at the feed address (the mainnet ETH/USD feed unless
 * told) and publishes `priceUsd` as the latest round.
 */
export async function installPriceFeedMock(
  rpcUrl: string,
  opts: { priceUsd: string | number; feedAddress?: Address },
): Promise<PriceUpdate & { feedAddress: Address }> {
  const feedAddress = opts.feedAddress ?? MAINNET_ETH_USD_FEED;
  const answer = usdToFeedAnswer(opts.priceUsd); // fail on a bad price before touching the chain
  const { runtimeBytecode } = await compileMockAggregator();
  await chainClient(rpcUrl).setCode({ address: feedAddress, bytecode: runtimeBytecode });
  const update = await publishAnswer(rpcUrl, feedAddress, answer, 0n);
  return { ...update, feedAddress };
}

/**
 * Puts the mock's runtime code at `feedAddress` and writes `priceUsd` as its next round
 * straight into its storage (mock-aggregator.sol's slots 0 to 3), stamped with the later
 * of the latest block's time and the wall clock: no transaction, so no block is mined and
 * no dev account's nonce moves (the stablecoin feeds, placed beside every test's chain).
 * A later setEthUsdPrice on the same feed continues from this round.
 */
export async function writeFeedRound(rpcUrl: string, opts: { feedAddress: Address; priceUsd: string | number }): Promise<{ roundId: bigint; answer: bigint; updatedAt: bigint }> {
  const answer = usdToFeedAnswer(opts.priceUsd);
  if (answer <= 0n) throw new Error(`a feed's round written in storage must be a positive price, got ${String(opts.priceUsd)}`);
  const client = chainClient(rpcUrl);
  const { runtimeBytecode } = await compileMockAggregator();
  await client.setCode({ address: opts.feedAddress, bytecode: runtimeBytecode });
  const [round, latest] = await Promise.all([client.getStorageAt({ address: opts.feedAddress, slot: slot(0n) }), client.getBlock()]);
  const roundId = BigInt(round ?? '0x0') + 1n;
  const updatedAt = latest.timestamp > BigInt(Math.floor(Date.now() / 1000)) ? latest.timestamp : BigInt(Math.floor(Date.now() / 1000));
  await Promise.all(
    [roundId, answer, updatedAt, updatedAt].map((value, index) => client.setStorageAt({ address: opts.feedAddress, index: slot(BigInt(index)), value: slot(value) })),
  );
  return { roundId, answer, updatedAt };
}

/** A storage slot's index or a word's value, as the 32-byte hex anvil takes. */
const slot = (value: bigint) => numberToHex(value, { size: 32 });

/**
 * Publishes a new price on an installed mock, from anvil's first dev account, and waits
 * until it is mined. `updatedAt` (unix seconds) defaults to the block's timestamp; pass
 * an old one to make the price stale.
 */
export async function setEthUsdPrice(
  rpcUrl: string,
  priceUsd: string | number,
  opts: { updatedAt?: bigint; feedAddress?: Address } = {},
): Promise<PriceUpdate> {
  return publishAnswer(rpcUrl, opts.feedAddress ?? MAINNET_ETH_USD_FEED, usdToFeedAnswer(priceUsd), opts.updatedAt ?? 0n);
}

/**
 * "3000.12" -> 300012000000n (8 decimals), by string manipulation only: a float would
 * turn 0.1 + 0.2 style errors into a wrong price. Numbers are accepted through their
 * shortest decimal representation; more than 8 decimals is an error, not a rounding.
 * A sign is allowed so tests can publish the invalid answers a real feed could return.
 */
export function usdToFeedAnswer(priceUsd: string | number): bigint {
  const text = typeof priceUsd === 'number' ? String(priceUsd) : priceUsd.trim();
  const match = /^(-?)(\d+)(?:\.(\d{1,8}))?$/.exec(text);
  if (!match) {
    throw new Error(`invalid USD price ${JSON.stringify(priceUsd)}: expected a decimal like "3000.12" with at most ${FEED_DECIMALS} decimals`);
  }
  const [, sign = '', whole = '0', fraction = ''] = match;
  const magnitude = BigInt(whole) * 10n ** BigInt(FEED_DECIMALS) + BigInt(fraction.padEnd(FEED_DECIMALS, '0') || '0');
  return sign === '-' ? -magnitude : magnitude;
}

async function publishAnswer(rpcUrl: string, feedAddress: Address, answer: bigint, updatedAt: bigint): Promise<PriceUpdate> {
  const client = chainClient(rpcUrl);
  const code = await client.getCode({ address: feedAddress });
  if (!code || code === '0x') {
    throw new Error(`no contract at ${feedAddress} on ${rpcUrl}; call installPriceFeedMock first`);
  }
  const [account] = await client.getAddresses();
  if (!account) throw new Error(`${rpcUrl} has no unlocked accounts (is it anvil?)`);

  const txHash = await client.writeContract({
    account,
    address: feedAddress,
    abi: mockAggregatorAbi,
    functionName: 'setRoundData',
    args: [answer, updatedAt],
    // Not estimated: anvil estimates at the latest block's timestamp, and when the
    // transaction lands in a later second the timestamp slots change too, costing more
    // than the estimate (out of gas). A first write costs ~112k.
    gas: SET_ROUND_DATA_GAS,
  });
  // With automine off (interval mining or --no-mining) the transaction would wait for
  // the next block; mine one now so the new price is readable when we return.
  if (!(await client.getAutomine())) await client.mine({ blocks: 1 });
  const receipt = await client.waitForTransactionReceipt({ hash: txHash, pollingInterval: 50, timeout: 10_000 });
  if (receipt.status !== 'success') throw new Error(`setRoundData reverted (tx ${txHash})`);

  const [roundId, readAnswer, , readUpdatedAt] = await client.readContract({
    address: feedAddress,
    abi: mockAggregatorAbi,
    functionName: 'latestRoundData',
    blockNumber: receipt.blockNumber,
  });
  return { txHash, roundId, answer: readAnswer, updatedAt: readUpdatedAt };
}

function chainClient(rpcUrl: string) {
  return createTestClient({ mode: 'anvil', chain: mainnet, transport: http(rpcUrl, { timeout: 10_000, retryCount: 1 }) })
    .extend(publicActions)
    .extend(walletActions);
}

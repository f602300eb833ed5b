/**
 * Publishes a new price on one of the local chain's mock Chainlink feeds.
 *   npm run chain:price -- 3150.25               ETH/USD
 *   npm run chain:price -- --feed USDC 0.97      USDC/USD (or USDT)
 * Uses ETH_RPC_URL (default http://127.0.0.1:8545). The ETH/USD feed is at
 * ETH_USD_FEED_ADDRESS (default: the mainnet feed address), the tokens' feeds at their
 * mainnet addresses (core/src/contract/tokens.ts). Installs the mock first if the address
 * holds no code.
 */
import type { Address } from 'viem';
import { createChainClient } from '../../core/src/chain/public-client.ts';
import { formatFeedAnswer, PriceUnavailableError, readEthUsdPrice } from '../../core/src/chain/price-feed.ts';
import { TOKEN_SYMBOLS, tokenBySymbol, type TokenSymbol } from '../../core/src/contract/tokens.ts';
import { isRpcUp } from '../lib/anvil.ts';
import { installPriceFeedMock, MAINNET_ETH_USD_FEED, mockAggregatorAbi, setEthUsdPrice } from '../lib/price-feed-mock.ts';

const FEEDS = ['ETH', ...TOKEN_SYMBOLS] as const;
const USAGE = `usage: npm run chain:price -- [--feed ${FEEDS.join('|')}] <usd price, e.g. 3150.25>`;

function parseArgs(args: string[]): { feed: (typeof FEEDS)[number]; price: string } {
  let feed: string = 'ETH';
  const rest = [...args];
  const flag = rest.indexOf('--feed');
  if (flag !== -1) {
    const [, value] = rest.splice(flag, 2);
    feed = (value ?? '').toUpperCase();
    if (!(FEEDS as readonly string[]).includes(feed)) throw new UsageError(`--feed must be one of ${FEEDS.join(', ')}, got ${JSON.stringify(value ?? '')}`);
  }
  const [price] = rest;
  if (!price || rest.length > 1) throw new UsageError(USAGE);
  return { feed: feed as (typeof FEEDS)[number], price };
}

class UsageError extends Error {}

function ethFeedAddress(): Address {
  const feedEnv = process.env.ETH_USD_FEED_ADDRESS;
  if (feedEnv !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(feedEnv)) {
    throw new Error(`ETH_USD_FEED_ADDRESS must be a 0x-prefixed 20-byte hex address, got ${JSON.stringify(feedEnv)}`);
  }
  return (feedEnv as Address | undefined) ?? MAINNET_ETH_USD_FEED;
}

async function main(): Promise<void> {
  const { feed, price: priceArg } = parseArgs(process.argv.slice(2));
  const rpcUrl = process.env.ETH_RPC_URL ?? 'http://127.0.0.1:8545';
  const feedAddress = feed === 'ETH' ? ethFeedAddress() : tokenBySymbol(feed as TokenSymbol).usdFeed;

  if (!(await isRpcUp(rpcUrl, 2_000))) {
    throw new Error(`no Ethereum node answers at ${rpcUrl} (start the dev stack, or set ETH_RPC_URL)`);
  }
  const client = createChainClient(rpcUrl);
  const chainId = await client.getChainId();
  const code = await client.getCode({ address: feedAddress });
  if (!code || code === '0x') {
    await installPriceFeedMock(rpcUrl, { priceUsd: priceArg, feedAddress });
    console.log(`installed the mock ${feed}/USD feed at ${feedAddress}`);
  } else {
    await setEthUsdPrice(rpcUrl, priceArg, { feedAddress });
  }

  if (feed !== 'ETH') {
    // The shop's reading of a stablecoin feed (its peg) belongs to the token rails; this
    // says what the feed answers now.
    const [roundId, answer, , updatedAt] = await client.readContract({ address: feedAddress, abi: mockAggregatorAbi, functionName: 'latestRoundData' });
    console.log(`${feed}/USD = ${formatFeedAnswer(answer)} (round ${roundId}, updated ${new Date(Number(updatedAt) * 1000).toISOString()}, chain ${chainId}, ${rpcUrl})`);
    return;
  }
  let price;
  try {
    price = await readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3600 });
  } catch (err) {
    // Publishing a zero or negative price is a legitimate way to try the app's
    // "price unavailable" path: report what the app will see rather than fail.
    if (!(err instanceof PriceUnavailableError)) throw err;
    console.log(`published; the app will refuse it: ${err.message}`);
    return;
  }
  console.log(
    `ETH/USD = ${price.price} (round ${price.roundId}, updated ${price.updatedAt.toISOString()}, chain ${chainId}, ${rpcUrl})`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(err instanceof UsageError ? 2 : 1);
});

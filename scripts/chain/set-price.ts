/**
 * Publishes a new ETH/USD price on the local chain's mock feed.
 *   npm run chain:price -- 3150.25
 * Uses ETH_RPC_URL (default http://127.0.0.1:8545) and ETH_USD_FEED_ADDRESS (default:
 * the mainnet feed address). Installs the mock first if the address holds no code.
 */
import { createChainClient } from '../../core/src/chain/public-client.ts';
import { PriceUnavailableError, readEthUsdPrice } from '../../core/src/chain/price-feed.ts';
import { isRpcUp } from '../lib/anvil.ts';
import { installPriceFeedMock, MAINNET_ETH_USD_FEED, setEthUsdPrice } from '../lib/price-feed-mock.ts';

async function main(): Promise<void> {
  const priceArg = process.argv[2];
  if (!priceArg || process.argv.length > 3) {
    console.error('usage: npm run chain:price -- <usd price, e.g. 3150.25>');
    process.exit(2);
  }
  const rpcUrl = process.env.ETH_RPC_URL ?? 'http://127.0.0.1:8545';
  const feedEnv = process.env.ETH_USD_FEED_ADDRESS;
  if (feedEnv !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(feedEnv)) {
    throw new Error(`ETH_USD_FEED_ADDRESS must be a 0x-prefixed 20-byte hex address, got ${JSON.stringify(feedEnv)}`);
  }
  const feedAddress = (feedEnv as `0x${string}` | undefined) ?? MAINNET_ETH_USD_FEED;

  if (!(await isRpcUp(rpcUrl, 2_000))) {
    throw new Error(`no Ethereum node answers at ${rpcUrl} (start the dev stack, or set ETH_RPC_URL)`);
  }
  const client = createChainClient(rpcUrl);
  const chainId = await client.getChainId();
  const code = await client.getCode({ address: feedAddress });
  if (!code || code === '0x') {
    await installPriceFeedMock(rpcUrl, { priceUsd: priceArg, feedAddress });
    console.log(`installed the mock ETH/USD feed at ${feedAddress}`);
  } else {
    await setEthUsdPrice(rpcUrl, priceArg, { feedAddress });
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
  process.exit(1);
});

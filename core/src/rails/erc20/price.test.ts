import type { PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../../../scripts/lib/anvil.ts';
import { setEthUsdPrice } from '../../../../scripts/lib/price-feed-mock.ts';
import { installTokenMocks } from '../../../../scripts/lib/token-mocks.ts';
import { createChainClient } from '../../chain/public-client.ts';
import { tokenBySymbol } from '../../contract/tokens.ts';
import { offPegReason, onPeg, PriceUnavailableError, tokenToUsdCents, tokenUsdPrice, usdCentsToTokenAmount } from './price.ts';

/** A stablecoin's price from its Chainlink feed (the mock at the mainnet feed's address), against its dollar peg. */
const USDC = tokenBySymbol('USDC');
const USDT = tokenBySymbol('USDT');

let anvil: AnvilInstance;
let deps: { chain: PublicClient; config: { stablecoinPegToleranceBps: number } };

beforeAll(async () => {
  anvil = await startAnvil();
  await installTokenMocks(anvil.rpcUrl);
  deps = { chain: createChainClient(anvil.rpcUrl) as unknown as PublicClient, config: { stablecoinPegToleranceBps: 100 } };
});

afterAll(async () => {
  await anvil?.stop();
});

describe('tokenUsdPrice', () => {
  it('on the peg: offered, one token one dollar, a quote exactly the USD amount in smallest units', async () => {
    for (const [token, price] of [[USDC, '1'], [USDT, '0.99']] as const) {
      await setEthUsdPrice(anvil.rpcUrl, price, { feedAddress: token.usdFeed });
      const usd = await tokenUsdPrice(deps, token);
      expect(usd).toMatchObject({ symbol: token.symbol, decimals: 6, pegged: true, reason: null, feedDecimals: 8 });
      expect(usdCentsToTokenAmount(12_345n, token)).toBe(123_450_000n); // $123.45 is 123.45 tokens
      // What arrives is worth its face value, whatever the feed says within the peg.
      expect(tokenToUsdCents(123_450_000n, usd)).toBe(12_345n);
      expect(tokenToUsdCents(123_459_999n, usd)).toBe(12_345n); // rounded down
    }
  });

  it('off the peg: not offered, with a reason people read; what arrives is valued at the feed price, rounded down', async () => {
    await setEthUsdPrice(anvil.rpcUrl, '0.97', { feedAddress: USDC.usdFeed });
    const usd = await tokenUsdPrice(deps, USDC);
    expect(usd).toMatchObject({ pegged: false, answer: 97_000_000n, price: '0.97000000' });
    expect(usd.reason).toBe('USDC is off its dollar peg (0.9700); pay in ETH or another asset');
    // 100 USDC at 0.97 are $97.00; 1 smallest unit less is worth a cent less.
    expect(tokenToUsdCents(100_000_000n, usd)).toBe(9_700n);
    expect(tokenToUsdCents(99_999_999n, usd)).toBe(9_699n);
    // The other token's feed is its own.
    expect((await tokenUsdPrice(deps, USDT)).pegged).toBe(true);
    // A wider tolerance takes it back.
    expect((await tokenUsdPrice({ ...deps, config: { stablecoinPegToleranceBps: 300 } }, USDC)).pegged).toBe(true);
    await setEthUsdPrice(anvil.rpcUrl, '1.0101', { feedAddress: USDC.usdFeed });
    const above = await tokenUsdPrice(deps, USDC);
    expect(above.reason).toBe('USDC is off its dollar peg (1.0101); pay in ETH or another asset');
    // Above its peg a token is still worth a dollar to the shop (its issuer redeems it for one): never credited more.
    expect(tokenToUsdCents(100_000_000n, above)).toBe(10_000n);
  });

  it('refuses a stale or broken feed as the ETH price is refused (PriceUnavailableError naming the feed), with a token feed’s day-long heartbeat', async () => {
    const chainNow = (await deps.chain.getBlock()).timestamp;
    // Twelve hours old: within a stablecoin feed's heartbeat (a day), where ETH/USD's hour would refuse it.
    await setEthUsdPrice(anvil.rpcUrl, '1', { feedAddress: USDT.usdFeed, updatedAt: chainNow - 12n * 3600n });
    expect((await tokenUsdPrice(deps, USDT)).pegged).toBe(true);
    await setEthUsdPrice(anvil.rpcUrl, '1', { feedAddress: USDT.usdFeed, updatedAt: chainNow - 2n * 86_400n });
    const err = await tokenUsdPrice(deps, USDT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PriceUnavailableError);
    expect((err as PriceUnavailableError).reason).toBe('stale');
    expect((err as Error).message).toContain('USDT/USD feed');
    await setEthUsdPrice(anvil.rpcUrl, '0', { feedAddress: USDT.usdFeed });
    expect(await tokenUsdPrice(deps, USDT).catch((e: unknown) => (e as PriceUnavailableError).reason)).toBe('non_positive');
  });
});

describe('the peg arithmetic', () => {
  it('holds within the tolerance on both sides, exactly at its edge', () => {
    expect(onPeg(99_000_000n, 8, 100)).toBe(true);
    expect(onPeg(98_999_999n, 8, 100)).toBe(false);
    expect(onPeg(101_000_000n, 8, 100)).toBe(true);
    expect(onPeg(101_000_001n, 8, 100)).toBe(false);
    expect(onPeg(100_000_000n, 8, 0)).toBe(true);
    expect(onPeg(99_999_999n, 8, 0)).toBe(false);
  });

  it('says the price to four decimals, cut', () => {
    expect(offPegReason('USDT', 96_789_999n, 8)).toBe('USDT is off its dollar peg (0.9678); pay in ETH or another asset');
  });

  it('quotes whole cents only from a token with at least 2 decimals', () => {
    expect(usdCentsToTokenAmount(1n, { decimals: 18 })).toBe(10n ** 16n);
    expect(() => usdCentsToTokenAmount(1n, { decimals: 1 })).toThrow();
  });
});

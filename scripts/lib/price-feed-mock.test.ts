import { createTestClient, http } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClient } from '../../core/src/chain/public-client.ts';
import { readEthUsdPrice } from '../../core/src/chain/price-feed.ts';
import { startAnvil, type AnvilInstance } from './anvil.ts';
import { installPriceFeedMock, setEthUsdPrice, usdToFeedAnswer } from './price-feed-mock.ts';

describe('usdToFeedAnswer', () => {
  it('converts decimal strings exactly to 8-decimal integers', () => {
    expect(usdToFeedAnswer('3000.12')).toBe(300_012_000_000n);
    expect(usdToFeedAnswer('0.00000001')).toBe(1n);
    expect(usdToFeedAnswer(' 42 ')).toBe(4_200_000_000n);
    expect(usdToFeedAnswer(0.1)).toBe(10_000_000n);
    expect(usdToFeedAnswer('-1.5')).toBe(-150_000_000n);
  });

  it('rejects what it cannot represent exactly', () => {
    for (const bad of ['3000.123456789', '1e3', '', 'abc', '3,000', '.5', 1e-9, Number.NaN]) {
      expect(() => usdToFeedAnswer(bad)).toThrow(/invalid USD price/);
    }
  });
});

describe('mock feed on an automining anvil', () => {
  let anvil: AnvilInstance;

  beforeAll(async () => {
    anvil = await startAnvil();
    await installPriceFeedMock(anvil.rpcUrl, { priceUsd: '3000' });
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  // Regression: with anvil's gas estimate the update ran out of gas whenever its block
  // had a later timestamp than the previous one (the timestamp slots then change too).
  it('publishes a price in a block whose timestamp moved on', async () => {
    const testClient = createTestClient({ mode: 'anvil', chain: mainnet, transport: http(anvil.rpcUrl) });
    for (const price of ['3001', '3002', '3003']) {
      await testClient.increaseTime({ seconds: 30 });
      const update = await setEthUsdPrice(anvil.rpcUrl, price);
      expect(update.answer).toBe(usdToFeedAnswer(price));
    }
  });
});

describe('mock feed on an anvil that does not automine', () => {
  let anvil: AnvilInstance;

  beforeAll(async () => {
    anvil = await startAnvil({ blockTime: 60 });
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it('still returns only once the new price is mined and readable', async () => {
    const feed = '0x00000000000000000000000000000000000feed5' as const;
    const installed = await installPriceFeedMock(anvil.rpcUrl, { priceUsd: '2500', feedAddress: feed });
    expect(installed.answer).toBe(250_000_000_000n);
    await setEthUsdPrice(anvil.rpcUrl, '2600.5', { feedAddress: feed });
    const price = await readEthUsdPrice(createChainClient(anvil.rpcUrl), { feedAddress: feed, maxAgeSeconds: 3600 });
    expect(price.price).toBe('2600.50000000');
    expect(price.roundId).toBe(2n);
  });
});

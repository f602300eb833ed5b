import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../../scripts/lib/anvil.ts';
import { installPriceFeedMock, MAINNET_ETH_USD_FEED, setEthUsdPrice } from '../../../scripts/lib/price-feed-mock.ts';
import { formatFeedAnswer, PriceUnavailableError, readEthUsdPrice } from './price-feed.ts';
import { createChainClient, type ChainClient } from './public-client.ts';

const feedAddress = MAINNET_ETH_USD_FEED;
let anvil: AnvilInstance;
let client: ChainClient;

beforeAll(async () => {
  anvil = await startAnvil();
  client = createChainClient(anvil.rpcUrl);
  await installPriceFeedMock(anvil.rpcUrl, { priceUsd: '3000.12' });
});

afterAll(async () => {
  await anvil?.stop();
});

async function expectUnavailable(promise: Promise<unknown>, reason: PriceUnavailableError['reason']) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PriceUnavailableError);
  expect((err as PriceUnavailableError).reason).toBe(reason);
  return err as PriceUnavailableError;
}

describe('readEthUsdPrice against the mock feed on anvil', () => {
  it('talks to a node that reports chain id 1 (mainnet)', async () => {
    expect(await client.getChainId()).toBe(1);
  });

  it('reads the installed price exactly, with 8 decimals', async () => {
    await setEthUsdPrice(anvil.rpcUrl, '3000.12');
    const price = await readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3600 });
    expect(price.price).toBe('3000.12000000');
    expect(price.answer).toBe(300_012_000_000n);
    expect(price.decimals).toBe(8);
    expect(price.roundId).toBeGreaterThan(0n);
    expect(Math.abs(price.updatedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('keeps every one of 8 decimals without float rounding', async () => {
    await setEthUsdPrice(anvil.rpcUrl, '0.30000001');
    expect((await readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3600 })).price).toBe('0.30000001');
    await setEthUsdPrice(anvil.rpcUrl, 3150.25);
    expect((await readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3600 })).price).toBe('3150.25000000');
  });

  it('refuses a price older than maxAgeSeconds', async () => {
    const block = await client.getBlock();
    const twoDaysAgo = block.timestamp - 2n * 86_400n;
    await setEthUsdPrice(anvil.rpcUrl, '3000.12', { updatedAt: twoDaysAgo });
    const err = await expectUnavailable(readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3600 }), 'stale');
    expect(err.message).toMatch(/stale/);
    // The same answer is fine for a caller that tolerates its age.
    const lenient = await readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3 * 86_400 });
    expect(lenient.updatedAt.getTime()).toBe(Number(twoDaysAgo) * 1000);
  });

  it('judges staleness against the injected clock', async () => {
    await setEthUsdPrice(anvil.rpcUrl, '3000.12');
    const inTwoHours = () => new Date(Date.now() + 2 * 3600_000);
    await expectUnavailable(readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3600, now: inTwoHours }), 'stale');
  });

  it('refuses a zero or negative answer', async () => {
    await setEthUsdPrice(anvil.rpcUrl, '0');
    await expectUnavailable(readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3600 }), 'non_positive');
    await setEthUsdPrice(anvil.rpcUrl, '-1.5');
    const err = await expectUnavailable(readEthUsdPrice(client, { feedAddress, maxAgeSeconds: 3600 }), 'non_positive');
    expect(err.message).toContain('-150000000');
  });

  it('wraps a failing call (no contract at the address) with its cause', async () => {
    const err = await expectUnavailable(
      readEthUsdPrice(client, { feedAddress: '0x000000000000000000000000000000000000dEaD', maxAgeSeconds: 3600 }),
      'call_failed',
    );
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('wraps an unreachable node', async () => {
    const down = createChainClient('http://127.0.0.1:1', { retryCount: 0, timeoutMs: 2_000 });
    await expectUnavailable(readEthUsdPrice(down, { feedAddress, maxAgeSeconds: 3600 }), 'call_failed');
  });
});

describe('formatFeedAnswer', () => {
  it('formats integer answers as exact 8-decimal strings', () => {
    expect(formatFeedAnswer(1n)).toBe('0.00000001');
    expect(formatFeedAnswer(300_012_000_000n)).toBe('3000.12000000');
    expect(formatFeedAnswer(123_456_789_012_345_678_901n)).toBe('1234567890123.45678901');
  });
});

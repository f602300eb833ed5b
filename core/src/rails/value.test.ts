import { describe, expect, it } from 'vitest';
import { usdCentsToWei, weiToUsdCents } from './eth/amounts.ts';
import { tokenToUsdCents, usdCentsToTokenAmount } from './erc20/price.ts';
import { unitsToUsdCents, usdCentsToUnits } from './value.ts';

describe('one valuation for every asset', () => {
  it('is ETH’s own arithmetic at 18 decimals, rounding for the shop both ways', () => {
    for (const [wei, answer] of [[1_234_567_890_123_456_789n, 300_012_345_678n], [1n, 1n], [10n ** 24n, 99_999_999n]] as const) {
      expect(unitsToUsdCents('ETH', wei, answer)).toBe(weiToUsdCents(wei, answer));
    }
    for (const [cents, answer] of [[2_500n, 300_012_345_678n], [1n, 7n], [123_456_789n, 123_456_789_012n]] as const) {
      expect(usdCentsToUnits('ETH', cents, answer)).toBe(usdCentsToWei(cents, answer));
    }
  });

  it('asks exactly the dollars of a stablecoin on its peg, and values it at face or at its feed below a dollar', () => {
    expect(usdCentsToUnits('USDC', 2_500n, 100_000_000n)).toBe(usdCentsToTokenAmount(2_500n, { decimals: 6 }));
    expect(unitsToUsdCents('USDC', 25_000_000n, 100_000_000n)).toBe(2_500n);
    const off = { decimals: 6, answer: 97_000_000n, feedDecimals: 8, pegged: false };
    expect(unitsToUsdCents('USDT', 25_000_000n, 97_000_000n)).toBe(tokenToUsdCents(25_000_000n, off));
    // 0.999999 USDC is 99 cents, never a dollar.
    expect(unitsToUsdCents('USDC', 999_999n, 100_000_000n)).toBe(99n);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_TAG, MICRO_ETH_WEI, priceToAnswer, quoteAmountWei, tagOf, usdCentsToBaseWei, weiToUsdCents } from './amounts.ts';

describe('payment amounts', () => {
  const answer = priceToAnswer('3000.12');

  it('quotes at least the USD due, in whole micro-ETH, with the tag below', () => {
    const cents = 12_345n; // $123.45
    const base = usdCentsToBaseWei(cents, answer);
    expect(base % MICRO_ETH_WEI).toBe(0n);
    expect(weiToUsdCents(base, answer)).toBeGreaterThanOrEqual(cents);
    // Rounded up by less than a micro-ETH.
    expect(weiToUsdCents(base - MICRO_ETH_WEI, answer)).toBeLessThan(cents);
    const amount = quoteAmountWei(cents, answer, 4242);
    expect(amount - base).toBe(4242n * 10n ** 3n);
    expect(tagOf(amount)).toBe(4242);
    expect(weiToUsdCents(amount, answer)).toBeGreaterThanOrEqual(cents);
  });

  it('reads no tag from a round amount and refuses bad tags', () => {
    expect(tagOf(10n ** 18n)).toBe(0);
    expect(() => quoteAmountWei(100n, answer, 0)).toThrow();
    expect(() => quoteAmountWei(100n, answer, 1_000_000_000)).toThrow();
  });

  it('has room for a billion live tags below a millionth of an ETH: throwaway accounts cannot hold them all', () => {
    expect(MAX_TAG).toBe(999_999_999);
    const amount = quoteAmountWei(2_500n, answer, MAX_TAG);
    expect(tagOf(amount)).toBe(MAX_TAG);
    // The tag stays below the quoted micro-ETH: the amount shown with 6 decimals is the base.
    expect(amount - usdCentsToBaseWei(2_500n, answer)).toBeLessThan(MICRO_ETH_WEI);
  });

  it('values wei in cents rounding down', () => {
    expect(weiToUsdCents(10n ** 18n, priceToAnswer('3000'))).toBe(300_000n);
    expect(weiToUsdCents(10n ** 18n - 1n, priceToAnswer('3000'))).toBe(299_999n);
  });
});

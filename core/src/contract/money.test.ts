import { describe, expect, it } from 'vitest';
import { formatAsset, formatEth, roundMoney, termCredit, toCents } from './money.ts';

describe('money', () => {
  it("says what a package pays over its term in exact cents (the admin's form, the package page)", () => {
    expect(termCredit('1.50', 30)).toBe('45.00');
    expect(termCredit(0.1, 3)).toBe('0.30');
    expect(termCredit('6.00', 3650)).toBe('21900.00');
  });

  it('rounds half up to 2 decimals without float noise', () => {
    expect(roundMoney(0.1 + 0.2)).toBe('0.30');
    expect(roundMoney('1.005')).toBe('1.01');
    expect(roundMoney(2.675)).toBe('2.68');
    expect(roundMoney('19.994')).toBe('19.99');
    expect(roundMoney(7)).toBe('7.00');
    expect(toCents('-3.5')).toBe(-350n);
  });

  it('formats wei as ETH with 6 decimals, cut at the sixth: never more than the wei', () => {
    expect(formatEth(1_234_567_890_123_456_789n)).toBe('1.234567');
    expect(formatEth('1000000000000')).toBe('0.000001');
    expect(formatEth('999999999999')).toBe('0.000000');
    expect(formatEth(0n)).toBe('0.000000');
  });

  it("shows a quoted amount and the transfer that paid it as the same figure, whatever the order's tag", () => {
    // 0.007 ETH quoted; the tag lives below the sixth decimal, from the lowest to the highest.
    const base = 7_000_000_000_000_000n;
    for (const tag of [1n, 499_999_999n, 500_000_000n, 999_999_999n]) expect(formatEth(base + tag * 1000n)).toBe('0.007000');
  });
});

describe('usdAmount', async () => {
  const { usdAmount } = await import('./common.ts');
  it('accepts numbers and numeric strings with at most 2 decimals, as fixed-2 strings', () => {
    expect(usdAmount.parse(12)).toBe('12.00');
    expect(usdAmount.parse(0.1 + 0.2)).toBe('0.30');
    expect(usdAmount.parse('99.9')).toBe('99.90');
    expect(usdAmount.parse('5')).toBe('5.00');
  });
  it('rejects negatives, too many decimals, junk and huge values', () => {
    for (const bad of [-1, '-1', 1.234, '1.234', 'abc', '', Infinity, NaN, 1e13, '1e3', null, {}]) {
      expect(usdAmount.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe('payment link', async () => {
  const { exactEth, paymentLink } = await import('./money.ts');
  it('is an EIP-681 request with the exact value in wei, so the tag survives a scan', () => {
    const quote = { receivingAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: 1, amountWei: '8333000000123456' };
    expect(paymentLink(quote)).toBe('ethereum:0x70997970C51812dc3A010C7d01b50e0d17dc79C8@1?value=8333000000123456');
    expect(exactEth(quote.amountWei)).toBe('0.008333000000123456');
    expect(exactEth(10n ** 18n)).toBe('1');
  });
});

describe('formatAsset', () => {
  it('writes ETH to 6 decimals and a token to its own, exactly', () => {
    expect(formatAsset('ETH', 1_234_567_890_123_456_789n)).toBe('1.234567 ETH');
    expect(formatAsset('USDC', '25000000')).toBe('25.00 USDC');
    expect(formatAsset('USDT', 1n)).toBe('0.000001 USDT');
    expect(formatAsset('USDC', 1_234_500_000n)).toBe('1234.50 USDC');
    expect(formatAsset('USDT', '24999999')).toBe('24.999999 USDT');
    expect(formatAsset('USDC', '0')).toBe('0.00 USDC');
    expect(formatAsset('USDC', '123456789012345678901234567890')).toBe('123456789012345678901234.56789 USDC');
  });
});

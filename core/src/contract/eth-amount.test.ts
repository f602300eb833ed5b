import { describe, expect, it } from 'vitest';
import { formatEth, usdToEth } from './money.ts';

describe('usdToEth', () => {
  it('divides the balance by the price with 6 decimals, without float noise', () => {
    expect(usdToEth(30, '3000.00000000')).toBe('0.010000');
    expect(usdToEth(0.1 + 0.2, '1.5')).toBe('0.200000');
    expect(usdToEth(12345.67, '2468.13579246')).toBe('5.002022');
    expect(usdToEth(0, '3000.00000000')).toBe('0.000000');
  });

  it('is the wei the amount is worth (rounded up to a wei, as a payout is checked), shown as every ETH amount is: cut at the sixth decimal', () => {
    // 20 / 3000 = 0.00666...: 6666666666666667 wei.
    expect(usdToEth(20, '3000')).toBe('0.006666');
    expect(usdToEth(20, '3000')).toBe(formatEth(6_666_666_666_666_667n));
    // 5 / 8 = 0.625 at 2 decimals.
    expect(usdToEth(5, '8', 2)).toBe('0.62');
  });

  it('gives undefined for a price it cannot divide by', () => {
    expect(usdToEth(30, '0.00000000')).toBeUndefined();
    expect(usdToEth(30, 'n/a')).toBeUndefined();
    expect(usdToEth(30, '-3000')).toBeUndefined();
  });
});

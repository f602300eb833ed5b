import { describe, expect, it } from 'vitest';
import { usdToEth } from './money.ts';

describe('usdToEth', () => {
  it('divides the balance by the price with 6 decimals, without float noise', () => {
    expect(usdToEth(30, '3000.00000000')).toBe('0.010000');
    expect(usdToEth(20, '3000')).toBe('0.006667');
    expect(usdToEth(0.1 + 0.2, '1.5')).toBe('0.200000');
    expect(usdToEth(12345.67, '2468.13579246')).toBe('5.002022');
    expect(usdToEth(0, '3000.00000000')).toBe('0.000000');
  });

  it('rounds half up on the last decimal', () => {
    // 5 / 8 = 0.625 and 1 / 8 = 0.125 at 2 decimals.
    expect(usdToEth(5, '8', 2)).toBe('0.63');
    expect(usdToEth(1, '8', 2)).toBe('0.13');
  });

  it('gives undefined for a price it cannot divide by', () => {
    expect(usdToEth(30, '0.00000000')).toBeUndefined();
    expect(usdToEth(30, 'n/a')).toBeUndefined();
    expect(usdToEth(30, '-3000')).toBeUndefined();
  });
});

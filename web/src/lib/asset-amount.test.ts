import { describe, expect, it } from 'vitest';
import { formatAssetAmount, paymentAmount } from './asset-amount';

describe('asset amounts', () => {
  it("names the asset: ETH as every ETH amount reads (6 decimals, cut), a token by its pinned decimals", () => {
    expect(formatAssetAmount('7000000000000123', 'ETH')).toBe('0.007000 ETH');
    expect(formatAssetAmount('25000000', 'USDC')).toBe('25.00 USDC');
    expect(formatAssetAmount(25_000_001n, 'USDT')).toBe('25.000001 USDT');
  });

  it("reads a payment's asset and amount (the wei of an ETH payment that predates them), '—' when nothing is known", () => {
    expect(paymentAmount({ asset: 'USDC', amount: '25000000', valueWei: null })).toBe('25.00 USDC');
    expect(paymentAmount({ asset: 'ETH', amount: null, valueWei: '7000000000000123' })).toBe('0.007000 ETH');
    expect(paymentAmount({ asset: 'ETH', amount: null, valueWei: null })).toBe('—');
    expect(paymentAmount({ asset: 'USDT', amount: 'not a number', valueWei: null })).toBe('not a number USDT');
  });
});

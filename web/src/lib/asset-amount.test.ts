import { describe, expect, it } from 'vitest';
import { assetDecimals, formatAssetAmount, formatUnitsAmount, paymentAmount } from './asset-amount';

describe('asset amounts', () => {
  it('writes a token amount from its smallest units with at least 2 decimals and never drops a digit', () => {
    expect(formatUnitsAmount('25000000', 6)).toBe('25.00');
    expect(formatUnitsAmount('25500000', 6)).toBe('25.50');
    expect(formatUnitsAmount('24999999', 6)).toBe('24.999999');
    expect(formatUnitsAmount(1n, 6)).toBe('0.000001');
    expect(formatUnitsAmount('0', 6)).toBe('0.00');
    expect(formatUnitsAmount('123456789012345678901234567890', 6)).toBe('123456789012345678901234.56789');
    expect(formatUnitsAmount('7', 0)).toBe('7.00');
  });

  it("names the asset: ETH as every ETH amount reads (6 decimals, cut), a token by its pinned decimals", () => {
    expect(formatAssetAmount('7000000000000123', 'ETH')).toBe('0.007000 ETH');
    expect(formatAssetAmount('25000000', 'USDC')).toBe('25.00 USDC');
    expect(formatAssetAmount(25_000_001n, 'USDT')).toBe('25.000001 USDT');
    expect(assetDecimals('ETH')).toBe(18);
    expect(assetDecimals('USDC')).toBe(6);
  });

  it("reads a payment's asset and amount (the wei of an ETH payment that predates them), '—' when nothing is known", () => {
    expect(paymentAmount({ asset: 'USDC', amount: '25000000', valueWei: null })).toBe('25.00 USDC');
    expect(paymentAmount({ asset: 'ETH', amount: null, valueWei: '7000000000000123' })).toBe('0.007000 ETH');
    expect(paymentAmount({ asset: 'ETH', amount: null, valueWei: null })).toBe('—');
    expect(paymentAmount({ asset: 'USDT', amount: 'not a number', valueWei: null })).toBe('not a number USDT');
  });
});

import { describe, expect, it } from 'vitest';
import { formatMoney, formatUsd, truncate } from './format';

describe('format', () => {
  it("writes USD amounts as 'USD $' with 2 decimals, without float noise", () => {
    expect(formatUsd(249.5)).toBe('USD $249.50');
    expect(formatUsd(0.1 + 0.2)).toBe('USD $0.30');
    expect(formatUsd('7')).toBe('USD $7.00');
    expect(formatMoney(1.005)).toBe('1.01');
  });

  it("cuts text to 30 characters plus '...' only when it is longer", () => {
    expect(truncate('x'.repeat(30))).toBe('x'.repeat(30));
    expect(truncate('x'.repeat(31))).toBe(`${'x'.repeat(30)}...`);
    expect(truncate('')).toBe('');
  });
});

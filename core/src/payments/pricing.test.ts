import { describe, expect, it } from 'vitest';
import { priceOrder } from './pricing.ts';

const prices = new Map([
  ['starter', 2500n],
  ['gold', 24950n],
]);
const unit = (id: string) => prices.get(id)!;

describe('priceOrder', () => {
  it('prices each line at its package price times its quantity, exactly in cents', () => {
    const price = priceOrder([{ productId: 'gold', qty: 1 }, { productId: 'starter', qty: 2 }], unit);
    expect(price.lines.map((l) => [l.productId, l.lineCents])).toEqual([['gold', 24950n], ['starter', 5000n]]);
    expect(price.itemsCents).toBe(29950n);
    expect(price.totalCents).toBe(29950n);
  });

  it('takes adjustments off the total, never below zero, and keeps the items price as it is', () => {
    const off = priceOrder([{ productId: 'starter', qty: 1 }], unit, [{ kind: 'discount', label: 'TEN', cents: -1000n }]);
    expect([off.itemsCents, off.totalCents]).toEqual([2500n, 1500n]);
    const all = priceOrder([{ productId: 'starter', qty: 1 }], unit, [{ kind: 'discount', label: 'ALL', cents: -9999n }]);
    expect(all.totalCents).toBe(0n);
  });
});

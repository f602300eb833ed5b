/**
 * What an order costs: the one pricing function, pure (no database, no clock). Placement
 * calls it with the packages' prices read under their row locks; the buyer's totals must
 * match what it says. A total is its lines less its adjustments: a discount code would
 * be one more kind of adjustment, and one more step in placement that finds it.
 */
export type PricedLine = { productId: string; qty: number; unitCents: bigint; lineCents: bigint };

/** A change to an order's total beyond its lines, in cents (negative lowers it). None exist yet. */
export type Adjustment = { kind: string; label: string; cents: bigint };

export type OrderPrice = {
  lines: PricedLine[];
  /** The lines' sum: the order's itemsPrice. */
  itemsCents: bigint;
  adjustments: Adjustment[];
  /** What the buyer pays: itemsCents plus the adjustments, never below zero. */
  totalCents: bigint;
};

export function priceOrder(lines: readonly { productId: string; qty: number }[], unitCents: (productId: string) => bigint, adjustments: Adjustment[] = []): OrderPrice {
  const priced = lines.map((l) => {
    const unit = unitCents(l.productId);
    return { productId: l.productId, qty: l.qty, unitCents: unit, lineCents: unit * BigInt(l.qty) };
  });
  const itemsCents = priced.reduce((sum, l) => sum + l.lineCents, 0n);
  const total = adjustments.reduce((sum, a) => sum + a.cents, itemsCents);
  return { lines: priced, itemsCents, adjustments, totalCents: total > 0n ? total : 0n };
}

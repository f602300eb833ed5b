import { centsToString, toCents } from '@shop/core/contract';
import { formatMoney } from '@/lib/format';

/** qty x price in exact cents, as a 2-decimal string. */
export function lineTotal(price: number | string, qty: number): string {
  try {
    return centsToString(toCents(price) * BigInt(Math.trunc(qty)));
  } catch {
    return formatMoney(Number(price) * qty);
  }
}

/** SPEC.md /placeorder: 'qty x $price = $line total', e.g. '2 x $10.50 = $21.00'. */
export function formatOrderLine(qty: number, price: number | string): string {
  return `${qty} x $${formatMoney(price)} = $${lineTotal(price, qty)}`;
}

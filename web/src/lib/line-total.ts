import { centsToString, toCents } from '@shop/core/contract';
import { t } from '@/i18n/i18n';
import { formatAmount, formatMoney } from '@/lib/format';

/** qty x price in exact cents, as a 2-decimal string. */
export function lineTotal(price: number | string, qty: number): string {
  try {
    return centsToString(toCents(price) * BigInt(Math.trunc(qty)));
  } catch {
    return formatMoney(Number(price) * qty);
  }
}

/**
 * SPEC.md /placeorder: 'qty x $price = $line total', e.g. '2 x $10.50 = $21.00'; in az and
 * ru as they write amounts: '2 x 10,50 USD = 21,00 USD' (the catalogue's `orders.line`).
 */
export function formatOrderLine(qty: number, price: number | string): string {
  return t('orders.line', { qty, price: formatAmount(price), total: formatAmount(lineTotal(price, qty)) });
}

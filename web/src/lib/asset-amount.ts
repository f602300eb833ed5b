import { formatAsset, type AssetCode } from '@shop/core/contract';

// How an amount on chain reads with its asset: '0.007000 ETH', '25.00 USDC'. The one place
// the web app turns an asset's smallest units into text; a receipt, the payment lists and
// the pay page all call it. Integer arithmetic on the units, never a float.

/** An amount in its asset (core's `formatAsset`: ETH to 6 decimals, cut; a token to its own decimals); the raw units if they are not a number. */
export function formatAssetAmount(units: bigint | string, asset: AssetCode): string {
  try {
    return formatAsset(asset, units);
  } catch {
    return `${String(units)} ${asset}`;
  }
}

type PaymentUnits = { asset: AssetCode; amount: string | null; valueWei: string | null };

/** What a payment brought, in its asset's smallest units: its `amount` (an ETH payment's wei where only that is known); null while not known. */
export function paymentUnits(payment: PaymentUnits): string | null {
  return payment.amount ?? (payment.asset === 'ETH' ? payment.valueWei : null);
}

/** What a payment brought, in its asset ('25.00 USDC'); '—' while it is not known. */
export function paymentAmount(payment: PaymentUnits): string {
  const units = paymentUnits(payment);
  return units === null ? '—' : formatAssetAmount(units, payment.asset);
}

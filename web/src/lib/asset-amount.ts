import { formatEth, tokenBySymbol, type AssetCode } from '@shop/core/contract';

// How an amount on chain reads with its asset: '0.007000 ETH', '25.00 USDC'. The one place
// the web app turns an asset's smallest units into text; a receipt, the payment lists and
// the pay page all call it. Integer arithmetic on the units, never a float.

/** The asset's decimals: 18 for ETH, a token's as pinned in the contract (tokens.ts). */
export function assetDecimals(asset: AssetCode): number {
  return asset === 'ETH' ? 18 : tokenBySymbol(asset).decimals;
}

/**
 * Smallest units as a decimal with every significant digit and at least 2 places:
 * 25000000 at 6 decimals is '25.00', 24999999 is '24.999999'. Nothing is cut or rounded:
 * a token amount has no tag in its digits, so what reads is what moves.
 */
export function formatUnitsAmount(units: bigint | string, decimals: number): string {
  const value = typeof units === 'bigint' ? units : BigInt(units);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const frac = decimals > 0 ? (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}.${frac.padEnd(2, '0')}`;
}

/**
 * An amount in its asset: ETH as every ETH amount reads (`formatEth`: 6 decimals, cut, so a
 * tagged quote and the transfer that paid it read the same), a token with its decimals.
 */
export function formatAssetAmount(units: bigint | string, asset: AssetCode, decimals = assetDecimals(asset)): string {
  try {
    return `${asset === 'ETH' ? formatEth(units) : formatUnitsAmount(units, decimals)} ${asset}`;
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

import { toCents } from '@shop/core/contract';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * SPEC.md section 9: the cashout button shows the active balance over the ETH price with
 * 6 decimals. Computed on integers (cents and the price's own decimals), rounded half
 * up, so 30 at 3000 reads exactly '0.010000'. Undefined when the price is not a
 * positive decimal.
 */
export function usdToEth(usd: number | string, price: string, decimals = 6): string | undefined {
  const match = DECIMAL.exec(price.trim());
  if (!match) return undefined;
  const [, whole = '0', frac = ''] = match;
  const priceUnits = BigInt(whole + frac); // price * 10^frac.length
  if (priceUnits === 0n) return undefined;

  let cents: bigint;
  try {
    cents = toCents(usd);
  } catch {
    return undefined;
  }
  // eth * 10^decimals = cents / 100 * 10^frac.length / priceUnits * 10^decimals
  const numerator = cents * 10n ** BigInt(frac.length + decimals);
  const denominator = 100n * priceUnits;
  const scaled = (2n * numerator + denominator) / (2n * denominator);
  const unit = 10n ** BigInt(decimals);
  const fraction = (scaled % unit).toString().padStart(decimals, '0');
  return decimals > 0 ? `${scaled / unit}.${fraction}` : (scaled / unit).toString();
}

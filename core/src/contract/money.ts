import type { AssetCode } from './json-parts.ts';
import { assetDecimals } from './tokens.ts';
/**
 * Exact decimal helpers for USD amounts as strings/numbers with at most 2 decimals.
 * Rounding is half up, on integer cents, never on binary floats.
 */
export function toCents(value: number | string): bigint {
  const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal amount: ${text}`);
  const [, sign, whole = '0', frac = ''] = match;
  let cents = BigInt(whole) * 100n + BigInt((frac + '00').slice(0, 2));
  if ((frac[2] ?? '0') >= '5') cents += 1n;
  return sign ? -cents : cents;
}

export function centsToString(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** Rounds to 2 decimals, half up, and returns the fixed-2 string ("12.50"). */
export function roundMoney(value: number | string): string {
  return centsToString(toCents(value));
}

/** What a package credits over its whole term (its daily credit times its days), in exact cents: "45.00". */
export function termCredit(dailyCredit: number | string, durationDays: number): string {
  return centsToString(toCents(dailyCredit) * BigInt(Math.trunc(durationDays)));
}

function numberToPlain(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite amount: ${value}`);
  // toPrecision(15) strips binary noise (0.1 + 0.2 -> 0.300000000000000) before rounding.
  const text = Number(value.toPrecision(15)).toString();
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * The ETH a USD amount buys at a price: the cashout button (SPEC.md section 9: the active
 * balance over the ETH price), the admin's cashout list and the operator's cashout e-mail
 * all show this one figure. It is the wei the amount is worth, rounded up to a wei as the
 * payout due is (payouts/payout-checks.ts), shown as every ETH amount is (`formatEth`).
 * Computed on integers (cents and the price's own decimals), so 30 at 3000 reads exactly
 * '0.010000'. Undefined when the price is not a positive decimal.
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
  // wei = cents / 100 * 10^18 * 10^frac.length / priceUnits, rounded up
  const numerator = cents * 10n ** BigInt(16 + frac.length);
  return formatEth((numerator + priceUnits - 1n) / priceUnits, decimals);
}

/**
 * wei (as bigint or decimal string) as ETH with exactly `decimals` places: the one way the
 * shop shows an ETH amount (the pay page, the receipt, the admin's quotes, refunds,
 * cashouts, e-mails). Cut at the last place, never rounded up: a quote's lowest digits
 * are the order's tag (below a millionth), so a quote, the transfer that paid it and the
 * admin's copy of it read the same, and no amount reads as more than its wei.
 */
export function formatEth(wei: bigint | string, decimals = 6): string {
  const value = typeof wei === 'bigint' ? wei : BigInt(wei);
  const negative = value < 0n;
  const cut = (negative ? -value : value) / 10n ** BigInt(18 - decimals);
  const whole = cut / 10n ** BigInt(decimals);
  const frac = (cut % 10n ** BigInt(decimals)).toString().padStart(decimals, '0');
  return `${negative ? '-' : ''}${decimals > 0 ? `${whole}.${frac}` : whole.toString()}`;
}

/** wei as ETH with every significant decimal ("0.008333333333123456"): what must be sent, exactly. */
export function exactEth(wei: bigint | string): string {
  const value = typeof wei === 'bigint' ? wei : BigInt(wei);
  const whole = value / 10n ** 18n;
  const frac = (value % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/**
 * The EIP-681 payment request a phone wallet scans or opens: the receiving address on
 * the chain, and the exact value in wei (its last digits carry the order's tag).
 */
export function paymentLink(quote: { receivingAddress: string; chainId: number; amountWei: string }): string {
  return `ethereum:${quote.receivingAddress}@${quote.chainId}?value=${BigInt(quote.amountWei).toString()}`;
}

/**
 * A USD amount as an answer carries it: a JSON number with 2 decimals, from a decimal
 * (a Prisma.Decimal on the server) rounded half up by its own toFixed, never by floats.
 */
export function usdNumber(amount: { toFixed(decimalPlaces: number): string }): number {
  return Number(amount.toFixed(2));
}

/**
 * An amount of any asset for people, with its code: ETH to 6 decimals, cut (formatEth);
 * a token to its own decimals with at least two, trailing zeros dropped ("25.00 USDC",
 * "0.000001 USDT"). Exact: bigint digits, never a float.
 */
export function formatAsset(asset: AssetCode, amount: bigint | string): string {
  if (asset === 'ETH') return `${formatEth(amount)} ETH`;
  const value = typeof amount === 'bigint' ? amount : BigInt(amount);
  const decimals = assetDecimals(asset);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 10n ** BigInt(decimals);
  const frac = (abs % 10n ** BigInt(decimals)).toString().padStart(decimals, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac} ${asset}`;
}

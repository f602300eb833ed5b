import type { AssetCode } from '../contract/json-parts.ts';
import { assetDecimals } from '../contract/tokens.ts';
import { quoteAmountWei, tagOf } from './eth/amounts.ts';

/**
 * What an amount of any asset is worth, and what a USD amount asks in it: one formula for
 * every rail, from the asset's decimals and a price as the Chainlink feeds give it (USD per
 * whole unit, 8 decimals: the `answer`). ETH's own helpers (eth/amounts.ts) are this
 * formula at 18 decimals; a stablecoin on its peg is valued at an answer of exactly 1e8.
 */
export const PRICE_DECIMALS = 8;
/** A dollar (or one unit of any price) as an answer: 10^8. */
export const PRICE_ONE = 10n ** BigInt(PRICE_DECIMALS);

/** `amount` (smallest units of `asset`) in USD cents at `answer`, rounded DOWN: a payment is never worth more than sent. */
export function unitsToUsdCents(asset: AssetCode, amount: bigint, answer: bigint): bigint {
  return (amount * answer * 100n) / (10n ** BigInt(assetDecimals(asset)) * PRICE_ONE);
}

/** `cents` in smallest units of `asset` at `answer`, rounded UP: what the shop asks always covers the USD. */
export function usdCentsToUnits(asset: AssetCode, cents: bigint, answer: bigint): bigint {
  if (answer <= 0n) throw new Error('price must be positive');
  if (cents < 0n) throw new Error('amount must not be negative');
  const numerator = cents * 10n ** BigInt(assetDecimals(asset)) * PRICE_ONE;
  const denominator = 100n * answer;
  return (numerator + denominator - 1n) / denominator;
}

/**
 * What a quote in `asset` asks for `cents` at `answer`: ETH's amount carries the order's
 * tag in its low digits (eth/amounts.ts, paid to the receiving address); a token's is
 * the exact units (paid to the order's own deposit address, no tag).
 */
export function quoteAmount(asset: AssetCode, cents: bigint, answer: bigint, tag: number): bigint {
  return asset === 'ETH' ? quoteAmountWei(cents, answer, tag) : usdCentsToUnits(asset, cents, answer);
}

/** The order tag an amount of `asset` carries: ETH's low digits (eth/amounts.ts); 0 for a token, which is paid by its deposit address and carries none. */
export function tagIn(asset: AssetCode, amount: bigint): number {
  return asset === 'ETH' ? tagOf(amount) : 0;
}

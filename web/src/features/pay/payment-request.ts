import { getAddress } from 'viem';
import type { AssetCode, AssetNotOfferedJson, AssetQuoteJson, OrderJson, QuoteJson, TokenSymbol } from '@shop/core/contract';

/** A quote in a token: what the wallet sends is that token's `transfer` to the order's deposit address. */
export type TokenQuote = AssetQuoteJson & { asset: TokenSymbol; tokenAddress: string };

/** True when the quote asks for a token (it names the token's contract), not ETH. */
export function isTokenQuote(quote: AssetQuoteJson): quote is TokenQuote {
  return quote.asset !== 'ETH' && quote.tokenAddress !== null;
}

/** One entry of the 'Pay with' choice: an asset offered now, or one the shop accepts but not now, with why. */
export type PayOption = { asset: AssetCode; reason: string | null };

/**
 * The assets an order may be paid in now, ETH first as the api lists them, then those it
 * accepts but does not offer now (disabled, with their reason). Empty when the order has
 * no per-asset quotes: the page pays its ETH `quote` as it always has.
 */
export function payOptions(order: Pick<OrderJson, 'quotes' | 'quotesNotOffered'>): PayOption[] {
  if (!order.quotes) return [];
  const offered = order.quotes.map((q) => ({ asset: q.asset, reason: null }));
  const notOffered = (order.quotesNotOffered ?? [])
    .filter((n: AssetNotOfferedJson) => !offered.some((o) => o.asset === n.asset))
    .map((n) => ({ asset: n.asset, reason: n.reason }));
  return [...offered, ...notOffered];
}

/**
 * What the page asks for in the chosen asset: ETH is the order's `quote` (its tagged amount,
 * its locked price), a token its entry of `quotes`. Undefined while nothing can be paid in it.
 */
export type ChosenQuote = { asset: 'ETH'; quote: QuoteJson } | { asset: TokenSymbol; quote: TokenQuote };

export function chosenQuote(order: Pick<OrderJson, 'quote' | 'quotes'>, asset: AssetCode): ChosenQuote | undefined {
  if (asset === 'ETH') return order.quote ? { asset: 'ETH', quote: order.quote } : undefined;
  const quote = order.quotes?.find((q) => q.asset === asset);
  return quote && isTokenQuote(quote) ? { asset: quote.asset, quote } : undefined;
}

/**
 * The EIP-681 request for a token payment, as a phone wallet scans it: call `transfer` on
 * the token's contract with the order's deposit address and the amount in the token's
 * smallest units. (ETH's request is the contract's `paymentLink`.)
 */
export function tokenPaymentLink(quote: Pick<TokenQuote, 'tokenAddress' | 'chainId' | 'payTo' | 'amount'>): string {
  return `ethereum:${quote.tokenAddress}@${quote.chainId}/transfer?address=${quote.payTo}&uint256=${BigInt(quote.amount).toString()}`;
}

/** An address as wallets and exchanges show it, checksummed (EIP-55): a mistyped letter is caught by the app it is pasted in. */
export function checksummed(address: string): string {
  try {
    return getAddress(address);
  } catch {
    return address;
  }
}

import { bytesToHex, getAddress, type Address } from 'viem';
import type { AssetCode, AssetNotOfferedJson, AssetQuoteJson, AuthorizationBody, AuthorizationDomain, OrderJson, QuoteJson, TokenSymbol, TransferAuthorization } from '@shop/core/contract';
import { authorizationValidBefore } from '@shop/core/contract';

/** A quote in a token: what the wallet sends is that token's `transfer` to the order's deposit address. */
export type TokenQuote = AssetQuoteJson & { asset: TokenSymbol; tokenAddress: string };

/** True when the quote asks for a token (it names the token's contract), not ETH. */
export function isTokenQuote(quote: AssetQuoteJson): quote is TokenQuote {
  return quote.asset !== 'ETH' && quote.tokenAddress !== null;
}

/** A token quote the shop also takes as one signature (EIP-3009): it names the EIP-712 domain to sign in. */
export type SignableQuote = TokenQuote & { signedTransfer: { domain: AuthorizationDomain } };

export function isSignable(quote: TokenQuote): quote is SignableQuote {
  return quote.signedTransfer !== undefined;
}

/**
 * The authorization the buyer signs for a quote (what core/src/relay/accept.ts checks):
 * from the wallet to the order's deposit address, exactly the quote's amount, valid from
 * the start of time (validAfter 0: already valid on any node's clock) until the quote
 * expires (in its last minutes, a little past it: contract's authorizationValidBefore), on
 * a random nonce of 32 bytes (the token refuses a nonce used before).
 */
export function transferAuthorization(quote: SignableQuote, from: Address, nonce = randomNonce()): TransferAuthorization {
  return {
    from,
    to: getAddress(quote.payTo),
    value: BigInt(quote.amount),
    validAfter: 0n,
    validBefore: authorizationValidBefore(new Date(quote.expiresAt)),
    nonce,
  };
}

function randomNonce(): `0x${string}` {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * POST /api/orders/:id/authorization's body: the signed message as the wallet was given
 * it (addresses in lower case, as viem writes typed data), its numbers as decimal strings.
 */
export function authorizationRequest(asset: TokenSymbol, auth: TransferAuthorization, signature: `0x${string}`): AuthorizationBody {
  return {
    asset,
    from: auth.from.toLowerCase(),
    to: auth.to.toLowerCase(),
    value: auth.value.toString(),
    validAfter: auth.validAfter.toString(),
    validBefore: auth.validBefore.toString(),
    nonce: auth.nonce,
    signature,
  };
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

import type { PublicClient } from 'viem';
import { ETH_USD_DECIMALS, formatFeedAnswer, readEthUsdPrice } from '../../chain/price-feed.ts';
import type { Token } from '../../contract/tokens.ts';

export { PriceUnavailableError } from '../../chain/price-feed.ts';

/**
 * A stablecoin's price, from its Chainlink <token>/USD feed read with the ETH/USD feed's
 * reading and staleness rules (chain/price-feed.ts: one home), against the peg. Within
 * STABLECOIN_PEG_TOLERANCE_BPS of a dollar, one token is one dollar: a quote asks exactly
 * the USD amount in the token's smallest units, and what arrives is worth its face value.
 * Off the peg the token is not offered for new quotes (`reason` says why, for people),
 * and what arrives is valued at the feed's price, rounded down.
 */
export type TokenUsd = {
  symbol: string;
  /** The token's decimals (smallest units per token: 10^decimals). */
  decimals: number;
  /** The feed's raw answer (`feedDecimals` decimals) and as a decimal string. */
  answer: bigint;
  feedDecimals: number;
  price: string;
  updatedAt: Date;
  /** Within the tolerance of one dollar. */
  pegged: boolean;
  /** Why new quotes in it are not offered (off the peg), or null when they are. */
  reason: string | null;
};

type Deps = { chain: PublicClient; config: { stablecoinPegToleranceBps: number } };

/** The token's price and whether it holds its peg; PriceUnavailableError while no trustworthy answer can be read (stale, missing). */
export async function tokenUsdPrice(deps: Deps, token: Token, now?: () => Date): Promise<TokenUsd> {
  if (token.usdFeedDecimals !== ETH_USD_DECIMALS) throw new Error(`${token.symbol}/USD feed has ${token.usdFeedDecimals} decimals; the feed reading takes ${ETH_USD_DECIMALS}`);
  const read = await readEthUsdPrice(deps.chain, { feedAddress: token.usdFeed, maxAgeSeconds: token.usdFeedMaxAgeSeconds, feedName: `${token.symbol}/USD`, ...(now ? { now } : {}) });
  const pegged = onPeg(read.answer, token.usdFeedDecimals, deps.config.stablecoinPegToleranceBps);
  return {
    symbol: token.symbol,
    decimals: token.decimals,
    answer: read.answer,
    feedDecimals: token.usdFeedDecimals,
    price: read.price,
    updatedAt: read.updatedAt,
    pegged,
    reason: pegged ? null : offPegReason(token.symbol, read.answer, token.usdFeedDecimals),
  };
}

/** |answer - 1.00| within `toleranceBps` of a dollar (exact: integer arithmetic on the feed's units). */
export function onPeg(answer: bigint, feedDecimals: number, toleranceBps: number): boolean {
  const dollar = 10n ** BigInt(feedDecimals);
  const off = answer > dollar ? answer - dollar : dollar - answer;
  return off * 10_000n <= BigInt(toleranceBps) * dollar;
}

/** "USDC is off its dollar peg (0.9700); pay in ETH or another asset": the price to 4 decimals, cut, not rounded. */
export function offPegReason(symbol: string, answer: bigint, feedDecimals: number): string {
  const [whole, fraction = ''] = formatFeedAnswer(answer, feedDecimals).split('.');
  return `${symbol} is off its dollar peg (${whole}.${fraction.padEnd(4, '0').slice(0, 4)}); pay in ETH or another asset`;
}

/** What a buyer reads while the token's feed cannot be trusted (stale, unreadable). */
export const tokenPriceUnavailable = (symbol: string) => `The ${symbol} price is unavailable right now; pay in ETH or another asset, or try again shortly`;

/**
 * A quote's amount in the token on the peg: exactly the USD due, in smallest units
 * (cents x 10^(decimals - 2)). Off the peg there is no quote (TokenUsd.reason).
 */
export function usdCentsToTokenAmount(cents: bigint, token: Pick<Token, 'decimals'>): bigint {
  if (cents < 0n) throw new Error('amount must not be negative');
  if (token.decimals < 2) throw new Error('a token with fewer than 2 decimals cannot carry cents');
  return cents * 10n ** BigInt(token.decimals - 2);
}

/**
 * What `amount` (smallest units) is worth in USD cents, rounded DOWN (a payment is never
 * worth more than sent): at face value on the peg, at the feed's price below it, and never
 * above a dollar (a token above its peg is still redeemed by its issuer for one dollar:
 * whoever sends it then is not credited more).
 */
export function tokenToUsdCents(amount: bigint, price: Pick<TokenUsd, 'decimals' | 'answer' | 'feedDecimals' | 'pegged'>): bigint {
  const dollar = 10n ** BigInt(price.feedDecimals);
  const perToken = price.pegged || price.answer > dollar ? dollar : price.answer;
  return (amount * perToken * 100n) / (10n ** BigInt(price.decimals) * 10n ** BigInt(price.feedDecimals));
}

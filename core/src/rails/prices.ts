import type { PublicClient } from 'viem';
import type { AssetCode } from '../contract/json-parts.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { answerToPrice } from './eth/amounts.ts';
import type { PriceSource } from './eth/price.ts';
import { PriceUnavailableError, tokenPriceUnavailable, tokenUsdPrice, type TokenUsd } from './erc20/price.ts';
import { PRICE_ONE } from './value.ts';

/**
 * The price of every asset the shop takes, as the money rules use it (one source per
 * process: `Runtime.assetPrices`). ETH's is the Chainlink ETH/USD price shared through
 * Redis (eth/price.ts). A stablecoin's is its <token>/USD feed judged against the peg
 * (erc20/price.ts): on the peg one token is one dollar, exactly; off it the token is not
 * offered for new quotes, and what arrives is valued at its feed's price, never above a
 * dollar. A token's reading is kept in the process for PRICE_CACHE_SECONDS: an order page
 * costs no feed call of its own.
 */
export type AssetPrice = {
  /** USD per whole unit, 8 decimals: what the asset is valued (and quoted) at. */
  answer: bigint;
  /** The same as a decimal string: a quote's `unitUsd`. */
  price: string;
};

/** An accepted asset the shop does not quote now: off its peg, or its feed unreadable. `reason` is for people. */
export class AssetNotOfferedError extends Error {
  override readonly name = 'AssetNotOfferedError';
  constructor(
    readonly asset: AssetCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export type AssetPrices = {
  /** The price a new quote in `asset` is issued at; AssetNotOfferedError for a token not offered now, PriceUnavailableError for ETH. */
  forQuote(asset: AssetCode): Promise<AssetPrice>;
  /** The answer an amount of `asset` arriving now is valued at (a late transfer, a credit); PriceUnavailableError without a trustworthy one. */
  valuation(asset: AssetCode): Promise<bigint>;
  /**
   * What an amount of `asset` is worth when it is turned into balance (an overpayment
   * credited): ETH at today's price, a token at its feed's price even on the peg, never
   * above a dollar. A token bought a little under a dollar is never credited as a dollar
   * (balance that can be cashed out as ETH).
   */
  market(asset: AssetCode): Promise<bigint>;
  /** The same, or null while no trustworthy price can be read. */
  marketOrNull(asset: AssetCode): Promise<bigint | null>;
};

type Deps = { config: { stablecoinPegToleranceBps: number; priceCacheSeconds: number }; chain: PublicClient; prices: Pick<PriceSource, 'current'> };

const ONE_DOLLAR = PRICE_ONE;

export function createAssetPrices(deps: Deps, now: () => Date = () => new Date()): AssetPrices {
  const kept = new Map<TokenSymbol, { at: number; read: Promise<TokenUsd> }>();
  const tokenPrice = (symbol: TokenSymbol): Promise<TokenUsd> => {
    const hit = kept.get(symbol);
    const at = now().getTime();
    if (hit && at - hit.at < deps.config.priceCacheSeconds * 1000) return hit.read;
    const read = tokenUsdPrice(deps, tokenBySymbol(symbol), now);
    kept.set(symbol, { at, read });
    // A failed read is not kept: the next asks the feed again.
    read.catch(() => kept.get(symbol)?.read === read && kept.delete(symbol));
    return read;
  };
  const tokenValuation = (p: TokenUsd) => (p.pegged || p.answer > ONE_DOLLAR ? ONE_DOLLAR : p.answer);
  // Plain functions, never methods: callers pass them on detached (`currentAnswer: assetPrices.valuation`).
  const valuation = async (asset: AssetCode): Promise<bigint> => {
    if (asset === 'ETH') return (await deps.prices.current()).answer;
    return tokenValuation(await tokenPrice(asset));
  };
  const market = async (asset: AssetCode): Promise<bigint> => {
    if (asset === 'ETH') return (await deps.prices.current()).answer;
    const p = await tokenPrice(asset);
    return p.answer > ONE_DOLLAR ? ONE_DOLLAR : p.answer;
  };
  return {
    async forQuote(asset) {
      if (asset === 'ETH') {
        const eth = await deps.prices.current();
        return { answer: eth.answer, price: eth.price };
      }
      let p: TokenUsd;
      try {
        p = await tokenPrice(asset);
      } catch (err) {
        if (err instanceof PriceUnavailableError) throw new AssetNotOfferedError(asset, tokenPriceUnavailable(asset));
        throw err;
      }
      if (p.reason) throw new AssetNotOfferedError(asset, p.reason);
      return { answer: ONE_DOLLAR, price: answerToPrice(ONE_DOLLAR) };
    },
    valuation,
    market,
    marketOrNull: (asset) => orNull(market(asset)),
  };
}

/** A price, or null while no trustworthy one can be read. */
async function orNull(read: Promise<bigint>): Promise<bigint | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof PriceUnavailableError) return null;
    throw err;
  }
}

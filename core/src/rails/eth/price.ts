import type { PublicClient } from 'viem';
import type { AppConfig } from '../../infra/config.ts';
import type { Redis } from '../../infra/redis.ts';
import { PriceUnavailableError, readEthUsdPrice } from '../../chain/price-feed.ts';
import { answerToPrice } from './amounts.ts';

export { PriceUnavailableError };

/** What a buyer is told while no trustworthy price can be read (answered with 503). */
export const PRICE_UNAVAILABLE = 'The ETH price is unavailable right now; please try again shortly';

export type EthUsd = { answer: bigint; price: string; updatedAt: Date };

type Deps = { config: AppConfig; redis: Redis; chain: PublicClient };

const priceKey = (config: AppConfig) => `${config.queuePrefix}:eth-usd`;

/**
 * The Chainlink ETH/USD price, cached in Redis for PRICE_CACHE_SECONDS so every api
 * instance shares one read (the worker's block watcher keeps it fresh: see
 * keepPriceFresh). A cached answer is re-checked for staleness; a Redis failure falls
 * back to reading the feed.
 */
async function getEthUsd(deps: Deps, now: () => Date = () => new Date()): Promise<EthUsd> {
  const { config, redis } = deps;
  if (config.priceCacheSeconds > 0) {
    const cached = await redis.get(priceKey(config)).catch(() => null);
    if (cached) {
      const parsed = JSON.parse(cached) as { answer: string; updatedAt: string };
      const updatedAt = new Date(parsed.updatedAt);
      if (now().getTime() - updatedAt.getTime() <= config.priceMaxAgeSeconds * 1000) {
        const answer = BigInt(parsed.answer);
        return { answer, price: answerToPrice(answer), updatedAt };
      }
    }
  }
  return readAndShare(deps, now);
}

async function readAndShare({ config, redis, chain }: Deps, now: () => Date): Promise<EthUsd> {
  const fresh = await readEthUsdPrice(chain, { feedAddress: config.ethUsdFeedAddress, maxAgeSeconds: config.priceMaxAgeSeconds, now });
  if (config.priceCacheSeconds > 0) {
    await redis
      .set(priceKey(config), JSON.stringify({ answer: fresh.answer.toString(), updatedAt: fresh.updatedAt.toISOString() }), 'EX', config.priceCacheSeconds)
      .catch(() => {});
  }
  return { answer: fresh.answer, price: answerToPrice(fresh.answer), updatedAt: fresh.updatedAt };
}

/**
 * Reads the feed again once the shared price has less than half of PRICE_CACHE_SECONDS
 * left, so the api always finds one and never reads the feed for a buyer. Returns
 * whether it read. A feed that cannot be read (or is stale) throws.
 */
async function keepPriceFresh(deps: Deps): Promise<boolean> {
  const { config, redis } = deps;
  if (config.priceCacheSeconds === 0) return false;
  const left = await redis.pttl(priceKey(config));
  if (left > (config.priceCacheSeconds * 1000) / 2) return false;
  await readAndShare(deps, () => new Date());
  return true;
}

/**
 * The one price source of a process (Runtime.prices): every rule and screen that needs
 * the ETH price asks it, so what the shop prices in and where that price comes from is
 * one object. A second payment asset would be a second source of this shape.
 */
export type PriceSource = {
  /** Today's price, shared through Redis; PriceUnavailableError while no trustworthy one can be read. */
  current(): Promise<EthUsd>;
  /** Today's feed answer (8 decimals): what the money rules take as an argument, read only when a rule needs it. */
  answer(): Promise<bigint>;
  /** Today's price as a decimal string (USD per ETH). */
  price(): Promise<string>;
  /** Today's answer, or null while no trustworthy price can be read (for what only shows it). */
  answerOrNull(): Promise<bigint | null>;
  /** Reads the feed again when the shared price is about to expire (the worker's block watcher). */
  keepFresh(): Promise<boolean>;
};

export function createPriceSource(deps: Deps): PriceSource {
  const current = () => getEthUsd(deps);
  return {
    current,
    answer: async () => (await current()).answer,
    price: async () => (await current()).price,
    async answerOrNull() {
      try {
        return (await current()).answer;
      } catch (err) {
        if (err instanceof PriceUnavailableError) return null;
        throw err;
      }
    },
    keepFresh: () => keepPriceFresh(deps),
  };
}

import type { PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import type { Redis } from '../redis.ts';
import { PriceUnavailableError, readEthUsdPrice } from '../chain/price-feed.ts';
import { answerToPrice } from './amounts.ts';

export { PriceUnavailableError };

/** What a buyer is told while no trustworthy price can be read (answered with 503). */
export const PRICE_UNAVAILABLE = 'The ETH price is unavailable right now; please try again shortly';

export type EthUsd = { answer: bigint; price: string; updatedAt: Date };

type Deps = { config: AppConfig; redis: Redis; chain: PublicClient };

/**
 * The Chainlink ETH/USD price, cached in Redis for PRICE_CACHE_SECONDS so every api
 * instance shares one read. A cached answer is re-checked for staleness; a Redis
 * failure falls back to reading the feed.
 */
export async function getEthUsd({ config, redis, chain }: Deps, now: () => Date = () => new Date()): Promise<EthUsd> {
  const key = `${config.queuePrefix}:eth-usd`;
  if (config.priceCacheSeconds > 0) {
    const cached = await redis.get(key).catch(() => null);
    if (cached) {
      const parsed = JSON.parse(cached) as { answer: string; updatedAt: string };
      const updatedAt = new Date(parsed.updatedAt);
      if (now().getTime() - updatedAt.getTime() <= config.priceMaxAgeSeconds * 1000) {
        const answer = BigInt(parsed.answer);
        return { answer, price: answerToPrice(answer), updatedAt };
      }
    }
  }
  const fresh = await readEthUsdPrice(chain, { feedAddress: config.ethUsdFeedAddress, maxAgeSeconds: config.priceMaxAgeSeconds, now });
  if (config.priceCacheSeconds > 0) {
    await redis
      .set(key, JSON.stringify({ answer: fresh.answer.toString(), updatedAt: fresh.updatedAt.toISOString() }), 'EX', config.priceCacheSeconds)
      .catch(() => {});
  }
  return { answer: fresh.answer, price: answerToPrice(fresh.answer), updatedAt: fresh.updatedAt };
}

import type { EthPriceJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';

/** The ETH price the shop quotes with, and when the feed last moved. */
export async function ethPrice(prices: AppDeps['prices']): Promise<EthPriceJson> {
  const price = await prices.current();
  return { price: price.price, updatedAt: price.updatedAt.toISOString() };
}
